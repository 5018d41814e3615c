package io.sluice.runtime.replication;

import io.sluice.runtime.counters.CountersLayout;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.MappedByteBuffer;
import java.nio.file.Path;

/**
 * The memory-mapped file in which a replication shipper publishes, per shipped journal, the highest excerpt index
 * Kafka has acknowledged ({@code acks=all}): {@code <root>/replication/shipper.counters}, an Agrona counters file as
 * Aeron keeps its counters, one counter per journal, its label the journal's name ({@code gateway-1}, {@code engine}
 * ...), its value the Chronicle index, or {@link #NOTHING_ACKNOWLEDGED}. A gateway polls it through an
 * {@link AcknowledgedIndexReader}, allocation-free.
 * <p>
 * The one statement of the file's layout: a header page (its {@link #GENERATION_OFFSET generation}: 0 while a shipper
 * is (re)writing the counters, then the shipper's start time, so a reader knows to look the counters up again after a
 * shipper restarted), then the counters' metadata, then their values. A restarted shipper rewrites the same file in
 * place (same inode: readers keep their mapping), never deletes it.
 */
public final class AcknowledgedIndexFile implements AutoCloseable {
    /** Where the file lives under a deployment's journal root. */
    public static final String RELATIVE_PATH = "replication/shipper.counters";
    /** A counter's value before Kafka acknowledged any excerpt of its journal. */
    public static final long NOTHING_ACKNOWLEDGED = -1;
    /** The type id of a journal's acknowledged-index counter. */
    public static final int ACKNOWLEDGED_INDEX_TYPE_ID = 1501;
    /** The most journals one file holds counters for. */
    public static final int MAX_JOURNALS = 1024;
    /** Offset of the generation (a long) in the header page. */
    public static final int GENERATION_OFFSET = 0;
    /** The file's layout. */
    static final CountersLayout LAYOUT = new CountersLayout(MAX_JOURNALS);

    private final MappedByteBuffer mapped;
    private final UnsafeBuffer header;
    private final CountersManager counters;

    private AcknowledgedIndexFile(final MappedByteBuffer mapped) {
        this.mapped = mapped;
        header = LAYOUT.header(mapped);
        counters = LAYOUT.manager(mapped);
    }

    /** @return the file's path under {@code root} */
    public static Path path(final Path root) {
        return root.resolve(RELATIVE_PATH);
    }

    /**
     * Opens the file under {@code root} for a starting shipper: creates it, or rewrites an existing one in place with
     * no counters; its generation stays 0 (readers wait) until {@link #publish()}.
     */
    public static AcknowledgedIndexFile createForShipper(final Path root) {
        final Path file = path(root);
        try {
            return new AcknowledgedIndexFile(LAYOUT.mapFresh(file));
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot create the replication counters file " + file.toAbsolutePath(), e);
        }
    }

    /** @return a new counter for {@code journalName}, at {@link #NOTHING_ACKNOWLEDGED} until set; its id */
    public int addJournal(final String journalName, final long acknowledgedIndex) {
        final int id = counters.allocate(journalName, ACKNOWLEDGED_INDEX_TYPE_ID);
        counters.setCounterValue(id, acknowledgedIndex);
        return id;
    }

    /** Sets counter {@code id} to {@code index} with an ordered write: a reader sees it after what came before. */
    public void acknowledged(final int id, final long index) {
        counters.setCounterValue(id, index);
    }

    /** Marks the counters complete for readers: the generation becomes {@code generation} (nonzero, e.g. a start time). */
    public void publish(final long generation) {
        if (generation == 0) {
            throw new IllegalArgumentException("generation 0 means 'being written'");
        }
        header.putLongVolatile(GENERATION_OFFSET, generation);
    }

    @Override
    public void close() {
        IoUtil.unmap(mapped);
    }
}
