package io.sluice.marketdata.journal;

import io.sluice.contracts.RecordChecksum;
import io.sluice.marketdata.feed.FeedLayout;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

import static net.openhft.chronicle.core.UnsafeMemory.MEMORY;

/**
 * Gathers the feed messages of one batch in direct memory and appends them as one excerpt of the market-data journal
 * ({@link BatchLayout}). Each is encoded in place ({@link #buffer()} at {@link #nextMessageOffset()}, then {@link
 * #commit}). Grows only when a batch is larger than any before it; single-threaded.
 */
public final class BatchWriter {
    /** More than any one feed message. */
    private static final int MAX_MESSAGE = 64;

    private UnsafeBuffer stage = new UnsafeBuffer(ByteBuffer.allocateDirect(64 * 1024));
    private int length = BatchLayout.BLOCKS;
    private int count;

    /** @return where the next message is encoded, at {@link #nextMessageOffset()} */
    public MutableDirectBuffer buffer() {
        if (length + FeedLayout.BLOCK_LENGTH_PREFIX + MAX_MESSAGE + RecordChecksum.LENGTH > stage.capacity()) {
            final UnsafeBuffer larger = new UnsafeBuffer(ByteBuffer.allocateDirect(stage.capacity() * 2));
            larger.putBytes(0, stage, 0, length);
            stage = larger;
        }
        return stage;
    }

    /** @return where the next message's bytes go (after its length prefix); call {@link #buffer()} first */
    public int nextMessageOffset() {
        return length + FeedLayout.BLOCK_LENGTH_PREFIX;
    }

    /** Takes the message of {@code messageLength} bytes just encoded at {@link #nextMessageOffset()}. */
    public void commit(final int messageLength) {
        stage.putShort(length, (short) messageLength, FeedLayout.ORDER);
        length += FeedLayout.BLOCK_LENGTH_PREFIX + messageLength;
        count++;
    }

    /** @return how many messages the batch holds */
    public int count() {
        return count;
    }

    /** Appends the batch as one excerpt, its messages numbered from {@code firstSequence}, and starts a new one. */
    public void appendTo(final ExcerptAppender appender, final long engineIndex, final long firstSequence) {
        stage.putLong(BatchLayout.ENGINE_INDEX, engineIndex, FeedLayout.ORDER);
        stage.putLong(BatchLayout.FIRST_SEQUENCE, firstSequence, FeedLayout.ORDER);
        stage.putInt(BatchLayout.COUNT, count, FeedLayout.ORDER);
        stage.putInt(BatchLayout.BLOCKS_LENGTH, length - BatchLayout.BLOCKS, FeedLayout.ORDER);
        stage.putInt(length, RecordChecksum.compute(stage.addressOffset(), length));
        final int excerpt = length + RecordChecksum.LENGTH;
        try (DocumentContext dc = appender.writingDocument()) {
            final Bytes<?> bytes = dc.wire().bytes();
            bytes.ensureCapacity(bytes.writePosition() + excerpt);
            MEMORY.copyMemory(stage.addressOffset(), bytes.addressForWrite(bytes.writePosition()), excerpt);
            bytes.writeSkip(excerpt);
        }
        clear();
    }

    /** Drops what the batch holds. */
    public void clear() {
        length = BatchLayout.BLOCKS;
        count = 0;
    }
}
