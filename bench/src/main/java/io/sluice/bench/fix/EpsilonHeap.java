package io.sluice.bench.fix;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads how many bytes a child JVM running the Epsilon collector has allocated so far: Epsilon never frees,
 * so the used part of its heap is everything ever allocated. Asks the JVM with {@code jcmd <pid> GC.heap_info}
 * (whose own attach costs a few kilobytes, once per reading).
 */
final class EpsilonHeap {
    private static final Pattern SPACE = Pattern.compile("\\[0x([0-9a-f]+), 0x([0-9a-f]+), 0x([0-9a-f]+)\\)");

    private EpsilonHeap() {
    }

    /** @return bytes allocated so far by the Epsilon JVM {@code pid}. */
    static long usedBytes(final long pid) throws IOException, InterruptedException {
        final Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        final Process process = new ProcessBuilder(jcmd.toString(), Long.toString(pid), "GC.heap_info")
                .redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        process.waitFor();
        if (!output.contains("Epsilon")) {
            throw new IOException("process " + pid + " does not run the Epsilon collector; jcmd said: " + output);
        }
        final Matcher space = SPACE.matcher(output);
        if (!space.find()) {
            throw new IOException("cannot read the heap's used space from jcmd's answer: " + output);
        }
        return Long.parseUnsignedLong(space.group(2), 16) - Long.parseUnsignedLong(space.group(1), 16);
    }
}
