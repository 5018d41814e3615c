package io.sluice.gateway;

import com.sun.management.ThreadMXBean;
import io.sluice.runtime.agent.AgentThread;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.SystemEpochClock;

import java.lang.management.ManagementFactory;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A gateway running in this JVM as the gateway process runs it (a {@link GatewayAgent} on an {@link AgentThread}, which
 * constructs it on its own thread, as Chronicle requires), for socket tests.
 */
final class RunningGateway implements AutoCloseable {
    private final CompletableFuture<SocketAddress> started = new CompletableFuture<>();
    private volatile List<SocketAddress> addresses;
    private final AgentThread thread;
    private volatile Thread ioThread;

    RunningGateway(final GatewayConfig config) throws Exception {
        this(config, SystemEpochClock.INSTANCE);
    }

    RunningGateway(final GatewayConfig config, final EpochClock clock) throws Exception {
        thread = AgentThread.start(new GatewayAgent(new GatewayContext().config(config).epochClock(clock), gateway -> {
            ioThread = Thread.currentThread();
            final List<SocketAddress> bound = new ArrayList<>();
            for (int i = 0; i < gateway.describeListening().size(); i++) {
                bound.add(gateway.localAddress(i));
            }
            addresses = bound;
            started.complete(gateway.localAddress());
        }), config.idle().newStrategy(), config.pinCpu(), AgentThread.Priority.NORMAL);
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!started.isDone()) {
            if (thread.awaitClosed(10, TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("the gateway did not start", thread.failure());
            }
            if (System.nanoTime() - deadline > 0) {
                throw new TimeoutException("the gateway did not start within 30 s");
            }
        }
    }

    /** @return bytes the gateway's I/O thread has allocated so far (HotSpot's per-thread counter). */
    long allocatedBytes() {
        return ((ThreadMXBean) ManagementFactory.getThreadMXBean())
                .getThreadAllocatedBytes(ioThread.threadId());
    }

    /** @return the id of the gateway's I/O thread. */
    long ioThreadId() {
        return ioThread.threadId();
    }

    /** @return what ended the gateway's run (null: it was stopped), waiting at most {@code seconds} for it */
    Throwable awaitEnd(final long seconds) throws Exception {
        if (!thread.awaitClosed(seconds, TimeUnit.SECONDS)) {
            throw new TimeoutException("the gateway still runs after " + seconds + " s");
        }
        return thread.failure();
    }

    /** @return true if the gateway's agent still runs */
    boolean running() throws InterruptedException {
        return !thread.awaitClosed(0, TimeUnit.NANOSECONDS);
    }

    SocketAddress address() {
        return started.join();
    }

    /** @return the {@code index}th listen address as bound ({@code listen}, then {@code alsoListen}). */
    SocketAddress address(final int index) {
        started.join();
        return addresses.get(index);
    }

    @Override
    public void close() {
        thread.close(10, TimeUnit.SECONDS);
    }
}
