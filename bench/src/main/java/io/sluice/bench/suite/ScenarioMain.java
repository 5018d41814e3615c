package io.sluice.bench.suite;

import java.util.Arrays;
import java.util.Optional;

/**
 * {@code ScenarioMain <scenario> [options]}: runs one scenario of {@link BenchScenarios#ALL}, the one list of scenarios.
 * {@code ./sluice bench} dispatches here, and the suite starts each scenario's child JVM here.
 */
public final class ScenarioMain {
    private static final int NAME_COLUMN = 26;
    private static final int LINE = 118;

    private ScenarioMain() {
    }

    public static void main(final String[] args) throws Exception {
        final String name = args[0];
        final String[] rest = Arrays.copyOfRange(args, 1, args.length);
        final Optional<BenchScenario> scenario = BenchScenarios.find(name);
        if (scenario.isEmpty()) {
            System.err.println("bench: unknown scenario '" + name + "'.");
            System.out.print(usage());
            System.exit(2);
        }
        scenario.get().launcher().run(rest);
    }

    /** @return the usage text: the commands, then every scenario of the list with what it measures */
    public static String usage() {
        final StringBuilder text = new StringBuilder("""
                Usage: ./sluice bench <scenario> [options]   (./sluice bench <scenario> --help: its options)
                       ./sluice bench all [--quick] [--repeats N] [--only a,b]   every scenario, fresh JVMs, then RESULTS.md
                       ./sluice bench report [--newest N]   render bench/RESULTS.md from bench/results, running nothing

                Scenarios:
                """);
        for (final BenchScenario scenario : BenchScenarios.ALL) {
            final StringBuilder line = new StringBuilder("  ").append(scenario.name());
            line.append(" ".repeat(Math.max(1, NAME_COLUMN - line.length())));
            for (final String word : scenario.description().split(" ")) {
                if (line.length() + 1 + word.length() > LINE && line.length() > NAME_COLUMN) {
                    text.append(line.toString().stripTrailing()).append('\n');
                    line.setLength(0);
                    line.append(" ".repeat(NAME_COLUMN));
                }
                line.append(word).append(' ');
            }
            text.append(line.toString().stripTrailing()).append('\n');
        }
        return text.toString();
    }
}
