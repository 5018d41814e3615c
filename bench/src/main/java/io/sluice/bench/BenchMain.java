package io.sluice.bench;

import io.sluice.bench.suite.ReportMain;
import io.sluice.bench.suite.ScenarioMain;
import io.sluice.bench.suite.SuiteMain;

import java.util.Arrays;

/**
 * {@code ./sluice bench <scenario>}: runs one scenario of the one list ({@link ScenarioMain}), or {@code all} of them,
 * or renders the report.
 */
public final class BenchMain {
    private BenchMain() {
    }

    public static void main(final String[] args) throws Exception {
        final String name = args.length == 0 ? "help" : args[0];
        final String[] rest = Arrays.copyOfRange(args, Math.min(1, args.length), args.length);
        switch (name) {
            case "-h", "--help", "help" -> System.out.print(ScenarioMain.usage());
            case "all" -> SuiteMain.main(rest);
            case "report" -> ReportMain.main(rest);
            default -> ScenarioMain.main(args);
        }
    }
}
