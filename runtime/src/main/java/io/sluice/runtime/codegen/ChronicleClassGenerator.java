package io.sluice.runtime.codegen;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Build step: generates the method writer and reader classes Chronicle Wire would otherwise generate and compile with
 * javac while the process starts. It runs in Maven's {@code process-classes} phase of the engine and gateway modules,
 * at build time. Chronicle looks a generated class up by name ({@code Class.forName}) before it compiles one, so
 * a class file of that name in the module's jar is used as is. The generator runs the module's
 * {@link CodegenExercise}, with Chronicle's {@code dumpCodeToTarget} switched on, which makes Chronicle's
 * compiler write every class it compiles under {@code project.build.directory}; it copies those class files into
 * the module's classes and lists their names in {@value #LIST}, which the warm-up benchmark reads to start a
 * process the old way (without them).
 * <p>
 * Usage: {@code ChronicleClassGenerator <classes directory> <CodegenExercise class>}.
 */
public final class ChronicleClassGenerator {
    /** Where, under a module's classes, the names of its generated classes are listed, one binary name a line. */
    public static final String LIST = "META-INF/sluice/chronicle-generated.txt";

    private ChronicleClassGenerator() {
    }

    public static void main(final String[] args) throws Exception {
        if (args.length != 2) {
            throw new IllegalArgumentException("usage: ChronicleClassGenerator <classes directory> <CodegenExercise class>");
        }
        final Path classes = Path.of(args[0]);
        final Path work = Files.createTempDirectory("sluice-codegen");
        try {
            // Before any Chronicle class loads: both are read in static initialisers (Wires, OS).
            final Path target = Files.createDirectories(work.resolve("target"));
            System.setProperty("dumpCodeToTarget", "true");
            System.setProperty("project.build.directory", target.toString());
            // Last build's classes would be found by name and nothing regenerated, however stale they are.
            deleteListed(classes);
            final CodegenExercise exercise = (CodegenExercise) Class.forName(args[1]).getDeclaredConstructor().newInstance();
            exercise.buildWritersAndReaders(Files.createDirectories(work.resolve("scratch")));
            final List<String> names = copyClasses(target.resolve("test-classes"), classes);
            if (names.isEmpty()) {
                throw new IllegalStateException(args[1] + " made Chronicle generate no class: nothing was compiled"
                        + " (are the JVM flags of jvm.options missing?)");
            }
            final Path list = classes.resolve(LIST);
            Files.createDirectories(list.getParent());
            Files.write(list, names);
            System.out.println("generated " + names.size() + " Chronicle Wire classes into " + classes + ": " + names);
        } finally {
            deleteTree(work);
        }
    }

    private static void deleteListed(final Path classes) throws IOException {
        final Path list = classes.resolve(LIST);
        if (Files.isRegularFile(list)) {
            for (final String name : Files.readAllLines(list)) {
                Files.deleteIfExists(classes.resolve(name.replace('.', '/') + ".class"));
            }
            Files.delete(list);
        }
    }

    /** @return the binary names of the classes copied from {@code from} to {@code to} */
    private static List<String> copyClasses(final Path from, final Path to) throws IOException {
        final List<String> names = new ArrayList<>();
        if (!Files.isDirectory(from)) {
            return names;
        }
        try (Stream<Path> files = Files.walk(from)) {
            for (final Path file : files.filter(f -> f.toString().endsWith(".class")).sorted().toList()) {
                final String relative = from.relativize(file).toString().replace('\\', '/');
                final Path copy = to.resolve(relative);
                Files.createDirectories(copy.getParent());
                Files.copy(file, copy, StandardCopyOption.REPLACE_EXISTING);
                names.add(relative.substring(0, relative.length() - ".class".length()).replace('/', '.'));
            }
        }
        return names;
    }

    private static void deleteTree(final Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (final Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
