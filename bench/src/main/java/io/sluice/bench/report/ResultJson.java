package io.sluice.bench.report;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.wire.Wire;
import net.openhft.chronicle.wire.WireType;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Reads a JSON object that {@link BenchResult} wrote back into plain values, so the report can be rendered
 * from files alone. Chronicle Wire's JSON reader does the parsing: objects become insertion-ordered
 * {@code Map<String, Object>}, arrays {@code List<Object>}, strings, booleans and null themselves. Wire reads
 * whole numbers as {@code Long} and the rest as {@code Double}; every number is turned into a {@code Double}
 * here, the one number type the report handles. Input that is not one JSON object is an error naming its source.
 */
public final class ResultJson {
    private ResultJson() {
    }

    /** @return the JSON object in {@code file} */
    public static Map<String, Object> read(final Path file) {
        try {
            return parse(Files.readAllBytes(file), file.toString());
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /** @return the JSON object {@code json} holds; {@code source} names it in errors */
    public static Map<String, Object> parse(final String json, final String source) {
        return parse(json.getBytes(StandardCharsets.UTF_8), source);
    }

    private static Map<String, Object> parse(final byte[] utf8, final String source) {
        final Bytes<byte[]> bytes = Bytes.wrapForRead(utf8);
        final Object value;
        try {
            final Wire wire = WireType.JSON_ONLY.apply(bytes);
            value = wire.getValueIn().object();
            wire.consumePadding();
        } catch (final RuntimeException e) {
            throw new IllegalArgumentException(source + " is not valid JSON near offset " + bytes.readPosition()
                    + ": " + e.getMessage(), e);
        }
        if (bytes.readRemaining() > 0) {
            throw new IllegalArgumentException(source + " has text after its JSON object at offset " + bytes.readPosition());
        }
        if (!(value instanceof Map<?, ?>)) {
            throw new IllegalArgumentException(source + " does not hold a JSON object");
        }
        @SuppressWarnings("unchecked") final Map<String, Object> object = (Map<String, Object>) value;
        object.replaceAll((key, nested) -> numbersAsDoubles(nested));
        return object;
    }

    @SuppressWarnings("unchecked")
    private static Object numbersAsDoubles(final Object value) {
        switch (value) {
            case Number number -> {
                return number.doubleValue();
            }
            case Map<?, ?> map -> ((Map<Object, Object>) map).replaceAll((key, nested) -> numbersAsDoubles(nested));
            case List<?> list -> ((List<Object>) list).replaceAll(ResultJson::numbersAsDoubles);
            case null, default -> {
            }
        }
        return value;
    }
}
