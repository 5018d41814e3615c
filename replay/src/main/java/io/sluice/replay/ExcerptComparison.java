package io.sluice.replay;

import io.sluice.engine.recovery.ReportLayout;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;

import static net.openhft.chronicle.core.UnsafeMemory.MEMORY;

/**
 * Compares the excerpt the fresh engine has just written with the recorded excerpt of the same input, in
 * place and byte for byte, except for the bytes a run stamps itself ({@link ReportLayout}): no decoding, no
 * copying, no allocation. Walks the fresh excerpt report by report; any other difference, including a
 * different number or kind of reports, is a divergence, which {@link ExcerptText} then explains field by field.
 * The recorded excerpt is the one {@link io.sluice.engine.recovery.ConsumptionOrder} holds open, so the
 * recorded journal is read once.
 */
final class ExcerptComparison {
    private final ReportLayout layout;
    private final ExcerptTailer fresh;
    private final boolean ignoreEngineIds;
    private int reports;

    /**
     * @param fresh           a tailer on the new engine journal, before its next excerpt
     * @param ignoreEngineIds also leave out OrderID and ExecID (engine-wide counters), for replays of some gateways
     */
    ExcerptComparison(final ReportLayout layout, final ExcerptTailer fresh, final boolean ignoreEngineIds) {
        this.layout = layout;
        this.fresh = fresh;
        this.ignoreEngineIds = ignoreEngineIds;
    }

    /**
     * Reads the fresh journal's next excerpt and compares it with {@code recorded}.
     *
     * @param recorded the recorded excerpt's bytes, from its read position to its end; null if there is none
     *                 in this build's layout, which never matches
     * @return true if they hold the same reports
     */
    boolean matches(final Bytes<?> recorded) {
        reports = 0;
        try (DocumentContext actual = fresh.readingDocument()) {
            if (!actual.isPresent() || recorded == null) {
                return false;
            }
            final Bytes<?> a = actual.wire().bytes();
            final long length = a.readRemaining();
            if (recorded.readRemaining() != length) {
                return false;
            }
            final long actualAddress = a.addressForRead(a.readPosition(), (int) length);
            final long expectedAddress = recorded.addressForRead(recorded.readPosition(), (int) length);
            return sameReports(actualAddress, expectedAddress, length);
        }
    }

    /** @return how many reports the last {@link #matches} compared. */
    int reports() {
        return reports;
    }

    private boolean sameReports(final long actual, final long expected, final long length) {
        long at = 0;
        while (at < length) {
            final ReportLayout.Shape shape = layout.shapeAt(actual + at, length - at);
            if (shape == null || !same(actual + at, expected + at, 0, shape.runTimestamps())) {
                return false;
            }
            long from = shape.runTimestamps() + ReportLayout.RUN_TIMESTAMPS_LENGTH;
            if (ignoreEngineIds) {
                if (!same(actual + at, expected + at, from, shape.orderId())) {
                    return false;
                }
                from = shape.orderId() + Long.BYTES;
                if (shape.execId() >= 0) {
                    if (!same(actual + at, expected + at, from, shape.execId())) {
                        return false;
                    }
                    from = shape.execId() + Long.BYTES;
                }
            }
            if (!same(actual + at, expected + at, from, shape.length())) {
                return false;
            }
            at += shape.length();
            reports++;
        }
        return true;
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
