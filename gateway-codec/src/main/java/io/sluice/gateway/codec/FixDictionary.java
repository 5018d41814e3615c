package io.sluice.gateway.codec;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The FIX 4.4 data dictionary as tables the parser reads without allocating. Each field's type ({@link FixFieldType})
 * and enumerated values by tag, and for the header, the trailer, every message type and every repeating group a
 * <em>layout</em>: its member tags and required tags as bit sets indexed by tag, its members in order, and the layouts
 * of the groups it holds (by NumInGroup tag). Built once, when the class loads,
 * from {@link Fix44Spec}, which the build generates from QuickFIX/J's FIX44.xml; nothing here is typed by hand.
 * Group layouts are per context (NoRelatedSym holds different fields in different messages) and shared when equal.
 */
public final class FixDictionary {
    /** The FIX 4.4 dictionary. */
    public static final FixDictionary FIX44 = new FixDictionary(Fix44Spec.FIELDS, Fix44Spec.HEADER,
            Fix44Spec.TRAILER, Fix44Spec.MESSAGES);
    /** The layout of the standard trailer (built first: it holds no groups). */
    public static final int TRAILER = 0;
    /** The layout of the standard header. */
    public static final int HEADER = 1;
    /** Returned for an unknown message type or a tag that opens no group in a layout. */
    public static final int NONE = -1;

    private final int maxTag;
    private final int words;
    private final FixFieldType[] types;
    private final byte[][][] enums;
    private final int[] dataTags;
    private final int[] msgTypes;
    private final int[] msgLayouts;

    private final long[][] members;
    private final long[][] required;
    private final int[][] order;
    private final int[][] groupCountTags;
    private final int[][] groupLayouts;

    private FixDictionary(final String[] fields, final String header, final String trailer, final String[] messages) {
        int max = 0;
        for (final String field : fields) {
            max = Math.max(max, Integer.parseInt(field.substring(0, field.indexOf(' '))));
        }
        maxTag = max;
        words = (max >>> 6) + 1;
        types = new FixFieldType[max + 1];
        enums = new byte[max + 1][][];
        dataTags = new int[max + 1];
        for (final String field : fields) {
            final String[] parts = field.split(" ");
            final int tag = Integer.parseInt(parts[0]);
            types[tag] = FixFieldType.valueOf(parts[1]);
            if (parts.length > 2 && parts[2].startsWith(">")) {
                dataTags[tag] = Integer.parseInt(parts[2].substring(1));
            } else if (parts.length > 2) {
                enums[tag] = new byte[parts.length - 2][];
                for (int i = 2; i < parts.length; i++) {
                    enums[tag][i - 2] = parts[i].getBytes(StandardCharsets.US_ASCII);
                }
            }
        }
        final Builder builder = new Builder();
        builder.layout(trailer.split(" "), 0, "trailer");
        builder.layout(header.split(" "), 0, "header");
        msgTypes = new int[messages.length];
        final int[] layouts = new int[messages.length];
        final long[] sorted = new long[messages.length];
        for (int i = 0; i < messages.length; i++) {
            final String[] parts = messages[i].split(" ", 3);
            final DirectBuffer type = new UnsafeBuffer(parts[0].getBytes(StandardCharsets.US_ASCII));
            final int packed = MsgTypes.pack(type, 0, type.capacity());
            layouts[i] = builder.layout(parts.length > 2 ? parts[2].split(" ") : new String[0], 0, "message " + parts[0]);
            sorted[i] = ((long) packed << 32) | i;
        }
        Arrays.sort(sorted);
        msgLayouts = new int[messages.length];
        for (int i = 0; i < sorted.length; i++) {
            msgTypes[i] = (int) (sorted[i] >>> 32);
            msgLayouts[i] = layouts[(int) sorted[i]];
        }
        final int count = builder.members.size();
        members = builder.members.toArray(new long[count][]);
        required = builder.required.toArray(new long[count][]);
        order = builder.order.toArray(new int[count][]);
        groupCountTags = builder.groupCountTags.toArray(new int[count][]);
        groupLayouts = builder.groupLayouts.toArray(new int[count][]);
    }

    /** @return the largest tag the dictionary defines. */
    public int maxTag() {
        return maxTag;
    }

    /** @return how many longs a bit set indexed by every defined tag needs. */
    public int bitSetWords() {
        return words;
    }

    /** @return the type of {@code tag}, or null if FIX 4.4 does not define it. */
    public FixFieldType type(final int tag) {
        return tag > 0 && tag <= maxTag ? types[tag] : null;
    }

    /** @return the data field whose byte count {@code lengthTag} gives (RawData 96 for RawDataLength 95), or 0. */
    public int dataTagOf(final int lengthTag) {
        return lengthTag > 0 && lengthTag <= maxTag ? dataTags[lengthTag] : 0;
    }

    /** @return true if {@code tag} has enumerated values in the dictionary. */
    public boolean isEnumerated(final int tag) {
        return tag > 0 && tag <= maxTag && enums[tag] != null;
    }

    /**
     * @return true if the value is one of the enumerated values of {@code tag} (each space-separated value of a
     *         MULTIPLEVALUESTRING); only for a tag that {@link #isEnumerated}
     */
    public boolean isEnumValue(final int tag, final DirectBuffer buffer, final int offset, final int length) {
        if (types[tag] != FixFieldType.MULTIPLEVALUESTRING) {
            return isOneOf(enums[tag], buffer, offset, length);
        }
        int start = offset;
        final int end = offset + length;
        for (int i = offset; i <= end; i++) {
            if (i == end || buffer.getByte(i) == ' ') {
                if (!isOneOf(enums[tag], buffer, start, i - start)) {
                    return false;
                }
                start = i + 1;
            }
        }
        return true;
    }

    /** @return the layout of the message type (packed, see {@link MsgTypes}), or {@link #NONE} if not FIX 4.4. */
    public int messageLayout(final int msgType) {
        final int index = Arrays.binarySearch(msgTypes, msgType);
        return index < 0 ? NONE : msgLayouts[index];
    }

    /** @return true if {@code tag} is a direct member of the layout (a group's NumInGroup tag, not its members). */
    public boolean isMember(final int layout, final int tag) {
        return tag > 0 && tag <= maxTag && (members[layout][tag >>> 6] & (1L << tag)) != 0;
    }

    /** @return the place of {@code tag} among the layout's members in the order they are defined, or -1. */
    public int position(final int layout, final int tag) {
        final int[] tags = order[layout];
        for (int i = 0; i < tags.length; i++) {
            if (tags[i] == tag) {
                return i;
            }
        }
        return -1;
    }

    /** @return the first field of every instance of a group layout. */
    public int delimiter(final int groupLayout) {
        return order[groupLayout][0];
    }

    /** @return the layout of the group {@code countTag} opens inside {@code layout}, or {@link #NONE}. */
    public int groupLayout(final int layout, final int countTag) {
        if (layout == NONE) {
            return NONE;
        }
        final int[] countTags = groupCountTags[layout];
        for (int i = 0; i < countTags.length; i++) {
            if (countTags[i] == countTag) {
                return groupLayouts[layout][i];
            }
        }
        return NONE;
    }

    /** @return the first required tag of the layout missing from {@code present} (indexed by tag), or 0. */
    public int firstMissing(final int layout, final long[] present) {
        final long[] needed = required[layout];
        for (int word = 0; word < words; word++) {
            final long missing = needed[word] & ~present[word];
            if (missing != 0) {
                return (word << 6) + Long.numberOfTrailingZeros(missing);
            }
        }
        return 0;
    }

    private static boolean isOneOf(final byte[][] values, final DirectBuffer buffer, final int offset, final int length) {
        for (final byte[] value : values) {
            if (value.length == length && equals(value, buffer, offset)) {
                return true;
            }
        }
        return false;
    }

    private static boolean equals(final byte[] value, final DirectBuffer buffer, final int offset) {
        for (int i = 0; i < value.length; i++) {
            if (buffer.getByte(offset + i) != value[i]) {
                return false;
            }
        }
        return true;
    }

    /** Reads the structure tokens of {@link Fix44Spec} into layouts, sharing equal group layouts. */
    private final class Builder {
        final List<long[]> members = new ArrayList<>();
        final List<long[]> required = new ArrayList<>();
        final List<int[]> order = new ArrayList<>();
        final List<int[]> groupCountTags = new ArrayList<>();
        final List<int[]> groupLayouts = new ArrayList<>();
        final Map<String, Integer> groups = new HashMap<>();
        int next;

        /** Reads tokens from {@code start} to the matching "}" or the end; {@link #next} is the token after it. */
        int layout(final String[] tokens, final int start, final String name) {
            // The slot is taken before nested groups take theirs: the trailer is layout 0, the header 1.
            final int layout = members.size();
            members.add(null);
            required.add(null);
            order.add(null);
            groupCountTags.add(null);
            groupLayouts.add(null);
            final long[] memberBits = new long[words];
            final long[] requiredBits = new long[words];
            final List<Integer> tags = new ArrayList<>();
            final List<int[]> nested = new ArrayList<>();
            int i = start;
            while (i < tokens.length && !tokens[i].equals("}")) {
                final String token = tokens[i++];
                if (token.isEmpty()) {
                    continue;
                }
                final boolean isGroup = token.endsWith("{");
                final String bare = isGroup ? token.substring(0, token.length() - 1) : token;
                final boolean isRequired = bare.endsWith("!");
                final int tag = Integer.parseInt(isRequired ? bare.substring(0, bare.length() - 1) : bare);
                if (tag > maxTag || types[tag] == null) {
                    throw new IllegalStateException(name + " names tag " + tag + ", which has no field definition");
                }
                memberBits[tag >>> 6] |= 1L << tag;
                if (isRequired) {
                    requiredBits[tag >>> 6] |= 1L << tag;
                }
                tags.add(tag);
                if (isGroup) {
                    final int group = layout(tokens, i, name + " group " + tag);
                    nested.add(new int[]{tag, group});
                    i = next;
                }
            }
            next = i + 1;
            final int[] orderTags = tags.stream().mapToInt(Integer::intValue).toArray();
            final String key = Arrays.toString(orderTags) + Arrays.toString(requiredBits)
                    + nested.stream().map(Arrays::toString).toList();
            members.set(layout, memberBits);
            required.set(layout, requiredBits);
            order.set(layout, orderTags);
            groupCountTags.set(layout, nested.stream().mapToInt(pair -> pair[0]).toArray());
            groupLayouts.set(layout, nested.stream().mapToInt(pair -> pair[1]).toArray());
            final boolean isGroupLayout = start > 0;
            return isGroupLayout ? groups.computeIfAbsent(key, k -> layout) : layout;
        }
    }
}
