package io.sluice.bench.runtime;

import io.sluice.runtime.process.CpuPinning;
import io.sluice.tools.fix.OrderLoad;
import io.sluice.tools.fix.SluiceDeployment;
import io.sluice.tools.fix.StandardOrders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The engine and gateway, real child JVMs taking an order from a FIX client to its fill, never run javac: every
 * Chronicle method writer and reader they build was generated at build time and is found on the class path.
 * Without those classes (the class path as it was before) the same start does run javac, so the probe can fail.
 */
final class StartCompilesTest {
    @TempDir
    Path dir;

    @Test
    void theEngineAndGatewayCompileNothingAtRunTimeWithTheBuildTimeClasses() throws Exception {
        final long[] javac = javacClassesOfOneOrder(System.getProperty("java.class.path"), "built");
        assertEquals(0, javac[0], "javac classes loaded by the engine");
        assertEquals(0, javac[1], "javac classes loaded by the gateway");
        final String loaded = Files.readString(dir.resolve("built-engine-classes.log"));
        assertTrue(loaded.contains("io.sluice.engine.recovery.InputSourceInputSource$CheckerMethodReader source: file:"),
                "the engine's gateway-journal reader comes from its module's classes");
    }

    @Test
    void withoutThemChronicleCompilesWithJavacAsTheProcessesStart() throws Exception {
        final String before = JarClassPath.pack(System.getProperty("java.class.path"), dir.resolve("jars"), false);
        final long[] javac = javacClassesOfOneOrder(before, "before");
        assertTrue(javac[0] > 0, "javac classes loaded by the engine: " + javac[0]);
        assertTrue(javac[1] > 0, "javac classes loaded by the gateway: " + javac[1]);
    }

    private long[] javacClassesOfOneOrder(final String classPath, final String name) throws Exception {
        final Path engineLog = dir.resolve(name + "-engine-classes.log");
        final Path gatewayLog = dir.resolve(name + "-gateway-classes.log");
        try (FixPath path = FixPath.start(dir.resolve(name), new SluiceDeployment.ProcessSettings(classPath,
                List.of(StartCompiles.logFlag(engineLog)), List.of(StartCompiles.logFlag(gatewayLog)), CpuPinning.NONE))) {
            final OrderLoad order = new OrderLoad(path.load(), StandardOrders.BUY, 1, 1, OrderLoad.newRecorder());
            assertTrue(order.run(1, System.nanoTime() + Duration.ofMinutes(2).toNanos()), "one order filled");
            path.stop(Duration.ofSeconds(10));
        }
        return new long[] {StartCompiles.javacClasses(engineLog), StartCompiles.javacClasses(gatewayLog)};
    }
}
