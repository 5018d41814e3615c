package io.sluice.gateway.codec;

import org.agrona.DirectBuffer;

/**
 * One FIX message, parsed in place: a table of (tag, value offset, value length) over the buffer that
 * holds the frame, reused for every message. Parsing checks field syntax, header order, duplicate tags
 * and repeating groups ({@link FixGroups}), and reports the first problem as a {@link FixError} with the
 * tag concerned, never by throwing. Values are read with {@link FixValues}, {@link ShortText},
 * {@link FixDecimal} and {@link UtcTimestamp} without allocating.
 */
public final class FixMessage {
    /** Value returned by the typed getters when the tag is not in the message. */
    public static final long ABSENT = -1;
    /** Value returned by the typed getters when the value does not parse. */
    public static final long INVALID = -2;

    private static final int MAX_GROUP_DEPTH = 4;
    private static final int DUPLICATE_BITS = 4096;

    private final int maxFields;
    private final int[] tags;
    private final int[] offsets;
    private final int[] lengths;
    private final byte[] depths;
    private final long[] seenTags = new long[DUPLICATE_BITS / 64];
    private final int[] groupIds = new int[MAX_GROUP_DEPTH];
    private final int[] groupExpected = new int[MAX_GROUP_DEPTH];
    private final int[] groupSeen = new int[MAX_GROUP_DEPTH];

    private DirectBuffer buffer;
    private int fieldCount;
    private int msgType;
    private FixError error = FixError.NONE;
    private int errorTag;
    private int bodyStart;
    private int bodyEnd;

    /** @param maxFields the most fields a message may have, group fields included. */
    public FixMessage(final int maxFields) {
        this.maxFields = maxFields;
        tags = new int[maxFields];
        offsets = new int[maxFields];
        lengths = new int[maxFields];
        depths = new byte[maxFields];
    }

    /** @return the most fields a message may have. */
    public int maxFields() {
        return maxFields;
    }

    /**
     * Parses the fields from MsgType up to (not including) CheckSum, as delimited by {@link FixFramer}.
     *
     * @return {@link FixError#NONE}, or the first problem found (see {@link #errorTag()})
     */
    public FixError parse(final DirectBuffer buffer, final int bodyStart, final int bodyEnd) {
        this.buffer = buffer;
        this.bodyStart = bodyStart;
        this.bodyEnd = bodyEnd;
        java.util.Arrays.fill(seenTags, 0);
        fieldCount = 0;
        msgType = MsgTypes.INVALID;
        error = FixError.NONE;
        errorTag = 0;
        int depth = 0;
        boolean inBody = false;
        int pendingDataTag = 0;
        int pendingDataLength = 0;
        int position = bodyStart;
        while (position < bodyEnd) {
            int tag = 0;
            final int tagStart = position;
            byte b = buffer.getByte(position);
            while (b != '=') {
                if (b < '0' || b > '9' || position - tagStart >= 9 || (b == '0' && position == tagStart)) {
                    return fail(FixError.INVALID_TAG_NUMBER, tag);
                }
                tag = tag * 10 + (b - '0');
                if (++position == bodyEnd) {
                    return fail(FixError.INVALID_TAG_NUMBER, tag);
                }
                b = buffer.getByte(position);
            }
            if (position == tagStart) {
                return fail(FixError.INVALID_TAG_NUMBER, 0);
            }
            final int valueStart = ++position;
            if (tag == pendingDataTag) {
                position += pendingDataLength;
                if (position >= bodyEnd || buffer.getByte(position) != FixFramer.SOH) {
                    return fail(FixError.INCORRECT_DATA_FORMAT, tag);
                }
            } else {
                while (position < bodyEnd && buffer.getByte(position) != FixFramer.SOH) {
                    position++;
                }
                if (position == bodyEnd) {
                    return fail(FixError.INCORRECT_DATA_FORMAT, tag);
                }
            }
            final int valueLength = position - valueStart;
            position++;
            if (valueLength == 0) {
                return fail(FixError.TAG_WITHOUT_VALUE, tag);
            }
            if (fieldCount == maxFields) {
                return fail(FixError.TOO_MANY_FIELDS, tag);
            }
            if (fieldCount == 0) {
                if (tag != FixTags.MSG_TYPE) {
                    return fail(FixError.TAG_OUT_OF_ORDER, FixTags.MSG_TYPE);
                }
                msgType = MsgTypes.pack(buffer, valueStart, valueLength);
                if (msgType == MsgTypes.INVALID) {
                    return fail(FixError.INVALID_MSG_TYPE, FixTags.MSG_TYPE);
                }
            } else if (tag == FixTags.BEGIN_STRING || tag == FixTags.BODY_LENGTH || tag == FixTags.CHECK_SUM) {
                return fail(FixError.TAG_OUT_OF_ORDER, tag);
            }
            if (FixTags.isHeader(tag)) {
                if (inBody && depth == 0) {
                    return fail(FixError.TAG_OUT_OF_ORDER, tag);
                }
            } else {
                inBody = true;
            }

            while (depth > 0 && !FixGroups.isMember(groupIds[depth - 1], tag)) {
                if (groupSeen[depth - 1] != groupExpected[depth - 1]) {
                    return fail(FixError.INCORRECT_NUM_IN_GROUP_COUNT, FixGroups.countTag(groupIds[depth - 1]));
                }
                depth--;
            }
            if (depth > 0) {
                final int group = groupIds[depth - 1];
                if (tag == FixGroups.delimiter(group)) {
                    if (++groupSeen[depth - 1] > groupExpected[depth - 1]) {
                        return fail(FixError.INCORRECT_NUM_IN_GROUP_COUNT, FixGroups.countTag(group));
                    }
                } else if (groupSeen[depth - 1] == 0) {
                    return fail(FixError.GROUP_FIELDS_OUT_OF_ORDER, tag);
                }
            } else if (markSeen(tag)) {
                return fail(FixError.TAG_APPEARS_MORE_THAN_ONCE, tag);
            }

            tags[fieldCount] = tag;
            offsets[fieldCount] = valueStart;
            lengths[fieldCount] = valueLength;
            depths[fieldCount] = (byte) depth;
            fieldCount++;

            final int dataTag = FixTags.dataTagOf(tag);
            if (dataTag != 0) {
                final long dataLength = FixValues.parseUnsigned(buffer, valueStart, valueLength);
                if (dataLength < 0 || dataLength > bodyEnd - position) {
                    return fail(FixError.INCORRECT_DATA_FORMAT, tag);
                }
                pendingDataTag = dataTag;
                pendingDataLength = (int) dataLength;
            } else {
                pendingDataTag = 0;
            }
            final int group = FixGroups.groupOf(tag);
            if (group != FixGroups.NONE) {
                final long count = FixValues.parseUnsigned(buffer, valueStart, valueLength);
                if (count < 0 || count > maxFields) {
                    return fail(FixError.INCORRECT_DATA_FORMAT, tag);
                }
                if (count > 0) {
                    if (depth == MAX_GROUP_DEPTH) {
                        return fail(FixError.GROUPS_NESTED_TOO_DEEP, tag);
                    }
                    groupIds[depth] = group;
                    groupExpected[depth] = (int) count;
                    groupSeen[depth] = 0;
                    depth++;
                }
            }
        }
        while (depth > 0) {
            if (groupSeen[depth - 1] != groupExpected[depth - 1]) {
                return fail(FixError.INCORRECT_NUM_IN_GROUP_COUNT, FixGroups.countTag(groupIds[depth - 1]));
            }
            depth--;
        }
        if (fieldCount == 0) {
            return fail(FixError.TAG_OUT_OF_ORDER, FixTags.MSG_TYPE);
        }
        return FixError.NONE;
    }

    /** @return the result of the last {@link #parse}. */
    public FixError error() {
        return error;
    }

    /** @return the tag the last parse error concerns (RefTagID, 371), or 0. */
    public int errorTag() {
        return errorTag;
    }

    /** @return the packed MsgType (see {@link MsgTypes}), or {@link MsgTypes#INVALID} if unknown. */
    public int msgType() {
        return msgType;
    }

    public DirectBuffer buffer() {
        return buffer;
    }

    /** @return where the body (the MsgType field) starts in {@link #buffer()}. */
    public int bodyStart() {
        return bodyStart;
    }

    /** @return where the CheckSum field starts in {@link #buffer()}. */
    public int bodyEnd() {
        return bodyEnd;
    }

    /** @return the number of parsed fields, MsgType first, CheckSum excluded. */
    public int fieldCount() {
        return fieldCount;
    }

    public int tag(final int index) {
        return tags[index];
    }

    public int valueOffset(final int index) {
        return offsets[index];
    }

    public int valueLength(final int index) {
        return lengths[index];
    }

    /** @return 0 for a field of the message itself, n for a field inside a repeating group nested n deep. */
    public int groupDepth(final int index) {
        return depths[index];
    }

    /** @return the index of {@code tag} outside any repeating group, or -1 if it is not there. */
    public int indexOf(final int tag) {
        if (tag < DUPLICATE_BITS && (seenTags[tag >>> 6] & (1L << tag)) == 0) {
            return -1;
        }
        for (int i = 0; i < fieldCount; i++) {
            if (tags[i] == tag && depths[i] == 0) {
                return i;
            }
        }
        return -1;
    }

    /** @return true if {@code tag} is present outside any repeating group. */
    public boolean has(final int tag) {
        return indexOf(tag) >= 0;
    }

    /** @return the non-negative integer value of {@code tag}, {@link #ABSENT} or {@link #INVALID}. */
    public long unsignedValue(final int tag) {
        final int index = indexOf(tag);
        return index < 0 ? ABSENT : FixValues.parseUnsigned(buffer, offsets[index], lengths[index]);
    }

    /** @return the single character value of {@code tag}, {@link #ABSENT}, or {@link #INVALID} if longer. */
    public long charValue(final int tag) {
        final int index = indexOf(tag);
        if (index < 0) {
            return ABSENT;
        }
        return lengths[index] == 1 ? buffer.getByte(offsets[index]) : INVALID;
    }

    /** @return true if the boolean {@code tag} is present and Y. */
    public boolean isYes(final int tag) {
        return charValue(tag) == 'Y';
    }

    /** @return the value of {@code tag} as UTC epoch milliseconds, {@link #ABSENT} or {@link #INVALID}. */
    public long timestampValue(final int tag) {
        final int index = indexOf(tag);
        if (index < 0) {
            return ABSENT;
        }
        final long millis = UtcTimestamp.parse(buffer, offsets[index], lengths[index]);
        return millis == UtcTimestamp.INVALID ? INVALID : millis;
    }

    /** @return true if {@code tag} is present with exactly the bytes of {@code expected}. */
    public boolean valueEquals(final int tag, final byte[] expected) {
        final int index = indexOf(tag);
        if (index < 0 || lengths[index] != expected.length) {
            return false;
        }
        final int offset = offsets[index];
        for (int i = 0; i < expected.length; i++) {
            if (buffer.getByte(offset + i) != expected[i]) {
                return false;
            }
        }
        return true;
    }

    private boolean markSeen(final int tag) {
        if (tag < DUPLICATE_BITS) {
            final long bit = 1L << tag;
            final boolean seen = (seenTags[tag >>> 6] & bit) != 0;
            seenTags[tag >>> 6] |= bit;
            return seen;
        }
        for (int i = 0; i < fieldCount; i++) {
            if (tags[i] == tag && depths[i] == 0) {
                return true;
            }
        }
        return false;
    }

    private FixError fail(final FixError why, final int tag) {
        error = why;
        errorTag = tag;
        return why;
    }
}
