package io.sluice.bench.fix;

import org.agrona.MutableDirectBuffer;

/**
 * Writes a FIX UTCTimestamp, {@code yyyyMMdd-HH:mm:ss.SSS}, from epoch milliseconds without allocating: the
 * civil date is computed arithmetically (days since 1970-01-01 to year, month, day) once per UTC day.
 */
final class UtcTimestampWriter {
    static final int LENGTH = 21;
    private static final long MILLIS_PER_DAY = 86_400_000L;

    private long cachedDay = Long.MIN_VALUE;
    private int cachedDate;

    /** @return the number of bytes written, always {@link #LENGTH}. */
    int write(final MutableDirectBuffer buffer, final int offset, final long epochMillis) {
        final long day = Math.floorDiv(epochMillis, MILLIS_PER_DAY);
        if (day != cachedDay) {
            cachedDay = day;
            cachedDate = civilDate(day);
        }
        final int millisOfDay = (int) Math.floorMod(epochMillis, MILLIS_PER_DAY);
        digits(buffer, offset, cachedDate, 8);
        buffer.putByte(offset + 8, (byte) '-');
        digits(buffer, offset + 9, millisOfDay / 3_600_000, 2);
        buffer.putByte(offset + 11, (byte) ':');
        digits(buffer, offset + 12, millisOfDay / 60_000 % 60, 2);
        buffer.putByte(offset + 14, (byte) ':');
        digits(buffer, offset + 15, millisOfDay / 1_000 % 60, 2);
        buffer.putByte(offset + 17, (byte) '.');
        digits(buffer, offset + 18, millisOfDay % 1_000, 3);
        return LENGTH;
    }

    /** @return yyyyMMdd as an int for the day {@code daysSinceEpoch} (H. Hinnant's civil_from_days). */
    static int civilDate(final long daysSinceEpoch) {
        final long z = daysSinceEpoch + 719_468;
        final long era = Math.floorDiv(z, 146_097);
        final long dayOfEra = z - era * 146_097;
        final long yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
        final long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        final long mp = (5 * dayOfYear + 2) / 153;
        final long dayOfMonth = dayOfYear - (153 * mp + 2) / 5 + 1;
        final long month = mp < 10 ? mp + 3 : mp - 9;
        final long year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
        return (int) (year * 10_000 + month * 100 + dayOfMonth);
    }

    private static void digits(final MutableDirectBuffer buffer, final int offset, final int value, final int count) {
        int rest = value;
        for (int i = count - 1; i >= 0; i--) {
            buffer.putByte(offset + i, (byte) ('0' + rest % 10));
            rest /= 10;
        }
    }
}
