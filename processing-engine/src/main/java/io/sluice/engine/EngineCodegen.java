package io.sluice.engine;

import io.sluice.engine.config.EngineConfig;
import io.sluice.engine.recovery.ExcerptText;
import io.sluice.runtime.codegen.CodegenExercise;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.wire.WireType;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.regex.Matcher;

/**
 * The engine's {@link CodegenExercise}: starts and recovers an {@link EngineService} on empty journals (its
 * journal output and recovery writers, its gateway-journal and consumption-order readers) and builds the reader
 * that prints reports when recovery finds a mismatch. Run by the build (see processing-engine/pom.xml).
 */
public final class EngineCodegen implements CodegenExercise {
    @Override
    public void buildWritersAndReaders(final Path scratch) throws IOException {
        final String example;
        try (InputStream in = EngineCodegen.class.getResourceAsStream("/engine-example.yaml")) {
            example = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        final String yaml = example
                .replaceFirst("journalRoot: [^,\\n]+", Matcher.quoteReplacement("journalRoot: \"" + scratch + "\""))
                .replaceFirst("pretouch: true", "pretouch: false");
        try (EngineService service = new EngineService(EngineConfig.parse(yaml, "engine-example.yaml"))) {
            service.recover();
        }
        ExcerptText.reports(WireType.BINARY_LIGHT.apply(Bytes.allocateElasticOnHeap(64)), false);
    }
}
