package io.sluice.gateway.codec;

import org.agrona.DirectBuffer;

import java.util.Arrays;

/**
 * One FIX message, parsed in place: a table of (tag, value offset, value length) over the buffer that
 * holds the frame, reused for every message. Parsing checks field syntax, header order, duplicate tags
 * and repeating groups, and, as its {@link FixValidation} says, every field against the FIX 4.4
 * {@link FixDictionary} (tag known, defined for the message type, format, enumerated value, required fields,
 * group member order). It reports the first problem as a {@link FixError} with the tag concerned, never by
 * throwing, and allocates nothing. Values are read with {@link FixValues}, {@link ShortText},
 * {@link FixDecimal} and {@link UtcTimestamp} without allocating.
 */
public final class FixMessage {
    /** Value returned by the typed getters when the tag is not in the message. */
    public static final long ABSENT = -1;
    /** Value returned by the typed getters when the value does not parse. */
    public static final long INVALID = -2;
    /**
     * What {@link #errorTag()} returns when the problem names no tag number (an empty tag, or one that is not a
     * number at all); 0 and negative numbers are tag numbers a client may write, and are named as written.
     */
    public static final int NO_TAG = Integer.MIN_VALUE;

    private static final int MAX_GROUP_DEPTH = 4;
    private static final int DUPLICATE_BITS = 4096;
    private static final int HEADER_SECTION = 0;
    private static final int BODY_SECTION = 1;
    private static final int TRAILER_SECTION = 2;

    private final int maxFields;
    private final int[] tags;
    private final int[] offsets;
    private final int[] lengths;
    private final byte[] depths;
    private final long[] seenTags = new long[DUPLICATE_BITS / 64];
    private final int[] groupLayouts = new int[MAX_GROUP_DEPTH];
    private final int[] groupCountTags = new int[MAX_GROUP_DEPTH];
    private final int[] groupExpected = new int[MAX_GROUP_DEPTH];
    private final int[] groupSeen = new int[MAX_GROUP_DEPTH];
    private final int[] groupPositions = new int[MAX_GROUP_DEPTH];
    private final long[][] instanceTags;
    private final FixDictionary dictionary = FixDictionary.FIX44;
    private final FixValidation validation;

    private DirectBuffer buffer;
    private int fieldCount;
    private int msgType;
    private FixError error = FixError.NONE;
    private int errorTag;
    private int bodyStart;
    private int bodyEnd;

    /** Parses the structure only ({@link FixValidation#STRUCTURE_ONLY}): for reading what a gateway sent. */
    public FixMessage(final int maxFields) {
        this(maxFields, FixValidation.STRUCTURE_ONLY);
    }

    /**
     * @param maxFields  the most fields a message may have, group fields included
     * @param validation the data-dictionary checks to apply
     */
    public FixMessage(final int maxFields, final FixValidation validation) {
        this.maxFields = maxFields;
        this.validation = validation;
        this.instanceTags = new long[MAX_GROUP_DEPTH][dictionary.bitSetWords()];
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
     * Parses the fields from MsgType up to (not including) CheckSum, as delimited by {@link FixFramer}, and checks
     * them against the {@link FixDictionary} as {@link #validation()} says. A problem with the structure (field
     * syntax, repeating groups) ends the parse; a problem with a field's tag, place or value is noted and the parse
     * goes on, so that the header fields a Reject refers to are still read.
     *
     * @return {@link FixError#NONE}, or the first problem found (see {@link #errorTag()})
     */
    public FixError parse(final DirectBuffer buffer, final int bodyStart, final int bodyEnd) {
        this.buffer = buffer;
        this.bodyStart = bodyStart;
        this.bodyEnd = bodyEnd;
        Arrays.fill(seenTags, 0);
        fieldCount = 0;
        msgType = MsgTypes.INVALID;
        error = FixError.NONE;
        errorTag = NO_TAG;
        final boolean validating = validation.validateIncomingMessage();
        int layout = FixDictionary.NONE;
        int depth = 0;
        int section = HEADER_SECTION;
        int pendingDataTag = 0;
        int pendingDataLength = 0;
        int position = bodyStart;
        while (position < bodyEnd) {
            int tag = 0;
            final int tagStart = position;
            byte b = buffer.getByte(position);
            while (b != '=') {
                if (b < '0' || b > '9' || position - tagStart >= 9 || (b == '0' && position == tagStart)) {
                    return fail(fieldCount == 0 ? FixError.GARBLED : FixError.INVALID_TAG_NUMBER,
                            tagNumber(buffer, tagStart, bodyEnd));
                }
                tag = tag * 10 + (b - '0');
                if (++position == bodyEnd) {
                    return fail(FixError.INVALID_TAG_NUMBER, NO_TAG);
                }
                b = buffer.getByte(position);
            }
            if (position == tagStart) {
                return fail(fieldCount == 0 ? FixError.GARBLED : FixError.INVALID_TAG_NUMBER, NO_TAG);
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
            if (valueLength == 0 && validation.validateFieldsHaveValues()) {
                return fail(FixError.TAG_WITHOUT_VALUE, tag);
            }
            if (fieldCount == maxFields) {
                return fail(FixError.TOO_MANY_FIELDS, tag);
            }
            if (fieldCount == 0) {
                if (tag != FixTags.MSG_TYPE) {
                    return fail(FixError.GARBLED, FixTags.MSG_TYPE);
                }
                msgType = MsgTypes.pack(buffer, valueStart, valueLength);
                layout = dictionary.messageLayout(msgType);
                if (msgType == MsgTypes.INVALID || validating && layout == FixDictionary.NONE) {
                    // Read on (without a layout), for the header fields the Reject refers to.
                    note(FixError.INVALID_MSG_TYPE, FixTags.MSG_TYPE);
                }
            } else if (tag == FixTags.BEGIN_STRING || tag == FixTags.BODY_LENGTH || tag == FixTags.CHECK_SUM) {
                return fail(FixError.TAG_OUT_OF_ORDER, tag);
            }
            final FixFieldType type = dictionary.type(tag);
            final boolean userDefined = type == null && tag >= FixValidation.USER_DEFINED_TAG_MIN
                    && !validation.validateUserDefinedFields();

            while (depth > 0 && !userDefined && !dictionary.isMember(groupLayouts[depth - 1], tag)) {
                closeInstance(depth - 1, validating);
                if (groupSeen[depth - 1] != groupExpected[depth - 1]) {
                    return fail(FixError.INCORRECT_NUM_IN_GROUP_COUNT, groupCountTags[depth - 1]);
                }
                depth--;
            }
            boolean header = false;
            if (depth > 0) {
                final int group = groupLayouts[depth - 1];
                final int d = depth - 1;
                if (tag == dictionary.delimiter(group)) {
                    if (groupSeen[d] > 0) {
                        closeInstance(d, validating);
                    }
                    if (++groupSeen[d] > groupExpected[d]) {
                        return fail(FixError.INCORRECT_NUM_IN_GROUP_COUNT, groupCountTags[d]);
                    }
                    groupPositions[d] = 0;
                    Arrays.fill(instanceTags[d], 0);
                } else if (groupSeen[d] == 0) {
                    return fail(FixError.GROUP_FIELDS_OUT_OF_ORDER, tag);
                } else if (!userDefined) {
                    if ((instanceTags[d][tag >>> 6] & (1L << tag)) != 0) {
                        note(FixError.TAG_APPEARS_MORE_THAN_ONCE, tag);
                    }
                    final int place = dictionary.position(group, tag);
                    if (validating && validation.validateUnorderedGroupFields() && place <= groupPositions[d]) {
                        note(FixError.GROUP_FIELDS_OUT_OF_ORDER, tag);
                    }
                    groupPositions[d] = Math.max(place, groupPositions[d]);
                }
                if (!userDefined) {
                    instanceTags[d][tag >>> 6] |= 1L << tag;
                }
            } else {
                if (markSeen(tag)) {
                    return fail(FixError.TAG_APPEARS_MORE_THAN_ONCE, tag);
                }
                header = dictionary.isMember(FixDictionary.HEADER, tag);
                if (header) {
                    if (section != HEADER_SECTION && validation.validateFieldsOutOfOrder()) {
                        note(FixError.TAG_OUT_OF_ORDER, tag);
                    }
                } else if (dictionary.isMember(FixDictionary.TRAILER, tag)) {
                    section = TRAILER_SECTION;
                } else {
                    if (section == TRAILER_SECTION && validation.validateFieldsOutOfOrder()) {
                        note(FixError.TAG_OUT_OF_ORDER, tag);
                    }
                    section = BODY_SECTION;
                    if (validating && type != null && layout != FixDictionary.NONE
                            && !validation.allowUnknownMsgFields() && !dictionary.isMember(layout, tag)) {
                        note(FixError.TAG_NOT_DEFINED_FOR_MESSAGE_TYPE, tag);
                    }
                }
            }
            if (validating && type == null && !userDefined) {
                note(FixError.INVALID_TAG_NUMBER, tag);
            } else if (validating && type != null && valueLength > 0) {
                final boolean enumerated = dictionary.isEnumerated(tag);
                if (!(enumerated && type == FixFieldType.CHAR) && !type.isValid(buffer, valueStart, valueLength)) {
                    note(FixError.INCORRECT_DATA_FORMAT, tag);
                } else if (enumerated && !dictionary.isEnumValue(tag, buffer, valueStart, valueLength)) {
                    note(FixError.VALUE_IS_INCORRECT, tag);
                }
            }

            tags[fieldCount] = tag;
            offsets[fieldCount] = valueStart;
            lengths[fieldCount] = valueLength;
            depths[fieldCount] = (byte) depth;
            fieldCount++;

            final int dataTag = dictionary.dataTagOf(tag);
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
            final int group = dictionary.groupLayout(depth > 0 ? groupLayouts[depth - 1]
                    : header ? FixDictionary.HEADER : layout, tag);
            if (group != FixDictionary.NONE) {
                final long count = FixValues.parseUnsigned(buffer, valueStart, valueLength);
                if (count < 0 || count > maxFields) {
                    return fail(FixError.INCORRECT_DATA_FORMAT, tag);
                }
                if (count > 0) {
                    if (depth == MAX_GROUP_DEPTH) {
                        return fail(FixError.GROUPS_NESTED_TOO_DEEP, tag);
                    }
                    groupLayouts[depth] = group;
                    groupCountTags[depth] = tag;
                    groupExpected[depth] = (int) count;
                    groupSeen[depth] = 0;
                    depth++;
                }
            }
        }
        while (depth > 0) {
            closeInstance(depth - 1, validating);
            if (groupSeen[depth - 1] != groupExpected[depth - 1]) {
                return fail(FixError.INCORRECT_NUM_IN_GROUP_COUNT, groupCountTags[depth - 1]);
            }
            depth--;
        }
        if (fieldCount == 0) {
            return fail(FixError.GARBLED, FixTags.MSG_TYPE);
        }
        if (validating && error == FixError.NONE) {
            final long framed = (1L << FixTags.BEGIN_STRING) | (1L << FixTags.BODY_LENGTH) | (1L << FixTags.CHECK_SUM);
            seenTags[0] |= framed;
            final int missingHeader = dictionary.firstMissing(FixDictionary.HEADER, seenTags);
            final int missing = missingHeader != 0 ? missingHeader : dictionary.firstMissing(layout, seenTags);
            seenTags[0] &= ~framed;
            if (missing != 0) {
                note(FixError.REQUIRED_TAG_MISSING, missing);
            }
        }
        return error;
    }

    /** The end of an instance of the group open at {@code level}: its required members must have been there. */
    private void closeInstance(final int level, final boolean validating) {
        if (validating && groupSeen[level] > 0) {
            final int missing = dictionary.firstMissing(groupLayouts[level], instanceTags[level]);
            if (missing != 0) {
                note(FixError.REQUIRED_TAG_MISSING, missing);
            }
        }
    }

    /** @return the checks this message applies when it parses. */
    public FixValidation validation() {
        return validation;
    }

    /** @return the result of the last {@link #parse}. */
    public FixError error() {
        return error;
    }

    /**
     * @return the tag the last parse error concerns (RefTagID, 371), as the client wrote it (0 and negative numbers
     *         too, which are no valid tags), or {@link #NO_TAG}
     */
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

    /**
     * @return the tag of the field that starts at {@code tagStart} as the client wrote it, if that is a number a
     *         RefTagID (371) can name ({@code 0}, or an optional minus and up to nine digits without a leading zero);
     *         otherwise {@link #NO_TAG}
     */
    private static int tagNumber(final DirectBuffer buffer, final int tagStart, final int bodyEnd) {
        int position = tagStart;
        final boolean negative = position < bodyEnd && buffer.getByte(position) == '-';
        if (negative) {
            position++;
        }
        final int digitsStart = position;
        int tag = 0;
        byte b;
        while (position < bodyEnd && (b = buffer.getByte(position)) != '=' && b != FixFramer.SOH) {
            if (b < '0' || b > '9' || position - digitsStart >= 9 || (position > digitsStart && tag == 0)) {
                return NO_TAG;
            }
            tag = tag * 10 + (b - '0');
            position++;
        }
        if (position == digitsStart || position == bodyEnd || buffer.getByte(position) != '=' || negative && tag == 0) {
            return NO_TAG;
        }
        return negative ? -tag : tag;
    }

    /** Ends the parse: the structure cannot be followed further. @return the first problem found */
    private FixError fail(final FixError why, final int tag) {
        note(why, tag);
        return error;
    }

    /** Notes a problem (the first one is reported) and lets the parse go on. */
    private void note(final FixError why, final int tag) {
        if (error == FixError.NONE) {
            error = why;
            errorTag = tag;
        }
    }
}
