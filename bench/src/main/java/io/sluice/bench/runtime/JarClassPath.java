package io.sluice.bench.runtime;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * A class path whose directories are packed into jars. The JDK's AOT cache archives classes from jars only
 * (a training run on a class path with {@code target/classes} directories fails to dump with "Cannot have
 * non-empty directory in paths"), and its production runs must use the very same jars; so the warm-up
 * benchmark packs its own class path once and runs every variant, with or without the cache, on the result.
 */
public final class JarClassPath {
    private JarClassPath() {
    }

    /**
     * @param classPath a class path (entries separated by the platform's path separator)
     * @param dir       where the jars of directory entries are written
     * @return the same class path with each directory entry replaced by a jar of its contents
     */
    public static String pack(final String classPath, final Path dir) throws IOException {
        Files.createDirectories(dir);
        final List<String> entries = new ArrayList<>();
        int n = 0;
        for (final String entry : classPath.split(File.pathSeparator)) {
            final Path path = Path.of(entry);
            if (Files.isDirectory(path)) {
                final Path jar = dir.resolve(String.format("%02d-%s.jar", n++, jarName(path)));
                packDirectory(path, jar);
                entries.add(jar.toAbsolutePath().toString());
            } else if (!entry.isEmpty()) {
                entries.add(entry);
            }
        }
        return String.join(File.pathSeparator, entries);
    }

    /** @return a readable name for the jar of {@code dir}: e.g. {@code bench-classes} for bench/target/classes. */
    static String jarName(final Path dir) {
        final Path absolute = dir.toAbsolutePath().normalize();
        final Path target = absolute.getParent();
        final Path module = target == null ? null : target.getParent();
        final String name = absolute.getFileName() == null ? "root" : absolute.getFileName().toString();
        return module != null && module.getFileName() != null && "target".equals(target.getFileName().toString())
                ? module.getFileName() + "-" + name : name;
    }

    private static void packDirectory(final Path dir, final Path jar) throws IOException {
        try (OutputStream file = Files.newOutputStream(jar);
             JarOutputStream out = new JarOutputStream(file);
             Stream<Path> paths = Files.walk(dir)) {
            for (final Path path : paths.sorted().toList()) {
                if (path.equals(dir)) {
                    continue;
                }
                final String name = dir.relativize(path).toString().replace(File.separatorChar, '/');
                if (Files.isDirectory(path)) {
                    out.putNextEntry(new JarEntry(name + "/"));
                } else {
                    out.putNextEntry(new JarEntry(name));
                    Files.copy(path, out);
                }
                out.closeEntry();
            }
        }
    }
}
