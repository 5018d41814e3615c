package io.sluice.tools.admin;

import io.sluice.contracts.FirmLimit;
import io.sluice.contracts.Price;
import io.sluice.engine.config.FirmLimitsConfig;

import java.util.Arrays;
import java.util.stream.Collectors;

/** How {@code ./sluice admin limit} reads a firm limit's value from the command line, and how it shows one. */
final class FirmLimitText {
    /** What {@link #parse} returns for a value that is not a number, negative, or above the limit's maximum. */
    static final long INVALID = Long.MIN_VALUE;
    private static final String NONE = "none";

    private FirmLimitText() {
    }

    /** @return the value {@code text} gives {@code limit}: a decimal for notionals, else whole; none; or {@link #INVALID} */
    static long parse(final FirmLimit limit, final String text) {
        if (NONE.equals(text)) {
            return FirmLimit.NONE;
        }
        final long value;
        try {
            value = limit.unit() == FirmLimit.Unit.NOTIONAL ? Price.Text.INSTANCE.parse(text) : Long.parseLong(text);
        } catch (final NumberFormatException | ArithmeticException e) {
            return INVALID;
        }
        return value != FirmLimit.NONE && FirmLimitsConfig.isAllowed(limit, value) ? value : INVALID;
    }

    /** @return {@code value} of {@code limit} as the command line takes it */
    static String format(final FirmLimit limit, final long value) {
        final StringBuilder text = new StringBuilder();
        limit.appendValue(text, value);
        return text.toString();
    }

    /** @return what the limit's value counts, for messages */
    static String describeUnit(final FirmLimit limit) {
        return switch (limit.unit()) {
            case COUNT -> "whole number";
            case QUANTITY -> "quantity";
            case NOTIONAL -> "notional (a decimal)";
            case BASIS_POINTS -> "number of basis points";
        };
    }

    /** @return every limit's name, for messages */
    static String names() {
        return Arrays.stream(FirmLimit.values()).map(FirmLimit::configName).collect(Collectors.joining(", "));
    }
}
