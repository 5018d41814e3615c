package io.sluice.engine.recovery;

import io.sluice.engine.JournalingInput;
import net.openhft.chronicle.bytes.Bytes;

import static net.openhft.chronicle.core.UnsafeMemory.MEMORY;

/**
 * Compares the excerpt a fresh engine is about to commit with the recorded excerpt of the same input, in place and byte
 * for byte. Only the bytes a run stamps itself are left out ({@link ReportLayout}: the run timestamps, and the
 * checksum, which covers them): no decoding, no copying, no reading the fresh journal back, no allocation. The one
 * comparison of re-run and recorded reports: the engine's recovery refuses to go live on the
 * first mismatch ({@link RecordedInputs#recover}), a replay reports it as a divergence. It is the fresh engine's
 * {@link JournalingInput.Inspector}, so it sees the fresh excerpt in the appender's (or the recovery wire's)
 * memory just before the commit, and walks the recorded excerpt's reports by the shapes {@link ConsumptionOrder} found reading it
 * (the recorded journal is read once). Since every report's kind is named by its first bytes, which are
 * compared, and each kind has a fixed length, a fresh excerpt holding a different number, order or kind of
 * reports differs in compared bytes; {@link ExcerptText} then explains the divergence field by field.
 * <p>
 * Use: {@link #expect} the recorded input, feed it to the fresh engine, then ask {@link #matched()}.
 */
public final class ExcerptComparison implements JournalingInput.Inspector {
    private final boolean ignoreEngineIds;
    private ConsumptionOrder expected;
    private boolean inspected;
    private boolean matched;

    /** @param ignoreEngineIds also leave out OrderID and ExecID (engine-wide counters), for replays of some gateways */
    public ExcerptComparison(final boolean ignoreEngineIds) {
        this.ignoreEngineIds = ignoreEngineIds;
    }

    /** The fresh excerpt inspected next is to match {@code recorded}'s current excerpt. */
    public void expect(final ConsumptionOrder recorded) {
        expected = recorded;
        inspected = false;
        matched = false;
    }

    /** @return true if the fresh engine committed an excerpt since {@link #expect} and it held the recorded reports */
    public boolean matched() {
        return inspected && matched;
    }

    /** @return how many reports the last matching excerpt held. */
    public int reports() {
        return expected.reports();
    }

    @Override
    public void inspect(final long address, final long length) {
        inspected = true;
        matched = expected != null && matches(expected, address, length);
    }

    /**
     * @param recorded a consumption order at the recorded excerpt
     * @param address  where the fresh excerpt's content starts in memory
     * @param length   its length
     * @return true if they hold the same reports
     */
    public boolean matches(final ConsumptionOrder recorded, final long address, final long length) {
        final Bytes<?> bytes = recorded.excerpt();
        if (bytes == null || bytes.readRemaining() != length) {
            return false;
        }
        final long expectedAddress = bytes.addressForRead(bytes.readPosition(), (int) length);
        long at = 0;
        for (int i = 0; i < recorded.reports(); i++) {
            final ReportLayout.Shape shape = recorded.shape(i);
            if (!sameReport(shape, address + at, expectedAddress + at)) {
                return false;
            }
            at += shape.length();
        }
        return at == length;
    }

    private boolean sameReport(final ReportLayout.Shape shape, final long actual, final long expected) {
        if (!same(actual, expected, 0, shape.runTimestamps())) {
            return false;
        }
        long from = shape.runTimestamps() + ReportLayout.RUN_TIMESTAMPS_LENGTH;
        if (ignoreEngineIds && shape.orderId() >= 0) {
            if (!same(actual, expected, from, shape.orderId())) {
                return false;
            }
            from = shape.orderId() + Long.BYTES;
            if (shape.execId() >= 0) {
                if (!same(actual, expected, from, shape.execId())) {
                    return false;
                }
                from = shape.execId() + Long.BYTES;
            }
        }
        return same(actual, expected, from, shape.checksum());
    }

    /** @return true if bytes [from, to) at both addresses are equal. */
    private static boolean same(final long actual, final long expected, final long from, final long to) {
        long i = from;
        for (; i + Long.BYTES <= to; i += Long.BYTES) {
            if (MEMORY.readLong(actual + i) != MEMORY.readLong(expected + i)) {
                return false;
            }
        }
        for (; i < to; i++) {
            if (MEMORY.readByte(actual + i) != MEMORY.readByte(expected + i)) {
                return false;
            }
        }
        return true;
    }
}
