package io.sluice.replication;

import io.sluice.kafka.KafkaCluster;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * One real single-broker Kafka cluster ({@link KafkaCluster}) for all the tests of a class: started before the first,
 * stopped and its data deleted after the last. Each test keeps apart from the others by its own deployment id.
 * {@code @RegisterExtension static final BrokerPerTestClass kafka = new BrokerPerTestClass();}
 */
final class BrokerPerTestClass implements BeforeAllCallback, AfterAllCallback {
    private Path data;
    private KafkaCluster cluster;

    @Override
    public void beforeAll(final ExtensionContext context) throws Exception {
        data = Files.createTempDirectory("sluice-kafka-" + context.getRequiredTestClass().getSimpleName());
        cluster = KafkaCluster.start(data, 1);
    }

    @Override
    public void afterAll(final ExtensionContext context) throws Exception {
        if (cluster != null) {
            cluster.close();
        }
        if (data != null) {
            try (Stream<Path> paths = Files.walk(data)) {
                for (final Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(path);
                }
            } catch (final IOException e) {
                System.err.println("cannot delete the broker's data " + data + ": " + e);
            }
        }
    }

    /** @return the broker's address, for the shippers', receivers' and promote's {@code bootstrapServers} */
    String bootstrapServers() {
        return cluster.bootstrapServers();
    }

    /** @return an admin client of the broker; the caller closes it */
    Admin admin() {
        return cluster.admin();
    }
}
