package io.sluice.bench.fix;

import picocli.CommandLine.Option;

/**
 * How many orders each arm of an A/B benchmark of two {@link ArmPair} deployments gets, and in how many slices they go
 * out, as a picocli mixin: {@code --warmup}, {@code --orders} and {@code --rounds}. Each benchmark constructs it with
 * its own defaults, which picocli takes as the options' initial values (and shows in {@code --help}).
 */
final class ArmOrderOptions {
    @Option(names = "--warmup", description = "warm-up orders per arm (default ${DEFAULT-VALUE})")
    private long warmup;

    @Option(names = "--orders", description = "measured orders per arm (default ${DEFAULT-VALUE})")
    private long orders;

    @Option(names = "--rounds", description = "slices the measured orders go out in, arms taking turns"
            + " (default ${DEFAULT-VALUE})")
    private int rounds;

    /** The defaults: {@code warmup} and {@code orders} per arm, measured in {@code rounds} slices. */
    ArmOrderOptions(final long warmup, final long orders, final int rounds) {
        this.warmup = warmup;
        this.orders = orders;
        this.rounds = rounds;
    }

    long warmup() {
        return warmup;
    }

    long orders() {
        return orders;
    }

    int rounds() {
        return rounds;
    }
}
