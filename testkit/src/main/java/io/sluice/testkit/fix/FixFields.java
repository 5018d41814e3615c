package io.sluice.testkit.fix;

import io.sluice.gateway.codec.FixMessage;
import io.sluice.gateway.codec.FixTags;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A received FIX message copied out into a map, for test assertions. Tags are in the order received (group fields
 * included, last value wins; {@link #all} has each), values as text.
 */
public final class FixFields {
    private final Map<Integer, String> fields = new LinkedHashMap<>();
    private final Map<Integer, List<String>> every = new LinkedHashMap<>();
    private final String text;

    public FixFields(final FixMessage message, final String text) {
        for (int i = 0; i < message.fieldCount(); i++) {
            final String value = message.buffer().getStringWithoutLengthAscii(message.valueOffset(i),
                    message.valueLength(i));
            fields.put(message.tag(i), value);
            every.computeIfAbsent(message.tag(i), tag -> new ArrayList<>()).add(value);
        }
        this.text = text;
    }

    public String msgType() {
        return fields.get(FixTags.MSG_TYPE);
    }

    public String get(final int tag) {
        return fields.get(tag);
    }

    /** @return every value of {@code tag}, in the order received (a repeating group's, one per instance) */
    public List<String> all(final int tag) {
        return every.getOrDefault(tag, List.of());
    }

    public boolean has(final int tag) {
        return fields.containsKey(tag);
    }

    public long seqNum() {
        return Long.parseLong(fields.get(FixTags.MSG_SEQ_NUM));
    }

    @Override
    public String toString() {
        return text;
    }
}
