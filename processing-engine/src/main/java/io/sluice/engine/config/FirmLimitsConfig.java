package io.sluice.engine.config;

import io.sluice.contracts.FirmLimit;
import io.sluice.contracts.Price;
import net.openhft.chronicle.wire.LongConversion;
import net.openhft.chronicle.wire.SelfDescribingMarshallable;
import net.openhft.chronicle.wire.ShortTextLongConverter;

import static io.sluice.engine.config.InstrumentConfig.require;

/**
 * One firm's pre-trade limits as the engine YAML's {@code risk} section states them ({@link FirmLimit} names each);
 * a limit left out is not checked. Notionals are decimals held as fixed point ({@link Price}); the collar is in
 * basis points. Example:
 * <pre>
 *   { firm: ACME, maxOpenOrders: 100, maxOpenNotional: 1000000, maxPosition: 5000, maxOrdersPerSecond: 50,
 *     priceCollar: 500, maxOrderNotional: 100000, killOnRejectsPerSecond: 20 }
 * </pre>
 */
public final class FirmLimitsConfig extends SelfDescribingMarshallable {
    @LongConversion(ShortTextLongConverter.class)
    private long firm;
    private long maxOpenOrders = FirmLimit.NONE;
    @LongConversion(Price.Text.class)
    private long maxOpenNotional = FirmLimit.NONE;
    private long maxPosition = FirmLimit.NONE;
    private long maxOrdersPerSecond = FirmLimit.NONE;
    private long priceCollar = FirmLimit.NONE;
    @LongConversion(Price.Text.class)
    private long maxOrderNotional = FirmLimit.NONE;
    private long killOnRejectsPerSecond = FirmLimit.NONE;

    /** @return the firm, packed by {@link ShortTextLongConverter}; 0 in the defaults */
    public long firm() {
        return firm;
    }

    public FirmLimitsConfig firm(final long firm) {
        this.firm = firm;
        return this;
    }

    /** @return the value configured for {@code limit}, or {@link FirmLimit#NONE} */
    public long value(final FirmLimit limit) {
        return switch (limit) {
            case MAX_OPEN_ORDERS -> maxOpenOrders;
            case MAX_OPEN_NOTIONAL -> maxOpenNotional;
            case MAX_POSITION -> maxPosition;
            case MAX_ORDERS_PER_SECOND -> maxOrdersPerSecond;
            case PRICE_COLLAR -> priceCollar;
            case MAX_ORDER_NOTIONAL -> maxOrderNotional;
            case KILL_ON_REJECTS_PER_SECOND -> killOnRejectsPerSecond;
        };
    }

    public FirmLimitsConfig value(final FirmLimit limit, final long value) {
        switch (limit) {
            case MAX_OPEN_ORDERS -> maxOpenOrders = value;
            case MAX_OPEN_NOTIONAL -> maxOpenNotional = value;
            case MAX_POSITION -> maxPosition = value;
            case MAX_ORDERS_PER_SECOND -> maxOrdersPerSecond = value;
            case PRICE_COLLAR -> priceCollar = value;
            case MAX_ORDER_NOTIONAL -> maxOrderNotional = value;
            case KILL_ON_REJECTS_PER_SECOND -> killOnRejectsPerSecond = value;
        }
        return this;
    }

    /** @throws IllegalArgumentException naming {@code name} and the first limit that is negative or absurd */
    void validate(final String name) {
        for (final FirmLimit limit : FirmLimit.values()) {
            final long value = value(limit);
            require(isAllowed(limit, value), name + ": " + limit.configName() + " must be between 0 and "
                    + limit.maxValue() + " (or left out), got " + value);
        }
    }

    /** @return true if {@code value} may be set for {@code limit}: 0 to its maximum, or {@link FirmLimit#NONE} */
    public static boolean isAllowed(final FirmLimit limit, final long value) {
        return value == FirmLimit.NONE || value >= 0 && value <= limit.maxValue();
    }
}
