package io.sluice.bench;

import java.util.Arrays;

/**
 * {@code ./sluice bench <scenario> [options]}: runs one benchmark scenario, each printing a table and
 * writing JSON under {@code bench/results/}.
 */
public final class BenchMain {
    private BenchMain() {
    }

    public static void main(final String[] args) throws Exception {
        final String scenario = args.length == 0 ? "--help" : args[0];
        final String[] rest = Arrays.copyOfRange(args, Math.min(1, args.length), args.length);
        switch (scenario) {
            case "-h", "--help", "help" -> usage();
            case "replay" -> io.sluice.bench.replay.ReplayBench.main(rest);
            default -> {
                System.err.println("bench: unknown scenario '" + scenario + "'.");
                usage();
                System.exit(2);
            }
        }
    }

    private static void usage() {
        System.out.println("""
                Usage: ./sluice bench <scenario> [options]

                Scenarios:
                  replay   replay with comparison vs engine alone over a recorded set (--orders N, default 10 M)
                """);
    }
}
