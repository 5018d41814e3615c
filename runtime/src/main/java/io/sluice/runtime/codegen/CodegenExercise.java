package io.sluice.runtime.codegen;

import java.nio.file.Path;

/**
 * What a process does at start-up that makes Chronicle Wire generate a method writer or reader. It builds the process's
 * real journal writers and readers on scratch journals. {@link ChronicleClassGenerator} runs one per
 * process module at build time, so the classes Chronicle generates end up in that module's jar and the process
 * finds them by name instead of compiling them when it starts.
 */
public interface CodegenExercise {
    /**
     * Builds, then closes, every method writer and reader the process builds when it starts.
     *
     * @param scratch an empty directory for journals and configuration, deleted afterwards
     */
    void buildWritersAndReaders(Path scratch) throws Exception;
}
