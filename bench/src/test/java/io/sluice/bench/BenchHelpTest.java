package io.sluice.bench;

import io.sluice.bench.suite.BenchScenario;
import io.sluice.bench.suite.BenchScenarios;
import io.sluice.runtime.process.JavaProcess;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ./sluice bench <scenario> --help} prints the scenario's usage and exits 0, for every scenario. Each runs in a
 * child JVM, as the launcher runs it, and measures nothing.
 */
class BenchHelpTest {
    @TempDir
    Path dir;

    static Stream<String> scenarios() {
        return BenchScenarios.ALL.stream().map(BenchScenario::name);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void printsItsUsageAndExitsZero(final String scenario) throws Exception {
        try (JavaProcess bench = JavaProcess.start(scenario, dir.resolve(scenario + ".log"), List.of("-Xmx128m"),
                BenchMain.class, scenario, "--help")) {
            assertEquals(0, bench.waitFor(60), bench::logText);
            final String usage = bench.logText();
            assertTrue(usage.startsWith("Usage: "), usage);
            assertTrue(usage.contains("--help"), usage);
        }
    }
}
