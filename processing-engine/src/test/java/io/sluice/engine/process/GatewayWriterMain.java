package io.sluice.engine.process;

import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;

/**
 * A gateway stand-in as a child process: {@code GatewayWriterMain <root> <gatewayId> <seed> <count> <pauseMicros>}
 * appends {@code count} commands of the seeded mix. It writes through {@link GatewayJournalWriter}, pausing {@code
 * pauseMicros} after every ten so that it streams for a while instead of finishing at once.
 */
public final class GatewayWriterMain {
    private GatewayWriterMain() {
    }

    public static void main(final String[] args) {
        final Path root = Path.of(args[0]);
        final int gatewayId = Integer.parseInt(args[1]);
        final long seed = Long.parseLong(args[2]);
        final long count = Long.parseLong(args[3]);
        final long pauseNanos = Long.parseLong(args[4]) * 1_000;
        try (GatewayJournalWriter writer = new GatewayJournalWriter(root, gatewayId, seed)) {
            while (writer.written() < count) {
                writer.write(Math.min(10, count - writer.written()));
                LockSupport.parkNanos(pauseNanos); // pacing a load, not waiting for anything
            }
        }
        System.out.println("writer " + gatewayId + ": wrote " + count);
    }
}
