package io.sluice.tools.metrics;

import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.sluice.runtime.agent.SigtermHook;
import io.sluice.runtime.counters.CountersDirectory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/**
 * {@code ./sluice metrics --root DIR --port 9464}: serves every Sluice process's counters under a journal root to
 * Prometheus. A process of its own, it serves them in Prometheus's text format over HTTP ({@code /metrics}), through
 * the Prometheus Java client's HTTP server. Each scrape reads the counters files read-only ({@link CountersCollector});
 * the processes never notice.
 */
@Command(name = "metrics", mixinStandardHelpOptions = true,
        description = "Serves the counters of every Sluice process under a journal root to Prometheus over HTTP.")
public final class MetricsMain implements Callable<Integer> {
    /** Exit code when the root does not exist or the port cannot be bound. */
    public static final int EXIT_CANNOT_SERVE = 2;

    @Option(names = "--root", required = true, paramLabel = "DIR",
            description = "the deployment's journal root (its counters are in DIR/counters)")
    private Path root;

    @Option(names = "--port", paramLabel = "PORT", defaultValue = "9464", description = "HTTP port (default 9464; 0: any free one)")
    private int port;

    @Option(names = "--bind", paramLabel = "HOST", defaultValue = "127.0.0.1", description = "address to listen on (default 127.0.0.1)")
    private String bind;

    public static void main(final String[] args) {
        SigtermHook.handleSignals();
        System.exit(new CommandLine(new MetricsMain()).execute(args));
    }

    @Override
    public Integer call() throws InterruptedException {
        if (!Files.isDirectory(root)) {
            System.err.println("metrics: no such directory: " + root.toAbsolutePath());
            return EXIT_CANNOT_SERVE;
        }
        final PrometheusRegistry registry = new PrometheusRegistry();
        registry.register(new CountersCollector(new CountersDirectory(root)));
        final HTTPServer server;
        try {
            server = HTTPServer.builder().hostname(bind).port(port).registry(registry).buildAndStart();
        } catch (final IOException e) {
            System.err.println("metrics: cannot listen on " + bind + ":" + port + ": " + e.getMessage());
            return EXIT_CANNOT_SERVE;
        }
        final CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }, "metrics-shutdown"));
        System.out.println("metrics: serving the counters under " + root.toAbsolutePath() + " at http://" + bind + ":"
                + server.getPort() + "/metrics");
        stopped.await();
        return 0;
    }
}
