package io.sluice.gateway.codec;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * FIX UTCTimestamp values ({@code YYYYMMDD-HH:MM:SS.sss}) to and from epoch milliseconds on buffers,
 * without allocating: calendar arithmetic on days (proleptic Gregorian), no {@code java.time} objects.
 * Parsing accepts seconds, milliseconds, microseconds or nanoseconds (truncated to milliseconds).
 */
public final class UtcTimestamp {
    /** Length of the millisecond form the encoder writes. */
    public static final int LENGTH = 21;
    /** Returned for a value that is not a valid UTCTimestamp. */
    public static final long INVALID = Long.MIN_VALUE;
    private static final long MILLIS_PER_DAY = 86_400_000L;

    private UtcTimestamp() {
    }

    /** Writes {@code epochMillis} as {@code YYYYMMDD-HH:MM:SS.sss}; @return {@link #LENGTH}. */
    public static int encode(final long epochMillis, final MutableDirectBuffer buffer, final int offset) {
        final long days = Math.floorDiv(epochMillis, MILLIS_PER_DAY);
        int millisOfDay = (int) Math.floorMod(epochMillis, MILLIS_PER_DAY);
        // Civil from days (H. Hinnant), valid for any day in the proleptic Gregorian calendar.
        final long z = days + 719_468;
        final long era = Math.floorDiv(z, 146_097);
        final long dayOfEra = z - era * 146_097;
        final long yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
        final long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        final long mp = (5 * dayOfYear + 2) / 153;
        final int day = (int) (dayOfYear - (153 * mp + 2) / 5 + 1);
        final int month = (int) (mp < 10 ? mp + 3 : mp - 9);
        final int year = (int) (yearOfEra + era * 400 + (month <= 2 ? 1 : 0));
        digits(buffer, offset, year, 4);
        digits(buffer, offset + 4, month, 2);
        digits(buffer, offset + 6, day, 2);
        buffer.putByte(offset + 8, (byte) '-');
        digits(buffer, offset + 9, millisOfDay / 3_600_000, 2);
        millisOfDay %= 3_600_000;
        buffer.putByte(offset + 11, (byte) ':');
        digits(buffer, offset + 12, millisOfDay / 60_000, 2);
        millisOfDay %= 60_000;
        buffer.putByte(offset + 14, (byte) ':');
        digits(buffer, offset + 15, millisOfDay / 1000, 2);
        buffer.putByte(offset + 17, (byte) '.');
        digits(buffer, offset + 18, millisOfDay % 1000, 3);
        return LENGTH;
    }

    /** @return the epoch milliseconds of a UTCTimestamp, or {@link #INVALID}. */
    public static long parse(final DirectBuffer buffer, final int offset, final int length) {
        if (length != 17 && length != 21 && length != 24 && length != 27) {
            return INVALID;
        }
        final int year = number(buffer, offset, 4);
        final int month = number(buffer, offset + 4, 2);
        final int day = number(buffer, offset + 6, 2);
        final int hour = number(buffer, offset + 9, 2);
        final int minute = number(buffer, offset + 12, 2);
        final int second = number(buffer, offset + 15, 2);
        if (buffer.getByte(offset + 8) != '-' || buffer.getByte(offset + 11) != ':'
                || buffer.getByte(offset + 14) != ':' || year < 0 || month < 1 || month > 12 || day < 1
                || day > daysInMonth(year, month) || hour < 0 || hour > 23 || minute < 0 || minute > 59
                || second < 0 || second > 60) {
            return INVALID;
        }
        int millis = 0;
        if (length > 17) {
            if (buffer.getByte(offset + 17) != '.') {
                return INVALID;
            }
            millis = number(buffer, offset + 18, 3);
            if (millis < 0 || number(buffer, offset + 21, length - 21) < 0) {
                return INVALID;
            }
        }
        // Days from civil (H. Hinnant).
        final int y = month <= 2 ? year - 1 : year;
        final int era = Math.floorDiv(y, 400);
        final int yearOfEra = y - era * 400;
        final int dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
        final int dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
        final long days = era * 146_097L + dayOfEra - 719_468;
        return days * MILLIS_PER_DAY + hour * 3_600_000L + minute * 60_000L + second * 1000L + millis;
    }

    private static int daysInMonth(final int year, final int month) {
        if (month == 2) {
            return (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28;
        }
        return month == 4 || month == 6 || month == 9 || month == 11 ? 30 : 31;
    }

    private static int number(final DirectBuffer buffer, final int offset, final int digits) {
        int value = 0;
        for (int i = 0; i < digits; i++) {
            final byte b = buffer.getByte(offset + i);
            if (b < '0' || b > '9') {
                return -1;
            }
            value = value * 10 + (b - '0');
        }
        return value;
    }

    private static void digits(final MutableDirectBuffer buffer, final int offset, final int value, final int digits) {
        int rest = value;
        for (int i = digits - 1; i >= 0; i--) {
            buffer.putByte(offset + i, (byte) ('0' + rest % 10));
            rest /= 10;
        }
    }
}
