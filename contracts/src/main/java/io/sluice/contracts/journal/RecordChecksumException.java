package io.sluice.contracts.journal;

/**
 * A record's bytes do not match the checksum stored with them ({@link io.sluice.contracts.RecordChecksum}):
 * the record was damaged after it was written. Thrown by the record itself as it is read, so it knows
 * only the file (when the bytes are a mapped journal file) and the byte offset; readers that know the
 * journal and the excerpt turn it into a {@link CorruptJournalException}.
 */
public final class RecordChecksumException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final long fileOffset;
    private final String problem;

    /**
     * @param file       the file the record was read from, or null if not from a file
     * @param fileOffset the byte offset of the record's first field in that file (or its buffer)
     * @param stored     the checksum stored with the record
     * @param computed   the checksum of its bytes as read
     */
    public RecordChecksumException(final String file, final long fileOffset, final int stored, final int computed) {
        this(file, fileOffset, "checksum mismatch (stored 0x" + Integer.toHexString(stored) + ", the bytes give 0x"
                + Integer.toHexString(computed) + "): the record was damaged after it was written");
    }

    private RecordChecksumException(final String file, final long fileOffset, final String problem) {
        super((file == null ? "" : "file " + file + ", ") + "byte offset " + fileOffset + ": " + problem);
        this.fileOffset = fileOffset;
        this.problem = problem;
    }

    /** @return what is wrong, without where */
    public String problem() {
        return problem;
    }

    /** @return the byte offset of the damaged record in its file */
    public long fileOffset() {
        return fileOffset;
    }
}
