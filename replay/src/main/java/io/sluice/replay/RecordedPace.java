package io.sluice.replay;

import io.sluice.contracts.AdminCommand;
import io.sluice.contracts.CancelOrder;
import io.sluice.contracts.MassCancel;
import io.sluice.contracts.MetaData;
import io.sluice.contracts.NewOrder;
import io.sluice.contracts.ReplaceOrder;
import io.sluice.contracts.time.SluiceClock;
import io.sluice.engine.EngineInput;
import org.agrona.concurrent.NanoClock;

import java.util.concurrent.locks.LockSupport;

/**
 * Holds each input back until as long after the replay's first input as it was written after the recording's
 * first input ({@link MetaData#commandWriting()}, 0.1 µs ticks), then passes it on: {@link Pace#RECORDED}.
 * Inputs that are already late go at once, so a replay slower than the recording just runs flat out.
 */
final class RecordedPace implements EngineInput {
    /** Gaps shorter than this are spun, longer ones parked: a park oversleeps by tens of microseconds. */
    private static final long SPIN_NANOS = 100_000;

    private final EngineInput next;
    private final NanoClock clock;
    private long firstWritten;
    private long startNanos;

    RecordedPace(final EngineInput next, final NanoClock clock) {
        this.next = next;
        this.clock = clock;
    }

    @Override
    public void newOrder(final NewOrder order) {
        await(order.metaData());
        next.newOrder(order);
    }

    @Override
    public void cancelOrder(final CancelOrder cancel) {
        await(cancel.metaData());
        next.cancelOrder(cancel);
    }

    @Override
    public void replaceOrder(final ReplaceOrder replace) {
        await(replace.metaData());
        next.replaceOrder(replace);
    }

    @Override
    public void massCancel(final MassCancel massCancel) {
        await(massCancel.metaData());
        next.massCancel(massCancel);
    }

    @Override
    public void adminCommand(final AdminCommand command) {
        await(command.metaData());
        next.adminCommand(command);
    }

    private void await(final MetaData metaData) {
        if (startNanos == 0) {
            firstWritten = metaData.commandWriting();
            startNanos = clock.nanoTime();
            return;
        }
        final long due = startNanos + (metaData.commandWriting() - firstWritten) * SluiceClock.NANOS_PER_TICK;
        long wait;
        while ((wait = due - clock.nanoTime()) > 0) {
            if (wait > SPIN_NANOS) {
                LockSupport.parkNanos(wait - SPIN_NANOS);
            } else {
                Thread.onSpinWait();
            }
        }
    }
}
