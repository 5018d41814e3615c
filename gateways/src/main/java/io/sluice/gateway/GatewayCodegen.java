package io.sluice.gateway;

import io.sluice.runtime.codegen.CodegenExercise;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;

/**
 * The gateway's {@link CodegenExercise}: starts a {@link Gateway} from the example configuration on empty journals,
 * then closes it. It runs on a scratch Unix domain socket and builds its command writer, session-record writer,
 * recovery scans and report reader. Run by the build (see gateways/pom.xml).
 */
public final class GatewayCodegen implements CodegenExercise {
    @Override
    public void buildWritersAndReaders(final Path scratch) throws IOException {
        final String example;
        try (InputStream in = GatewayCodegen.class.getResourceAsStream("/gateway-example.yaml")) {
            example = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        final Path config = scratch.resolve("gateway.yaml");
        Files.writeString(config, example
                .replaceFirst("journalRoot: [^,\\n]+", Matcher.quoteReplacement("journalRoot: \"" + scratch + "\""))
                .replaceFirst("listen: [^,\\n]+", Matcher.quoteReplacement("listen: \"unix:" + scratch.resolve("fix.sock") + "\"")));
        Gateway.launch(new GatewayContext().config(GatewayConfig.load(config, Map.of()))).close();
    }
}
