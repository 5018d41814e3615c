package io.sluice.contracts;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Fixed-point prices read and print as exact decimals. */
final class PriceTest {
    @ParameterizedTest
    @CsvSource({
            "101.25, 10125000000",
            "0.00000001, 1",
            "-0.5, -50000000",
            "100, 10000000000",
            "0, 0",
            "92233720368.54775807, 9223372036854775807",
            "-92233720368.54775808, -9223372036854775808",
            "-0.00000001, -1",
    })
    void textAndFixedPointAgree(final String text, final long fixedPoint) {
        assertEquals(fixedPoint, Price.Text.INSTANCE.parse(text));
        final StringBuilder printed = new StringBuilder();
        Price.Text.INSTANCE.append(printed, fixedPoint);
        assertEquals(text, printed.toString());
    }
}
