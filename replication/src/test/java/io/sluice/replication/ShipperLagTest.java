package io.sluice.replication;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The lag line names a round of the shipper's agent that stopped it, with the time that round spent committing, once:
 * the next line, after short rounds only, says nothing of it.
 */
final class ShipperLagTest {
    private final ShipperLag lag = new ShipperLag(System::nanoTime);

    @Test
    void aRoundThatStoppedTheShipperIsNamedWithItsCommitTimeInTheNextLineOnly() {
        lag.round(TimeUnit.MILLISECONDS.toNanos(2), 0);
        lag.round(TimeUnit.MILLISECONDS.toNanos(3_170), TimeUnit.MILLISECONDS.toNanos(3_150));
        lag.round(TimeUnit.MILLISECONDS.toNanos(40), TimeUnit.MILLISECONDS.toNanos(40));

        final String stopped = lag.line(List.of(), null, "kafka up");
        assertTrue(stopped.endsWith(" | stopped: a round took 3,170 ms, 3,150 of them committing, and shipped nothing"
                + " meanwhile | kafka up"), stopped);

        lag.round(TimeUnit.MILLISECONDS.toNanos(ShipperLag.STOPPED_MILLIS) - 1, 0);
        assertEquals("shipper: lag | backlog 0 | kafka up", lag.line(List.of(), null, "kafka up"));
    }
}
