package io.sluice.bench.e2e;

import io.sluice.runtime.process.JavaProcess;
import io.sluice.tools.demo.DemoMain;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ./sluice demo --replicate}, a short run, as a user starts it: the demo's JVM starts the engine, two gateways,
 * a Kafka broker, a shipper, a receiver and a shadow engine as child processes, and ends with a replica identical to
 * the primary excerpt by excerpt and the shadow's verdict "identical"; every child is gone and the demo's root deleted
 * afterwards. Here, not in tools: the demo runs the replication module's roles, built after tools (whose classes the
 * replication tests use), so only a module built after both can run it.
 */
class DemoReplicateTest {
    private static final Pattern CHILD_PID = Pattern.compile("^ {2}(\\S+(?: \\d)?) +pid (\\d+)", Pattern.MULTILINE);

    @TempDir
    Path dir;

    @Test
    void aShortReplicatedDemoEndsWithAnIdenticalReplicaAndAnIdenticalShadow() throws Exception {
        final JavaProcess demo = JavaProcess.start("demo", dir.resolve("demo.log"), List.of(), DemoMain.class,
                "--replicate", "--duration", "3s", "--rate", "200", "--idle", "backoff", "--journals",
                dir.resolve("journals").toString());
        final int exit = demo.waitFor(600);
        final String log = demo.logText();
        assertEquals(0, exit, log);
        assertTrue(Pattern.compile("(?m)^replica: identical: 5 journals, [\\d,]+ excerpts").matcher(log).find(), log);
        final Matcher shadow = Pattern.compile("(?m)^shadow: +identical, (\\d+) reports").matcher(log);
        assertTrue(shadow.find(), log);
        assertTrue(Long.parseLong(shadow.group(1)) > 0, log);
        assertTrue(log.contains("replica ") && log.contains(" | shadow "), "the per-second lines show the replica and shadow: " + log);

        final Matcher child = CHILD_PID.matcher(log);
        int children = 0;
        while (child.find()) {
            children++;
            assertFalse(ProcessHandle.of(Long.parseLong(child.group(2))).map(ProcessHandle::isAlive).orElse(false),
                    child.group(1) + " outlived the demo: " + log);
        }
        assertEquals(8, children, "engine, 2 gateways, marketdata, kafka, shipper, receiver, shadow: " + log);
        try (Stream<Path> left = Files.list(dir.resolve("journals"))) {
            assertEquals(List.of(), left.toList(), "the demo deletes its root");
        }
    }
}
