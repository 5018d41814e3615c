package io.sluice.gateway;

import io.sluice.gateway.codec.ShortText;
import io.sluice.runtime.config.DurationText;
import net.openhft.chronicle.wire.SelfDescribingMarshallable;

import java.util.ArrayList;
import java.util.List;

/**
 * The gateway's FIX market data, as its YAML's {@code marketData} section gives it. It names the instruments of the
 * market-data journal (the {@code marketdata} role's, in any order), how many resting orders and price levels the
 * gateway's copy of the books holds, the deepest MarketDepth a subscriber may ask for, how often a subscriber's socket
 * is written (its messages of that long go out in one write, so a fan-out to many subscribers costs the order path
 * little), how many such writes a second all subscribers share, and how long a subscriber may stay behind before it is
 * logged out. Without this
 * section a gateway serves no market data: a MarketDataRequest gets a Business Message Reject (unsupported type).
 */
public final class GatewayMarketData extends SelfDescribingMarshallable {
    private List<String> instruments = new ArrayList<>();
    private int maxOrders = 1 << 16;
    private int maxPriceLevels = 1_024;
    private int maxDepth = 100;
    private String slowSubscriberTimeout = "5s";
    private String writeInterval = "1ms";
    private int maxWritesPerSecond = 10_000;

    public GatewayMarketData() {
    }

    public GatewayMarketData(final List<String> instruments, final String slowSubscriberTimeout) {
        this.instruments = new ArrayList<>(instruments);
        this.slowSubscriberTimeout = slowSubscriberTimeout;
    }

    public GatewayMarketData writeInterval(final String interval) {
        this.writeInterval = interval;
        return this;
    }

    public GatewayMarketData maxWritesPerSecond(final int writesPerSecond) {
        this.maxWritesPerSecond = writesPerSecond;
        return this;
    }

    public List<String> instruments() {
        return instruments;
    }

    /** @return the instruments' symbols as the feed carries them, in the order listed */
    public long[] symbols() {
        return instruments.stream().mapToLong(ShortText::parse).toArray();
    }

    public int maxOrders() {
        return maxOrders;
    }

    public int maxPriceLevels() {
        return maxPriceLevels;
    }

    /** @return the deepest MarketDepth (its best N levels of each side) a subscription may ask for, beside 0 (all) */
    public int maxDepth() {
        return maxDepth;
    }

    public GatewayMarketData maxDepth(final int maxDepth) {
        this.maxDepth = maxDepth;
        return this;
    }

    /** @return how long a subscription may stay behind its socket before its session is logged out, in ms */
    public long slowSubscriberTimeoutMillis() {
        return DurationText.parse(slowSubscriberTimeout).toMillis();
    }

    /** @return how often a subscriber's socket is written, at most, in ns; 0: every round of the gateway's loop */
    public long writeIntervalNanos() {
        return DurationText.parse(writeInterval).toNanos();
    }

    /**
     * @return how many socket writes a second all subscribers together get at most: past {@code 1 s / writeInterval}
     *         subscribers, each is written less often, so their system calls stay a bounded share of the machine
     */
    public int maxWritesPerSecond() {
        return maxWritesPerSecond;
    }

    /** Adds what is wrong with this section to {@code problems}. */
    void validate(final List<String> problems) {
        if (instruments == null || instruments.isEmpty()) {
            problems.add("marketData.instruments: list the instruments of the market-data journal");
        } else {
            for (final String symbol : instruments) {
                if (symbol == null || ShortText.parse(symbol) == ShortText.INVALID) {
                    problems.add("marketData.instruments: '" + symbol + "' is not a symbol");
                }
            }
            if (instruments.stream().distinct().count() != instruments.size()) {
                problems.add("marketData.instruments: an instrument is listed twice");
            }
        }
        if (maxOrders <= 0 || maxPriceLevels <= 0) {
            problems.add("marketData.maxOrders and maxPriceLevels must be positive");
        } else if (maxDepth < 1 || maxDepth > maxPriceLevels) {
            problems.add("marketData.maxDepth must be 1 to maxPriceLevels (" + maxPriceLevels + "), got " + maxDepth);
        }
        if (maxWritesPerSecond < 1) {
            problems.add("marketData.maxWritesPerSecond must be positive, got " + maxWritesPerSecond);
        }
        long timeoutNanos = -1;
        try {
            timeoutNanos = DurationText.parse(slowSubscriberTimeout).toNanos();
            if (timeoutNanos <= 0) {
                problems.add("marketData.slowSubscriberTimeout must be positive, got '" + slowSubscriberTimeout + "'");
            }
        } catch (final IllegalArgumentException e) {
            problems.add("marketData.slowSubscriberTimeout: " + e.getMessage());
        }
        try {
            final long nanos = writeIntervalNanos();
            if (nanos < 0 || timeoutNanos > 0 && nanos > timeoutNanos) {
                problems.add("marketData.writeInterval must be from 0ms to the slowSubscriberTimeout, got '"
                        + writeInterval + "'");
            }
        } catch (final IllegalArgumentException e) {
            problems.add("marketData.writeInterval: " + e.getMessage());
        }
    }
}
