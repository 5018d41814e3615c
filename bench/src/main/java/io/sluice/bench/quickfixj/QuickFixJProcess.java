package io.sluice.bench.quickfixj;

import io.sluice.bench.fix.FixEndpoint;
import io.sluice.bench.fix.FixTarget;
import io.sluice.bench.fix.LoopbackPorts;
import io.sluice.bench.fix.PollUntil;
import io.sluice.bench.fix.SessionIdentity;
import io.sluice.contracts.process.JavaProcess;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The QuickFIX/J baseline acceptor as a child JVM of its own, so that, like Sluice's gateway and engine, it
 * does not share a process (heap, GC, JIT threads) with the load client measuring it.
 */
public final class QuickFixJProcess implements AutoCloseable {
    /** The SenderCompID the load client uses against the baseline. */
    public static final String CLIENT_COMP_ID = "LOADQ";

    private final JavaProcess process;
    private final FixEndpoint endpoint;

    private QuickFixJProcess(final JavaProcess process, final FixEndpoint endpoint) {
        this.process = process;
        this.endpoint = endpoint;
    }

    /** Starts the acceptor, logging to {@code log}, and returns once it accepts connections. */
    public static QuickFixJProcess start(final Path log, final Duration timeout)
            throws IOException, InterruptedException {
        final int port = LoopbackPorts.free();
        final JavaProcess process = JavaProcess.start("quickfixj", log, List.of("-Xmx1g"), QuickFixJAcceptor.class,
                Integer.toString(port), CLIENT_COMP_ID);
        final FixEndpoint endpoint = FixEndpoint.tcp("127.0.0.1", port);
        try {
            PollUntil.await(() -> !process.isAlive() || endpoint.isAccepting(), timeout,
                    () -> "the QuickFIX/J acceptor to accept on " + endpoint + "; log: " + process.logText());
            if (!process.isAlive()) {
                throw new IOException("the QuickFIX/J acceptor exited at start; log: " + process.logText());
            }
        } catch (final RuntimeException | IOException e) {
            process.kill9();
            throw e;
        }
        return new QuickFixJProcess(process, endpoint);
    }

    /** @return the baseline as a benchmark target over TCP (QuickFIX/J has no Unix domain socket transport). */
    public FixTarget target() {
        return new FixTarget("QuickFIX/J TCP", endpoint,
                new SessionIdentity(CLIENT_COMP_ID, QuickFixJAcceptor.COMP_ID, "", ""));
    }

    @Override
    public void close() throws InterruptedException {
        process.close();
    }
}
