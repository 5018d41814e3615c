package io.sluice.systemtests.script;

import io.sluice.gateway.FixScript;
import io.sluice.gateway.FixScriptRunner;
import io.sluice.tools.fix.SluiceDeployment;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The FIX market-data cases, each a {@link FixScript} in {@code src/test/resources/fix-market-data-cases}: subscribe
 * and unsubscribe, snapshot then incrementals, and every MarketDataRequestReject, played against real engine,
 * {@code marketdata} and gateway processes on real journals over TCP. Each script has a session of its own, whose
 * {@code !session} line gives its entitlement; scripts that rest orders take them out again, so the next starts from
 * an empty book.
 */
class MarketDataCasesTest {
    private static final String PASSWORD = "pw";

    @TempDir
    static Path dir;

    private static List<FixScript> scripts;
    private static ScriptedDeployment deployment;

    @BeforeAll
    static void startDeployment() throws Exception {
        scripts = new ArrayList<>();
        try (Stream<Path> files = Files.list(Path.of(MarketDataCasesTest.class.getResource("/fix-market-data-cases")
                .toURI()))) {
            for (final Path file : files.filter(file -> file.toString().endsWith(".fix")).sorted().toList()) {
                scripts.add(FixScript.read(file));
            }
        }
        deployment = ScriptedDeployment.startWithMarketData(dir, "slowSubscriberTimeout: 5s", "", scripts.stream()
                .map(script -> "    !Session { senderCompId: %s, targetCompId: %s, password: %s%s }".formatted(
                        script.senderCompId(), SluiceDeployment.GATEWAY_COMP_ID, PASSWORD,
                        script.sessionSettings().isEmpty() ? "" : ", " + script.sessionSettings()))
                .collect(Collectors.joining(",\n")));
    }

    @AfterAll
    static void stop() throws Exception {
        if (deployment != null) {
            deployment.close();
        }
    }

    @TestFactory
    Stream<DynamicTest> everyCase() {
        return scripts.stream().map(script -> DynamicTest.dynamicTest(script.name() + ": " + script.title(), () -> {
            try {
                new FixScriptRunner(deployment.gateway().address()).run(script);
            } catch (final AssertionError failed) {
                throw new AssertionError(failed.getMessage() + "\n  gateway log: " + deployment.gatewayLog(), failed);
            }
        }));
    }
}
