package io.sluice.bench.replication;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;

/** The options of {@code ./sluice bench replication}, for picocli: {@code --help} prints them. */
@Command(name = "./sluice bench replication", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Replication lag through a real Kafka broker, a shipper and a receiver (child processes): from a"
                + " command's append to the primary journal to its arrival in the replica, per offered rate.")
final class ReplicationLagOptions {
    @Option(names = "--rates", split = ",", paramLabel = "RATE",
            description = "offered commands per second, one phase each; 0: flat out (default 10000,100000,0)")
    private long[] rates = {10_000, 100_000, 0};

    @Option(names = "--seconds", description = "seconds of each phase at a rate (default ${DEFAULT-VALUE})")
    private long seconds = 5;

    @Option(names = "--warm-up-seconds", description = "seconds of the unmeasured warm-up before the first rate, at "
            + ReplicationLagBench.WARM_UP_RATE + " commands/s (default ${DEFAULT-VALUE}): long enough for the JIT to"
            + " finish compiling the shipper and receiver, whose CPU is measured by process")
    private long warmUpSeconds = 10;

    @Option(names = "--flat-out", description = "commands of the flat-out phase (default ${DEFAULT-VALUE})")
    private long flatOut = 300_000;

    @Option(names = "--journals", paramLabel = "DIR", description = "where the journals and the broker's log go (default:"
            + " /dev/shm, in memory, when it has room, as for the demo; else the temporary directory)")
    private Path journals;

    @Option(names = "--jfr", paramLabel = "DIR",
            description = "the shipper, receiver and broker record a JFR profile in DIR, made if missing (the broker's covers Sluice's phases)")
    private Path jfr;

    @Option(names = "--shipper-idle", paramLabel = "YAML",
            description = "the shipper's idle strategy, as the replication config's idle: (default: the config's)")
    private String shipperIdle;

    long[] rates() {
        return rates;
    }

    long seconds() {
        return seconds;
    }

    long warmUpSeconds() {
        return warmUpSeconds;
    }

    long flatOut() {
        return flatOut;
    }

    Path journals() {
        return journals;
    }

    Path jfr() {
        return jfr;
    }

    String shipperIdle() {
        return shipperIdle;
    }
}
