package io.sluice.bench.fix;

import io.sluice.engine.config.EngineConfig;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The configs a deployment writes are read back by the engine's and gateways' own config loaders. */
class SluiceConfigsTest {
    @Test
    void theEngineReadsItsConfigWithTheTradedInstrumentAndEveryGateway() {
        final Path root = Path.of("/tmp/sluice test/journals");
        final EngineConfig config = EngineConfig.parse(SluiceConfigs.engine(root, List.of(1, 2), "SLC"), "test");
        assertEquals(root, config.journalRoot());
        assertArrayEquals(new int[] {1, 2}, config.gatewayIds());
    }
}
