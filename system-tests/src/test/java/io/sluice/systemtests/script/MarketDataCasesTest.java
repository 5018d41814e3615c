package io.sluice.systemtests.script;

import io.sluice.testkit.fix.FixScript;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The FIX market-data cases, each a {@link FixScript} in {@code src/test/resources/fix-market-data-cases}: subscribe
 * and unsubscribe, snapshot then incrementals, and every MarketDataRequestReject, played against real engine,
 * {@code marketdata} and gateway processes on real journals over TCP. Each script has a session of its own, whose
 * {@code !session} line gives its entitlement; scripts that rest orders take them out again, so the next starts from
 * an empty book.
 */
class MarketDataCasesTest {
    @TempDir
    static Path dir;

    private static List<FixScript> scripts;
    private static ScriptedDeployment deployment;

    @BeforeAll
    static void startDeployment() throws Exception {
        scripts = ScriptCases.read("/fix-market-data-cases");
        deployment = ScriptedDeployment.startWithMarketData(dir, "slowSubscriberTimeout: 5s", "", ScriptCases.sessions(scripts));
    }

    @AfterAll
    static void stop() throws Exception {
        if (deployment != null) {
            deployment.close();
        }
    }

    @TestFactory
    Stream<DynamicTest> everyCase() {
        return ScriptCases.play(scripts, deployment);
    }
}
