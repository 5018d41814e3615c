package io.sluice.engine.risk;

import io.sluice.contracts.FirmLimit;
import io.sluice.contracts.Price;
import io.sluice.contracts.Side;
import io.sluice.runtime.counters.CounterLabel;
import io.sluice.runtime.counters.CountersFile;
import net.openhft.chronicle.wire.ShortTextLongConverter;
import org.agrona.concurrent.status.AtomicCounter;

import java.util.Arrays;

/**
 * One firm's counters in the engine's counters file, for {@code ./sluice stat}, the Prometheus exporter and {@code
 * ./sluice admin limits}. Open orders, open notional per side, position per instrument, orders in the current second,
 * limit rejects, the kill switch ({@link FirmKillSwitch} ordinal) and every limit's value ({@link #NO_LIMIT} for none).
 * Notionals are whole price units, truncated. Allocated when the firm first appears, once.
 * <p>
 * A counter is written only when its value differs from the one last published, which this keeps in one dense array:
 * each counter has a padded line of its own in the file, and the limits, the kill switch and most positions rarely
 * change, so publishing a firm touches few of its lines.
 */
public final class FirmCounters {
    /** The value a limit's counter shows when the limit is not set. */
    public static final long NO_LIMIT = -1;
    /** The metric names, with label {@code firm}: read back by {@code ./sluice admin limits}. */
    public static final String OPEN_ORDERS = "sluice_engine_firm_open_orders";
    public static final String OPEN_NOTIONAL = "sluice_engine_firm_open_notional";
    public static final String POSITION = "sluice_engine_firm_position";
    public static final String ORDERS_IN_SECOND = "sluice_engine_firm_orders_in_second";
    public static final String LIMIT_REJECTS = "sluice_engine_firm_limit_rejects_total";
    public static final String KILL_SWITCH = "sluice_engine_firm_kill_switch";
    public static final String LIMIT = "sluice_engine_firm_limit";

    /** The counters of a firm that do not depend on the instruments: all but the positions. */
    private static final int COUNTERS_BESIDE_POSITIONS = 6 + FirmLimit.values().length;
    private static final int PUBLISHED_OPEN_ORDERS = 0;
    private static final int PUBLISHED_OPEN_BUY_NOTIONAL = 1;
    private static final int PUBLISHED_OPEN_SELL_NOTIONAL = 2;
    private static final int PUBLISHED_ORDERS_IN_SECOND = 3;
    private static final int PUBLISHED_LIMIT_REJECTS = 4;
    private static final int PUBLISHED_KILL_SWITCH = 5;
    private static final int PUBLISHED_LIMITS = 6;

    private final AtomicCounter openOrders;
    private final AtomicCounter openBuyNotional;
    private final AtomicCounter openSellNotional;
    private final AtomicCounter[] position;
    private final AtomicCounter ordersInSecond;
    private final AtomicCounter limitRejects;
    private final AtomicCounter killSwitch;
    private final AtomicCounter[] limits = new AtomicCounter[FirmLimit.values().length];
    /** The value last written to each counter: at the PUBLISHED_ indices, then the positions. */
    private final long[] published;

    /** Allocates the counters of {@code firm}, one position per symbol of {@code symbols} (config order). */
    public FirmCounters(final CountersFile file, final long firm, final long[] symbols) {
        final String name = ShortTextLongConverter.INSTANCE.asString(firm);
        openOrders = file.gauge(CounterLabel.of(OPEN_ORDERS, "firm", name));
        openBuyNotional = file.gauge(CounterLabel.of(OPEN_NOTIONAL, "firm", name, "side", "buy"));
        openSellNotional = file.gauge(CounterLabel.of(OPEN_NOTIONAL, "firm", name, "side", "sell"));
        position = new AtomicCounter[symbols.length];
        for (int i = 0; i < symbols.length; i++) {
            position[i] = file.gauge(CounterLabel.of(POSITION, "firm", name, "instrument",
                    ShortTextLongConverter.INSTANCE.asString(symbols[i])));
        }
        ordersInSecond = file.gauge(CounterLabel.of(ORDERS_IN_SECOND, "firm", name));
        limitRejects = file.counter(CounterLabel.of(LIMIT_REJECTS, "firm", name));
        killSwitch = file.gauge(CounterLabel.of(KILL_SWITCH, "firm", name));
        for (final FirmLimit limit : FirmLimit.values()) {
            limits[limit.ordinal()] = file.gauge(CounterLabel.of(LIMIT, "firm", name, "limit", limit.configName()));
        }
        published = new long[COUNTERS_BESIDE_POSITIONS + symbols.length];
        Arrays.fill(published, Long.MIN_VALUE); // no counter holds it, so the first publish writes every one
    }

    /** @return how many counters {@code firms} firms take in a file, with {@code instruments} instruments configured */
    public static long countersOf(final int firms, final int instruments) {
        return (long) firms * (COUNTERS_BESIDE_POSITIONS + instruments);
    }

    /** Publishes what {@code firm} holds now: one ordered write per counter whose value changed, nothing allocated. */
    public void publish(final FirmExposure firm) {
        set(openOrders, PUBLISHED_OPEN_ORDERS, firm.openOrders());
        set(openBuyNotional, PUBLISHED_OPEN_BUY_NOTIONAL, firm.openNotional(Side.BUY) / Price.SCALE);
        set(openSellNotional, PUBLISHED_OPEN_SELL_NOTIONAL, firm.openNotional(Side.SELL) / Price.SCALE);
        for (int i = 0; i < position.length; i++) {
            set(position[i], COUNTERS_BESIDE_POSITIONS + i, firm.position(i));
        }
        set(ordersInSecond, PUBLISHED_ORDERS_IN_SECOND, firm.ordersInSecond());
        set(limitRejects, PUBLISHED_LIMIT_REJECTS, firm.limitRejects());
        set(killSwitch, PUBLISHED_KILL_SWITCH, firm.killSwitch().ordinal());
        for (int i = 0; i < limits.length; i++) {
            final FirmLimit limit = FirmLimit.fromOrdinal(i);
            final long value = firm.limit(limit);
            set(limits[i], PUBLISHED_LIMITS + i, value == FirmLimit.NONE ? NO_LIMIT
                    : limit.unit() == FirmLimit.Unit.NOTIONAL ? value / Price.SCALE : value);
        }
    }

    private void set(final AtomicCounter counter, final int index, final long value) {
        if (published[index] != value) {
            published[index] = value;
            counter.setRelease(value);
        }
    }
}
