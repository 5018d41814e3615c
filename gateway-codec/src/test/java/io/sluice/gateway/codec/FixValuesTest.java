package io.sluice.gateway.codec;

import io.sluice.contracts.Price;
import net.openhft.chronicle.wire.ShortTextLongConverter;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Instant;

import static io.sluice.gateway.codec.FixBytes.buffer;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Identifiers, prices, quantities and timestamps: exact conversions, and a sentinel rather than an exception. */
class FixValuesTest {
    private static long shortText(final String text) {
        final UnsafeBuffer buffer = buffer(text);
        return ShortText.parse(buffer, 0, buffer.capacity());
    }

    private static long price(final String text) {
        final UnsafeBuffer buffer = buffer(text);
        return FixDecimal.parsePrice(buffer, 0, buffer.capacity());
    }

    @ParameterizedTest
    @ValueSource(strings = {"A", "CLIENT1", "ORD-000001", "VOD.L", "zzzzzzzzzz", "a\"#$%&'()*"})
    void shortTextAgreesWithChronicle(final String text) {
        final long value = shortText(text);
        assertEquals(ShortTextLongConverter.INSTANCE.parse(text), value);
        assertEquals(ShortTextLongConverter.INSTANCE.asString(value), ShortText.toString(value));
        assertEquals(text, ShortText.toString(value));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " LEADING", "ELEVENCHARS", "tab\tin", "caf\u00e9", "back\\slash", "pipe|", "0000000000"})
    void textChronicleCannotRoundTripIsInvalid(final String text) {
        assertEquals(ShortText.INVALID, shortText(text));
    }

    @Test
    void tenCharactersBeyondSixtyFourBitsAreInvalid() {
        assertEquals(ShortText.INVALID, shortText("00000000000"));
        long largest = 0;
        for (int digit = 84; digit >= 0; digit--) {
            final String candidate = ShortText.ALPHABET.charAt(digit) + "000000000";
            if (shortText(candidate) != ShortText.INVALID) {
                largest = digit;
                break;
            }
        }
        final String overflow = ShortText.ALPHABET.charAt((int) largest + 1) + "000000000";
        assertEquals(ShortText.INVALID, shortText(overflow));
    }

    @Test
    void pricesBecomeEightDecimalFixedPoint() {
        assertEquals(Price.of(101) + Price.SCALE / 4, price("101.25"));
        assertEquals(Price.of(101), price("101"));
        assertEquals(Price.of(101), price("101."  + "0000000000000"));
        assertEquals(1, price("0.00000001"));
        assertEquals(-Price.SCALE / 2, price("-0.5"));
        assertEquals(Price.SCALE / 2, price(".5"));
        assertEquals(92_233_720_368L * Price.SCALE, price("92233720368"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "-", ".", "1.", "1.2.3", "abc", "1e5", "0.000000001", "92233720369", "99999999999999999999"})
    void badPricesAreInvalid(final String text) {
        assertEquals(FixDecimal.INVALID, price(text));
    }

    @Test
    void quantitiesAreWholeNumbers() {
        final UnsafeBuffer whole = buffer("100.000");
        assertEquals(100, FixDecimal.parseQuantity(whole, 0, whole.capacity()));
        final UnsafeBuffer fraction = buffer("100.5");
        assertEquals(FixDecimal.INVALID, FixDecimal.parseQuantity(fraction, 0, fraction.capacity()));
        final UnsafeBuffer negative = buffer("-1");
        assertEquals(FixDecimal.INVALID, FixDecimal.parseQuantity(negative, 0, negative.capacity()));
    }

    @Test
    void timestampsRoundTripAcrossLeapYearsAndCenturies() {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[32]);
        for (final String instant : new String[]{"1970-01-01T00:00:00Z", "2000-02-29T23:59:59.999Z",
                "2100-03-01T12:00:00.001Z", "1969-12-31T23:59:59.999Z", "2026-11-22T10:15:30.250Z"}) {
            final long millis = Instant.parse(instant).toEpochMilli();
            assertEquals(UtcTimestamp.LENGTH, UtcTimestamp.encode(millis, buffer, 0));
            assertEquals(millis, UtcTimestamp.parse(buffer, 0, UtcTimestamp.LENGTH), instant);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"20260101-10:00:00", "20260101-10:00:00.123456", "20260101-10:00:00.123456789"})
    void timestampsMayHaveSecondsMicrosOrNanos(final String text) {
        final UnsafeBuffer buffer = buffer(text);
        final long expected = Instant.parse("2026-01-01T10:00:00Z").toEpochMilli() + (text.length() > 17 ? 123 : 0);
        assertEquals(expected, UtcTimestamp.parse(buffer, 0, buffer.capacity()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"20260230-10:00:00", "20261301-10:00:00", "20260101 10:00:00", "20260101-24:00:00",
            "2026010-10:00:00.1", "20260101-10:00:00.12x"})
    void badTimestampsAreInvalid(final String text) {
        final UnsafeBuffer buffer = buffer(text);
        assertEquals(UtcTimestamp.INVALID, UtcTimestamp.parse(buffer, 0, buffer.capacity()));
    }
}
