package io.sluice.engine.recovery;

import io.sluice.contracts.AdminOutcome;
import io.sluice.contracts.CancelReject;
import io.sluice.contracts.EngineToGateway;
import io.sluice.contracts.ExecutionReport;
import io.sluice.contracts.MassCancelReport;
import io.sluice.contracts.MetaData;
import io.sluice.contracts.RecordChecksum;
import io.sluice.contracts.journal.CorruptJournalException;
import io.sluice.contracts.journal.JournalReader;
import io.sluice.contracts.journal.Journals;
import io.sluice.contracts.journal.RecordChecksumException;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.bytes.MethodReader;
import net.openhft.chronicle.core.util.InvocationTargetRuntimeException;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.checksum.Crc32c;

import java.util.Arrays;

/**
 * The order in which the engine consumed its inputs, read back from its own journal. The engine writes all
 * the reports caused by one input in one excerpt, each carrying that input's MetaData, so each excerpt
 * names one consumed input by (sourceId, eventId), and the excerpts are in consumption order. A torn last
 * excerpt (the engine was killed while writing it) is invisible here, exactly as it is to gateways: that
 * input counts as not consumed.
 * <p>
 * The reports are not decoded: their records have a fixed {@link ReportLayout}, so sourceId and eventId are
 * read in place, every record's checksum is checked in place, and every record of the excerpt is checked to name
 * the same input. An excerpt that is not
 * a sequence of such records is decoded through a method reader instead, which explains what is wrong with it.
 * <p>
 * Use: {@code while (order.next()) { order.sourceId(); order.eventId(); order.excerpt(); }}; the shapes of the
 * excerpt's reports ({@link #reports()}, {@link #shape(int)}) come with it. Allocation-free per excerpt, once its
 * array of shapes has grown to the most reports one input caused.
 */
public final class ConsumptionOrder implements AutoCloseable {
    private final ChronicleQueue engineJournal;
    private final ReportLayout layout = ReportLayout.ofThisBuild();
    private final ExcerptTailer tailer;
    private final MethodReader reader;
    private ReportLayout.Shape[] shapes = new ReportLayout.Shape[16];
    private int reports;
    private DocumentContext open;
    private Bytes<?> excerpt;
    private int sourceId;
    private long eventId;
    private long index;
    private long excerptOffset;
    private long decodedReportWriting;
    private long excerptAddress;
    private long excerptLength;
    private boolean mixed;
    /** How many reports {@link #decode} has read of the excerpt: the first names the input. */
    private int decoded;

    /** Starts before the first excerpt of {@code engineJournal} (opened by the caller, who closes it). */
    public ConsumptionOrder(final ChronicleQueue engineJournal) {
        this.engineJournal = engineJournal;
        tailer = engineJournal.createTailer();
        reader = tailer.methodReaderBuilder()
                .defaultParselet((name, in) -> {
                    throw new IllegalStateException("unknown message '" + name + "' in the engine journal");
                })
                .build(new EngineToGateway() {
                    @Override
                    public void executionReport(final ExecutionReport report) {
                        record(report.metaData());
                    }

                    @Override
                    public void cancelReject(final CancelReject reject) {
                        record(reject.metaData());
                    }

                    @Override
                    public void massCancelReport(final MassCancelReport report) {
                        record(report.metaData());
                    }

                    @Override
                    public void adminOutcome(final AdminOutcome outcome) {
                        record(outcome.metaData());
                    }
                });
    }

    /**
     * Moves to the next recorded input.
     *
     * @return false when there are no more
     * @throws CorruptJournalException if an excerpt cannot be read or names two different inputs
     */
    public boolean next() {
        closeExcerpt();
        while (true) {
            final DocumentContext dc;
            try {
                dc = tailer.readingDocument();
            } catch (final RuntimeException e) {
                index = tailer.index();
                throw corrupt("cannot read the excerpt: " + e, e);
            }
            if (!dc.isPresent()) {
                dc.close();
                return false;
            }
            index = dc.index();
            excerptOffset = -1;
            if (dc.isMetaData()) {
                dc.close();
                continue;
            }
            final Bytes<?> bytes = dc.wire().bytes();
            final long length = bytes.readRemaining();
            if (length == 0) { // an input that caused no report (none does, today)
                dc.close();
                continue;
            }
            open = dc;
            excerptOffset = bytes.readPosition();
            excerptAddress = bytes.addressForRead(excerptOffset, (int) length);
            excerptLength = length;
            if (readInPlace(excerptAddress, length)) {
                excerpt = bytes;
                return true;
            }
            closeExcerpt();
            if (decode(index)) {
                return true;
            }
        }
    }

    /**
     * After {@link #next()} found no more, in an engine journal no one is writing (the engine's own, at its start):
     * @throws CorruptJournalException if the journal does not end there but holds an excerpt that cannot be read
     */
    public void requireEnd() {
        JournalReader.requireEnd(engineJournal, tailer);
    }

    /**
     * Moves to the recorded input at engine journal index {@code engineIndex}, which becomes current: the next
     * {@link #next()} moves to the input after it. How a restart or a replay from a snapshot starts part way.
     *
     * @return false if the journal holds no excerpt naming an input at that index
     * @throws CorruptJournalException if the excerpt there cannot be read
     */
    public boolean at(final long engineIndex) {
        closeExcerpt();
        if (!tailer.moveToIndex(engineIndex)) {
            return false;
        }
        return next() && index == engineIndex;
    }

    /** Moves back before the first excerpt, as new. */
    public void toStart() {
        closeExcerpt();
        tailer.toStart();
    }

    /**
     * @return the CRC32C of the current excerpt's bytes as recorded (every report, checksums and run timestamps
     * included): what a snapshot records of the excerpt it was taken after, so that a restart can tell that its
     * engine journal holds that very excerpt
     */
    public int checksum() {
        if (excerpt != null) {
            return Crc32c.INSTANCE.compute(excerptAddress, 0, (int) excerptLength);
        }
        try (ExcerptTailer again = engineJournal.createTailer()) {
            if (!again.moveToIndex(index)) {
                throw corrupt("cannot move back to the excerpt to checksum it", null);
            }
            try (DocumentContext dc = again.readingDocument()) {
                final Bytes<?> bytes = dc.wire().bytes();
                final long length = bytes.readRemaining();
                return Crc32c.INSTANCE.compute(bytes.addressForRead(bytes.readPosition(), (int) length), 0, (int) length);
            }
        }
    }

    /** @return the source the current input came from: a gateway's id, or {@code Journals.ADMIN_SOURCE_ID}. */
    public int sourceId() {
        return sourceId;
    }

    /** @return the current input's event id within its gateway journal. */
    public long eventId() {
        return eventId;
    }

    /**
     * @return when the engine wrote the current excerpt's reports: their MetaData reportWriting, in 0.1 µs ticks (a
     * follower's measure of how far behind the engine it is)
     */
    public long reportWriting() {
        if (excerpt == null) {
            return decodedReportWriting;
        }
        return shapes[0].reportWritingAt(excerpt.addressForRead(excerpt.readPosition(), shapes[0].length()));
    }

    /** @return the engine journal index of the current excerpt, for messages. */
    public long index() {
        return index;
    }

    /**
     * @return the current excerpt's bytes, from its read position to its end, valid until the next call of
     * {@link #next()}; null if the excerpt was not in this build's {@link ReportLayout} (it had to be decoded)
     */
    public Bytes<?> excerpt() {
        return excerpt;
    }

    /** @return how many reports the current excerpt holds, if it is in this build's layout ({@link #excerpt()} not null) */
    public int reports() {
        return reports;
    }

    /** @return the shape of report {@code i} of the current excerpt, for {@code 0 <= i < reports()} */
    public ReportLayout.Shape shape(final int i) {
        return shapes[i];
    }

    /** @return a {@link CorruptJournalException} at the current excerpt of the engine journal. */
    public CorruptJournalException corrupt(final String problem, final Throwable cause) {
        return CorruptJournalException.at(engineJournal, index, excerptOffset, problem, cause);
    }


    /** @return true if the excerpt is a sequence of report records, all naming one input, which is now current. */
    private boolean readInPlace(final long address, final long length) {
        final ReportLayout.Shape first = layout.shapeAt(address, length);
        if (first == null) {
            return false;
        }
        checkSum(first, address, 0);
        final int source = first.sourceIdAt(address);
        final long event = first.eventIdAt(address);
        shapes[0] = first;
        int count = 1;
        long at = first.length();
        while (at < length) {
            final ReportLayout.Shape shape = layout.shapeAt(address + at, length - at);
            if (shape == null) {
                return false;
            }
            checkSum(shape, address, at);
            if (shape.sourceIdAt(address + at) != source || shape.eventIdAt(address + at) != event) {
                throw corrupt("reports of two different inputs in one excerpt", null);
            }
            if (count == shapes.length) {
                shapes = Arrays.copyOf(shapes, 2 * count);
            }
            shapes[count++] = shape;
            at += shape.length();
        }
        reports = count;
        sourceId = source;
        eventId = event;
        return true;
    }

    /** Checks the checksum of the report at {@code at} bytes into the excerpt at {@code address}. */
    private void checkSum(final ReportLayout.Shape shape, final long address, final long at) {
        if (!shape.checksumHolds(address + at)) {
            final long fields = address + at + shape.sourceId();
            final int length = shape.checksum() - shape.sourceId();
            throw CorruptJournalException.reading(engineJournal, index, new RecordChecksumException(
                    Journals.cycleFile(engineJournal, engineJournal.rollCycle().toCycle(index)).toString(),
                    excerptOffset + at + shape.sourceId(), RecordChecksum.storedAfter(fields, length),
                    RecordChecksum.compute(fields, length)));
        }
    }

    /**
     * Decodes the excerpt at {@code at} through the method reader: for an excerpt not in this build's layout.
     *
     * @return true if it named an input, which is now current; false if it held no report
     */
    private boolean decode(final long at) {
        sourceId = 0;
        eventId = 0;
        decoded = 0;
        mixed = false;
        if (!tailer.moveToIndex(at)) {
            throw corrupt("cannot move back to the excerpt to decode it", null);
        }
        try {
            reader.readOne();
        } catch (final InvocationTargetRuntimeException | IllegalStateException | IllegalArgumentException
                       | RecordChecksumException e) {
            throw CorruptJournalException.reading(engineJournal, index, e);
        } catch (final RuntimeException e) {
            throw corrupt("cannot read the excerpt: " + e, e);
        }
        if (mixed) {
            throw corrupt("reports of two different inputs in one excerpt", null);
        }
        return decoded > 0;
    }

    private void record(final MetaData metaData) {
        if (decoded++ == 0) {
            sourceId = metaData.sourceId();
            eventId = metaData.eventId();
            decodedReportWriting = metaData.reportWriting();
        } else if (sourceId != metaData.sourceId() || eventId != metaData.eventId()) {
            mixed = true;
        }
    }

    private void closeExcerpt() {
        excerpt = null;
        reports = 0;
        if (open != null) {
            final DocumentContext dc = open;
            open = null;
            dc.close();
        }
    }

    /**
     * Forgets which thread has read it (Chronicle binds a tailer to the first thread that uses it): for an order
     * followed on one thread and then on another, called between the two.
     */
    public void singleThreadedCheckReset() {
        tailer.singleThreadedCheckReset();
    }

    @Override
    public void close() {
        closeExcerpt();
        reader.close();
    }
}
