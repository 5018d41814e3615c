package io.sluice.bench.quickfixj;

import io.sluice.bench.fix.BaselineProcess;
import io.sluice.bench.fix.FixTarget;
import io.sluice.tools.fix.FixEndpoint;
import io.sluice.tools.fix.LoopbackPorts;
import io.sluice.tools.fix.SessionIdentity;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The QuickFIX/J baseline acceptor as a child JVM of its own ({@link BaselineProcess}), over TCP: QuickFIX/J has
 * no Unix domain socket transport.
 */
public final class QuickFixJProcess {
    /** The SenderCompID the load client uses against the baseline. */
    public static final String CLIENT_COMP_ID = "LOADQ";

    private QuickFixJProcess() {
    }

    /** Starts the acceptor, logging to {@code log}, and returns once it accepts connections. */
    public static BaselineProcess start(final Path log, final Duration timeout)
            throws IOException, InterruptedException {
        final int port = LoopbackPorts.free();
        final FixTarget target = new FixTarget("QuickFIX/J TCP", FixEndpoint.tcp("127.0.0.1", port),
                new SessionIdentity(CLIENT_COMP_ID, QuickFixJAcceptor.COMP_ID, "", ""));
        return BaselineProcess.start(target, log, List.of("-Xmx1g"), timeout, QuickFixJAcceptor.class,
                Integer.toString(port), CLIENT_COMP_ID);
    }
}
