package io.sluice.contracts;

import org.agrona.checksum.Crc32c;

import static net.openhft.chronicle.core.UnsafeMemory.MEMORY;

/**
 * The checksum every Sluice record carries, so that a reader never acts on damaged bytes. It is a CRC32C over the
 * record's own bytes (its MetaData and body, as {@link RecordOut} lays them out), stored as an int in the {@value
 * #LENGTH} bytes right after them. This is the one place that says where it sits: every record is
 * {@code fields, checksum}. Computed over memory addresses with Agrona's {@link Crc32c}, which calls the
 * JDK's intrinsic, so it allocates nothing.
 * <p>
 * {@code -Dsluice.journal.checksums=off} turns checksums off (writers store 0, readers skip the check).
 * <b>It exists only to measure what checksums cost</b> (the {@code checksums} benchmark arms); journals
 * written that way fail every check once checksums are on again.
 */
public final class RecordChecksum {
    /** Bytes of the checksum that ends every record. */
    public static final int LENGTH = Integer.BYTES;
    /** The system property that turns checksums off, for measurement only. */
    public static final String SWITCH_PROPERTY = "sluice.journal.checksums";
    /** False only when {@value #SWITCH_PROPERTY} is {@code off}: read once, at class load. */
    public static final boolean ENABLED = !"off".equals(System.getProperty(SWITCH_PROPERTY));

    private RecordChecksum() {
    }

    /** @return the checksum of the {@code length} bytes at {@code address} (0 when checksums are off) */
    public static int compute(final long address, final int length) {
        return ENABLED ? Crc32c.INSTANCE.compute(address, 0, length) : 0;
    }

    /**
     * @param address where a record starts: its first field
     * @param length  the length of its fields, without the checksum after them
     * @return true if the checksum stored after the fields is theirs (always, when checksums are off)
     */
    public static boolean holds(final long address, final int length) {
        return !ENABLED || MEMORY.readInt(address + length) == Crc32c.INSTANCE.compute(address, 0, length);
    }

    /** @return the checksum stored after the {@code length} bytes of fields at {@code address} */
    public static int storedAfter(final long address, final int length) {
        return MEMORY.readInt(address + length);
    }
}
