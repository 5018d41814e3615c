package io.sluice.gateway;

import org.agrona.concurrent.SystemEpochClock;

import java.net.SocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** A gateway running in this JVM on its own thread (which constructs it, as Chronicle requires), for socket tests. */
final class RunningGateway implements AutoCloseable {
    private final CompletableFuture<SocketAddress> started = new CompletableFuture<>();
    private final CompletableFuture<Throwable> ended = new CompletableFuture<>();
    private final Thread thread;
    private volatile boolean running = true;

    RunningGateway(final GatewayConfig config) throws Exception {
        thread = new Thread(() -> {
            try (Gateway gateway = new Gateway(config, SystemEpochClock.INSTANCE)) {
                started.complete(gateway.localAddress());
                gateway.run(() -> running);
                ended.complete(null);
            } catch (final Throwable failure) {
                started.completeExceptionally(failure);
                ended.complete(failure);
            }
        }, "gateway-" + config.gatewayId());
        thread.start();
        started.get(30, TimeUnit.SECONDS);
    }

    /** @return bytes the gateway's I/O thread has allocated so far (HotSpot's per-thread counter). */
    long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean())
                .getThreadAllocatedBytes(thread.threadId());
    }

    /** @return what ended the gateway's run (null: it was stopped), waiting at most {@code seconds} for it */
    Throwable awaitEnd(final long seconds) throws Exception {
        return ended.get(seconds, TimeUnit.SECONDS);
    }

    SocketAddress address() {
        return started.join();
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join(10_000);
    }
}
