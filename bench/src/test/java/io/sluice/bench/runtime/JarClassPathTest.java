package io.sluice.bench.runtime;

import io.sluice.runtime.codegen.ChronicleClassGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarFile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Directories on a class path become jars with the same entries; jar entries stay as they are, in order. */
final class JarClassPathTest {
    @TempDir
    Path dir;

    @Test
    void aDirectoryEntryIsPackedIntoAJarWithTheSamePaths() throws Exception {
        final Path classes = dir.resolve("bench/target/classes");
        Files.createDirectories(classes.resolve("io/sluice"));
        Files.writeString(classes.resolve("io/sluice/A.class"), "not really a class");
        final Path library = Files.writeString(dir.resolve("lib.jar"), "a jar already");

        final String packed = JarClassPath.pack(classes + File.pathSeparator + library, dir.resolve("jars"));

        final String[] entries = packed.split(File.pathSeparator);
        assertEquals(2, entries.length);
        assertTrue(entries[0].endsWith("00-bench-classes.jar"), entries[0]);
        assertEquals(library.toString(), entries[1]);
        try (JarFile jar = new JarFile(entries[0])) {
            assertNotNull(jar.getEntry("io/sluice/A.class"));
            assertEquals("not really a class", new String(jar.getInputStream(jar.getEntry("io/sluice/A.class"))
                    .readAllBytes()));
        }
    }

    @Test
    void withoutGeneratedClassesTheListedClassesAndTheListAreLeftOutOfDirectoriesAndJars() throws Exception {
        final Path classes = dir.resolve("engine/target/classes");
        Files.createDirectories(classes.resolve(ChronicleClassGenerator.LIST).getParent());
        Files.createDirectories(classes.resolve("io/sluice"));
        Files.writeString(classes.resolve("io/sluice/Kept.class"), "kept");
        Files.writeString(classes.resolve("io/sluice/AMethodReader.class"), "generated");
        Files.writeString(classes.resolve(ChronicleClassGenerator.LIST), "io.sluice.AMethodReader\n");
        final String jar = JarClassPath.pack(classes.toString(), dir.resolve("with"));

        final String[] without = JarClassPath.pack(classes + File.pathSeparator + jar, dir.resolve("without"), false)
                .split(File.pathSeparator);

        assertEquals(2, without.length);
        for (final String entry : without) {
            try (JarFile packed = new JarFile(entry)) {
                assertNotNull(packed.getEntry("io/sluice/Kept.class"), entry);
                assertNull(packed.getEntry("io/sluice/AMethodReader.class"), entry);
                assertNull(packed.getEntry(ChronicleClassGenerator.LIST), entry);
            }
        }
        try (JarFile packed = new JarFile(jar)) {
            assertNotNull(packed.getEntry("io/sluice/AMethodReader.class"), "kept when asked for");
        }
    }
}
