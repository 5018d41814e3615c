package io.sluice.systemtests.alloc;

import io.sluice.bench.marketdata.MarketDataAllocationRun;
import io.sluice.runtime.process.JavaProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The zero-allocation gate of market data (DESIGN.md, hot path rules): the market-data agents and a feed handler, in
 * a child JVM under the Epsilon collector (which never frees) with a small fixed heap, turned on one thread while a
 * real engine trades ({@link MarketDataAllocationRun}), allocate nothing per message: in at least one of two stretches
 * under {@value #MAX_BYTES_PER_STRETCH} bytes in all, over some 27,000 messages each. One object per message would be
 * hundreds of kilobytes a stretch; what the allowance covers is Chronicle mapping the next chunk of a growing journal.
 */
final class MarketDataAllocationTest {
    private static final long MAX_BYTES_PER_STRETCH = 16_384;
    private static final Pattern STRETCH = Pattern.compile(Pattern.quote(MarketDataAllocationRun.STRETCH)
            + "(\\d): (\\d+) bytes over (\\d+) messages.*gaps (\\d+), checksums (\\d+) equal and (\\d+) different");

    @TempDir
    Path dir;

    @Test
    void theAgentsAndTheHandlerAllocateNothingPerMessageUnderEpsilon() throws Exception {
        try (JavaProcess child = JavaProcess.start("marketdata-alloc", dir.resolve("child.log"),
                List.of("-XX:+UnlockExperimentalVMOptions", "-XX:+UseEpsilonGC", "-Xms512m", "-Xmx512m"),
                MarketDataAllocationRun.class, dir.resolve("root").toString(), "30000")) {
            assertEquals(0, child.waitFor(600), child.logText());
            final String log = child.logText();
            System.out.print(log.lines().filter(line -> line.startsWith(MarketDataAllocationRun.STRETCH))
                    .reduce("", (all, line) -> all + line + "\n"));
            final Matcher stretches = STRETCH.matcher(log);
            long least = Long.MAX_VALUE;
            int seen = 0;
            while (stretches.find()) {
                seen++;
                least = Math.min(least, Long.parseLong(stretches.group(2)));
                assertTrue(Long.parseLong(stretches.group(3)) > 10_000, "messages in a stretch: " + stretches.group(3));
                assertEquals("0", stretches.group(6), "checksums that differ");
            }
            assertEquals(2, seen, log);
            assertTrue(least < MAX_BYTES_PER_STRETCH, "allocated per stretch (the lesser): " + least + "\n" + log);
        }
    }
}
