package io.sluice.bench.fix;

import io.sluice.runtime.process.JavaProcess;
import io.sluice.runtime.process.PollUntil;
import io.sluice.tools.fix.FixEndpoint;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A FIX acceptor the benchmarks compare Sluice with (QuickFIX/J, the echo floor), as a child JVM of its own. So, like
 * Sluice's gateway and engine, it shares no process (heap, GC, JIT threads) with the load client measuring it. Started,
 * it accepts connections at its target's endpoint.
 */
public final class BaselineProcess implements AutoCloseable {
    private final JavaProcess process;
    private final FixTarget target;

    private BaselineProcess(final JavaProcess process, final FixTarget target) {
        this.process = process;
        this.target = target;
    }

    /**
     * Starts {@code mainClass} with {@code args}, logging to {@code log}, and returns once something accepts
     * connections at {@code target}'s endpoint.
     */
    public static BaselineProcess start(final FixTarget target, final Path log, final List<String> jvm,
                                        final Duration timeout, final Class<?> mainClass, final String... args)
            throws IOException, InterruptedException {
        final JavaProcess process = JavaProcess.start(target.label(), log, jvm, mainClass, args);
        final FixEndpoint endpoint = target.endpoint();
        try {
            PollUntil.await(() -> !process.isAlive() || endpoint.isAccepting(), timeout,
                    () -> target.label() + " to accept on " + endpoint + "; log: " + process.logText());
            if (!process.isAlive()) {
                throw new IOException(target.label() + " exited at start; log: " + process.logText());
            }
        } catch (final RuntimeException | IOException e) {
            process.kill9();
            throw e;
        }
        return new BaselineProcess(process, target);
    }

    /** @return where and as whom the load client connects. */
    public FixTarget target() {
        return target;
    }

    @Override
    public void close() throws InterruptedException {
        process.close();
    }
}
