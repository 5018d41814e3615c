package io.sluice.bench.replication;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** The options of {@code ./sluice bench failover-netns}, for picocli: {@code --help} prints them. */
@Command(name = "./sluice bench failover-netns", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Split brain on two network namespaces: the primary and its client on one side, the Kafka broker"
                + " and ./sluice standby on the other; the link is cut, then healed (needs root).")
final class SplitBrainOptions {
    @Option(names = "--partition", paramLabel = "SECONDS",
            description = "how long the link stays cut, at least until the standby took an order (default ${DEFAULT-VALUE})")
    private long partitionSeconds = 10;

    @Option(names = "--rounds", description = "rounds, each on fresh namespaces and a fresh deployment (default ${DEFAULT-VALUE})")
    private int rounds = 10;

    @Option(names = "--warm", paramLabel = "SECONDS",
            description = "how long the primary takes orders, its standby watching, before the cut: a standby that has"
                    + " watched for a while, not one still starting (default ${DEFAULT-VALUE})")
    private long warmSeconds = 5;

    long partitionSeconds() {
        return partitionSeconds;
    }

    int rounds() {
        return rounds;
    }

    long warmSeconds() {
        return warmSeconds;
    }
}
