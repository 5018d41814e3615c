package io.sluice.bench.runtime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * Whether a process compiled Java source at run time, read from its {@code -Xlog:class+load} file: Chronicle Wire
 * compiles a method writer or reader it does not find by name with javac, inside the process, so any class of
 * javac ({@code com.sun.tools.javac}) loaded means it did. The warm-up benchmark logs every run's engine and
 * gateway this way, proving that the build-time classes leave javac out of the start.
 */
final class StartCompiles {
    private static final String JAVAC = "com.sun.tools.javac.";

    private StartCompiles() {
    }

    /** @return the flag that makes a JVM log every class it loads into {@code file} */
    static String logFlag(final Path file) {
        return "-Xlog:class+load=info:file=" + file.toAbsolutePath();
    }

    /** @return how many classes of javac the JVM that wrote {@code file} loaded; -1 if there is no such file */
    static long javacClasses(final Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            return -1;
        }
        try (Stream<String> lines = Files.lines(file)) {
            return lines.filter(line -> line.contains("[class,load] " + JAVAC)).count();
        }
    }
}
