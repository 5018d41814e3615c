package io.sluice.gateway.codec;

import org.agrona.DirectBuffer;

/**
 * The FIX 4.4 field types of the data dictionary ({@link FixDictionary}), each with the check of its value's format.
 * The check says what a field of that type must look like to be accepted (SessionRejectReason 6 otherwise). The checks
 * read the buffer only, never allocate or throw.
 */
public enum FixFieldType {
    INT, LENGTH, NUMINGROUP, SEQNUM, TAGNUM, DAYOFMONTH,
    FLOAT, QTY, PRICE, PRICEOFFSET, AMT, PERCENTAGE,
    CHAR, BOOLEAN,
    STRING, MULTIPLEVALUESTRING, EXCHANGE, CURRENCY, COUNTRY, DATA,
    LOCALMKTDATE, UTCDATEONLY, MONTHYEAR, UTCTIMEONLY, UTCTIMESTAMP;

    /** @return true if the value's bytes have this type's format. */
    public boolean isValid(final DirectBuffer buffer, final int offset, final int length) {
        return switch (this) {
            case INT -> isInteger(buffer, offset, length, true);
            case LENGTH, NUMINGROUP, SEQNUM, TAGNUM -> isInteger(buffer, offset, length, false);
            case DAYOFMONTH -> isInteger(buffer, offset, length, false) && length <= 2
                    && inRange(number(buffer, offset, length), 1, 31);
            case FLOAT, QTY, PRICE, PRICEOFFSET, AMT, PERCENTAGE -> isDecimal(buffer, offset, length);
            case CHAR -> length == 1;
            case BOOLEAN -> length == 1 && (buffer.getByte(offset) == 'Y' || buffer.getByte(offset) == 'N');
            case STRING, MULTIPLEVALUESTRING, EXCHANGE, CURRENCY, COUNTRY, DATA -> true;
            case LOCALMKTDATE, UTCDATEONLY -> length == 8 && isDate(buffer, offset);
            case MONTHYEAR -> isMonthYear(buffer, offset, length);
            case UTCTIMEONLY -> isTime(buffer, offset, length);
            case UTCTIMESTAMP -> UtcTimestamp.parse(buffer, offset, length) != UtcTimestamp.INVALID;
        };
    }

    private static boolean isInteger(final DirectBuffer buffer, final int offset, final int length, final boolean signed) {
        final int start = signed && length > 1 && buffer.getByte(offset) == '-' ? 1 : 0;
        return length > start && length - start <= 18 && digits(buffer, offset + start, length - start);
    }

    private static boolean isDecimal(final DirectBuffer buffer, final int offset, final int length) {
        int i = length > 1 && buffer.getByte(offset) == '-' ? 1 : 0;
        int digits = 0;
        boolean point = false;
        for (; i < length; i++) {
            final byte b = buffer.getByte(offset + i);
            if (b >= '0' && b <= '9') {
                digits++;
            } else if (b == '.' && !point) {
                point = true;
            } else {
                return false;
            }
        }
        return digits > 0;
    }

    /** YYYYMMDD. */
    private static boolean isDate(final DirectBuffer buffer, final int offset) {
        return digits(buffer, offset, 8) && inRange(number(buffer, offset + 4, 2), 1, 12)
                && inRange(number(buffer, offset + 6, 2), 1, 31);
    }

    /** YYYYMM, YYYYMMDD or YYYYMMwN (week N of the month). */
    private static boolean isMonthYear(final DirectBuffer buffer, final int offset, final int length) {
        if (length != 6 && length != 8 || !digits(buffer, offset, 6) || !inRange(number(buffer, offset + 4, 2), 1, 12)) {
            return false;
        }
        if (length == 6) {
            return true;
        }
        if (buffer.getByte(offset + 6) == 'w') {
            return inRange(buffer.getByte(offset + 7) - '0', 1, 5);
        }
        return digits(buffer, offset + 6, 2) && inRange(number(buffer, offset + 6, 2), 1, 31);
    }

    /** HH:MM:SS or HH:MM:SS.sss. */
    private static boolean isTime(final DirectBuffer buffer, final int offset, final int length) {
        if (length != 8 && length != 12) {
            return false;
        }
        if (buffer.getByte(offset + 2) != ':' || buffer.getByte(offset + 5) != ':'
                || !digits(buffer, offset, 2) || !digits(buffer, offset + 3, 2) || !digits(buffer, offset + 6, 2)
                || number(buffer, offset, 2) > 23 || number(buffer, offset + 3, 2) > 59
                || number(buffer, offset + 6, 2) > 60) {
            return false;
        }
        return length == 8 || buffer.getByte(offset + 8) == '.' && digits(buffer, offset + 9, 3);
    }

    private static boolean digits(final DirectBuffer buffer, final int offset, final int length) {
        for (int i = 0; i < length; i++) {
            final byte b = buffer.getByte(offset + i);
            if (b < '0' || b > '9') {
                return false;
            }
        }
        return true;
    }

    private static int number(final DirectBuffer buffer, final int offset, final int length) {
        int value = 0;
        for (int i = 0; i < length; i++) {
            value = value * 10 + buffer.getByte(offset + i) - '0';
        }
        return value;
    }

    private static boolean inRange(final int value, final int min, final int max) {
        return value >= min && value <= max;
    }
}
