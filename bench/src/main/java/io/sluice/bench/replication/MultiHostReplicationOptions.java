package io.sluice.bench.replication;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** The options of {@code ./sluice bench replication-netns}, for picocli: {@code --help} prints them. */
@Command(name = "./sluice bench replication-netns", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Replication across two network namespaces joined by a veth pair (needs root): the link"
                + " delayed, lossy, narrow, then cut and healed; the lag per phase, the catch-up, and whether both"
                + " roots end identical.")
final class MultiHostReplicationOptions {
    @Option(names = "--rate", description = "FIX orders per second on the primary (default ${DEFAULT-VALUE})")
    private long rate = 1_000;

    @Option(names = "--baseline", description = "seconds of the unimpaired phase (default ${DEFAULT-VALUE})")
    private long baseline = 20;

    @Option(names = "--delay", description = "seconds of the netem delay phase (default ${DEFAULT-VALUE})")
    private long delay = 20;

    @Option(names = "--loss", description = "seconds of the netem loss phase (default ${DEFAULT-VALUE})")
    private long loss = 20;

    @Option(names = "--narrow", description = "seconds of the narrow-link (tbf) phase (default ${DEFAULT-VALUE})")
    private long narrow = 20;

    @Option(names = "--partition", description = "seconds the link is down (default ${DEFAULT-VALUE})")
    private long partition = 60;

    @Option(names = "--after", description = "seconds after the link is healed (default ${DEFAULT-VALUE})")
    private long after = 60;

    @Option(names = "--delay-spec", description = "tc netem delay arguments (default \"${DEFAULT-VALUE}\")")
    private String delaySpec = "1ms 200us";

    @Option(names = "--loss-spec", description = "tc netem loss arguments (default \"${DEFAULT-VALUE}\")")
    private String lossSpec = "1%";

    @Option(names = "--narrow-spec", description = "tc tbf arguments (default \"${DEFAULT-VALUE}\")")
    private String narrowSpec = "rate 8mbit burst 32kb latency 100ms";

    MultiHostPlan plan() {
        return new MultiHostPlan(rate, baseline, delay, loss, narrow, partition, after, delaySpec,
                lossSpec, narrowSpec);
    }
}
