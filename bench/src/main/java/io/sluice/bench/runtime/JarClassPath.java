package io.sluice.bench.runtime;

import io.sluice.runtime.codegen.ChronicleClassGenerator;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * A class path whose directories are packed into jars. The JDK's AOT cache archives classes from jars only
 * (a training run on a class path with {@code target/classes} directories fails to dump with "Cannot have
 * non-empty directory in paths"), and its production runs must use the very same jars; so the warm-up
 * benchmark packs its own class path once and runs every variant, with or without the cache, on the result.
 * <p>
 * It can also pack a class path as it was before Chronicle's classes were generated at build time: without the
 * classes each module lists in {@value ChronicleClassGenerator#LIST}, so that Chronicle compiles them with javac
 * when the process starts.
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
        return pack(classPath, dir, true);
    }

    /**
     * @param withGenerated false to leave out the Chronicle classes generated at build time (and their lists),
     *                      re-packing any jar that holds some
     * @return as {@link #pack(String, Path)}
     */
    public static String pack(final String classPath, final Path dir, final boolean withGenerated) throws IOException {
        Files.createDirectories(dir);
        final List<String> entries = new ArrayList<>();
        int n = 0;
        for (final String entry : classPath.split(File.pathSeparator)) {
            final Path path = Path.of(entry);
            if (Files.isDirectory(path)) {
                final Path jar = dir.resolve(String.format("%02d-%s.jar", n++, jarName(path)));
                packDirectory(path, jar, withGenerated ? Set.of() : generatedIn(path));
                entries.add(jar.toAbsolutePath().toString());
            } else if (!withGenerated && entry.endsWith(".jar") && !generatedIn(path).isEmpty()) {
                final Path jar = dir.resolve(String.format("%02d-%s", n++, path.getFileName()));
                repackJar(path, jar, generatedIn(path));
                entries.add(jar.toAbsolutePath().toString());
            } else if (!entry.isEmpty()) {
                entries.add(entry);
            }
        }
        return String.join(File.pathSeparator, entries);
    }

    /** @return the entry names of the generated classes listed in a classes directory or jar, and the list's */
    private static Set<String> generatedIn(final Path entry) throws IOException {
        final String text;
        if (Files.isDirectory(entry)) {
            final Path list = entry.resolve(ChronicleClassGenerator.LIST);
            if (!Files.isRegularFile(list)) {
                return Set.of();
            }
            text = Files.readString(list);
        } else {
            try (JarFile jar = new JarFile(entry.toFile())) {
                final JarEntry list = jar.getJarEntry(ChronicleClassGenerator.LIST);
                if (list == null) {
                    return Set.of();
                }
                try (InputStream in = jar.getInputStream(list)) {
                    text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                }
            }
        }
        final Set<String> names = new HashSet<>();
        names.add(ChronicleClassGenerator.LIST);
        text.lines().filter(line -> !line.isBlank()).forEach(name -> names.add(name.replace('.', '/') + ".class"));
        return Collections.unmodifiableSet(names);
    }

    private static void repackJar(final Path from, final Path to, final Set<String> leftOut) throws IOException {
        try (JarFile in = new JarFile(from.toFile());
             OutputStream file = Files.newOutputStream(to);
             JarOutputStream out = new JarOutputStream(file)) {
            for (final JarEntry entry : Collections.list(in.entries())) {
                if (leftOut.contains(entry.getName())) {
                    continue;
                }
                out.putNextEntry(new JarEntry(entry.getName()));
                try (InputStream bytes = in.getInputStream(entry)) {
                    bytes.transferTo(out);
                }
                out.closeEntry();
            }
        }
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

    private static void packDirectory(final Path dir, final Path jar, final Set<String> leftOut) throws IOException {
        try (OutputStream file = Files.newOutputStream(jar);
             JarOutputStream out = new JarOutputStream(file);
             Stream<Path> paths = Files.walk(dir)) {
            for (final Path path : paths.sorted().toList()) {
                if (path.equals(dir)) {
                    continue;
                }
                final String name = dir.relativize(path).toString().replace(File.separatorChar, '/');
                if (leftOut.contains(name)) {
                    continue;
                }
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
