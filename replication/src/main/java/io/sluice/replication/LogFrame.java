package io.sluice.replication;

import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/**
 * The binary layout of one record of a deployment's log (topic format {@value #FORMAT}, {@link LogTopic}): a frame of
 * excerpts of any journals, in the order the shipper read them, or a positions record. Little-endian:
 * <pre>
 * frame            = format:u8 kind:u8 entry*
 * excerpts entry   = nameLength:u8 name:ascii index:i64 readTicks:i64 length:i32 excerpt:byte[length]
 * positions entry  = nameLength:u8 name:ascii lastIndex:i64 checksum:i32
 * </pre>
 * An excerpts entry is one excerpt, its bytes unchanged, at its Chronicle index in the journal named, with the
 * SluiceClock time the shipper read it. A positions entry says which excerpt of a journal the log holds last before
 * the record ({@code -1}: none), and the CRC-32C of its bytes: where a shipper resumes without reading the whole log.
 * {@link LogFrameWriter} writes frames, {@link LogFrameReader} reads them.
 */
final class LogFrame {
    /** The topic format: 3, one log per deployment, frames of excerpts. */
    static final int FORMAT = 3;
    static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;
    static final int FORMAT_OFFSET = 0;
    static final int KIND_OFFSET = 1;
    static final int HEADER_LENGTH = 2;
    /** The longest journal name an entry holds. */
    static final int MAX_NAME_LENGTH = 255;
    /** An excerpts entry's bytes besides its name and excerpt: nameLength, index, readTicks, length. */
    static final int EXCERPT_ENTRY_OVERHEAD = 1 + Long.BYTES + Long.BYTES + Integer.BYTES;
    /** A positions entry's bytes besides its name: nameLength, lastIndex, checksum. */
    static final int POSITION_ENTRY_OVERHEAD = 1 + Long.BYTES + Integer.BYTES;

    /** What a frame holds. */
    enum Kind {
        /** Excerpts of journals, in the order they were read. */
        EXCERPTS(1),
        /** Each journal's last excerpt in the log before this record. */
        POSITIONS(2);

        final int code;

        Kind(final int code) {
            this.code = code;
        }

        /** @return the kind of {@code code}, or null for none */
        static Kind of(final int code) {
            return code == EXCERPTS.code ? EXCERPTS : code == POSITIONS.code ? POSITIONS : null;
        }
    }

    private LogFrame() {
    }

    /** @return the CRC-32C of {@code length} bytes of {@code bytes} from {@code offset}, as a positions entry holds it */
    static int checksum(final CRC32C crc, final byte[] bytes, final int offset, final int length) {
        crc.reset();
        crc.update(bytes, offset, length);
        return (int) crc.getValue();
    }
}
