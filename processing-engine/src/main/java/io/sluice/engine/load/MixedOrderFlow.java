package io.sluice.engine.load;

import io.sluice.contracts.CancelOrder;
import io.sluice.contracts.GatewayToEngine;
import io.sluice.contracts.MassCancel;
import io.sluice.contracts.MassCancelCause;
import io.sluice.contracts.MassCancelScope;
import io.sluice.contracts.MetaData;
import io.sluice.contracts.NewOrder;
import io.sluice.contracts.OrdType;
import io.sluice.contracts.ReplaceOrder;
import io.sluice.contracts.Side;
import io.sluice.contracts.TimeInForce;
import io.sluice.engine.config.InstrumentConfig;
import net.openhft.chronicle.wire.ShortTextLongConverter;

import java.util.List;

/**
 * A deterministic, allocation-free stream of realistic commands from one gateway, for benchmarks and load tests. Mostly
 * limit DAY orders a few ticks either side of a mid price that wanders (so about half cross and half rest), some IOC
 * and market orders, and cancels and replaces of the session's recent orders, over several instruments and sessions.
 * The same seed always gives the same commands; each carries MetaData naming
 * this gateway and event ids 1, 2, 3 ...
 * <p>
 * Mix per 100 commands: 62 limit DAY, 6 limit IOC, 4 market IOC, 18 cancels, 10 replaces. Mass cancels come on
 * request ({@link #massCancel}), numbered in the same sequence, and leave the mix of the other commands as it was.
 */
public final class MixedOrderFlow {
    private static final int RECENT = 64;
    /** The side filters mass cancels take in turn: both sides (none named), buy, sell. */
    private static final Side[] SIDE_FILTERS = {null, Side.BUY, Side.SELL};

    private final int sourceId;
    private final long[] symbols;
    private final long[] mids;
    private final long[] lowestMids;
    private final long[] highestMids;
    private final long[] ticks;
    private final long[] lots;
    private final long[] sessions;
    private final long[][] recentClOrdIds;
    private final int[][] recentInstruments;
    private final Side[][] recentSides;
    private final int[] recentCount;
    private final int[] recentNext;
    private final NewOrder newOrder = new NewOrder();
    private final CancelOrder cancel = new CancelOrder();
    private final ReplaceOrder replace = new ReplaceOrder();
    private final MassCancel massCancel = new MassCancel();
    private long state;
    private long eventId;
    private long massCancels;

    /**
     * @param seed        any value; the same seed gives the same commands
     * @param sourceId    the gateway these commands come from
     * @param instruments traded around the middle of their price band, in quantities of 1 to 20 lots
     * @param sessions    how many FIX sessions send (named {@code G<sourceId>S<i>})
     */
    public MixedOrderFlow(final long seed, final int sourceId, final List<InstrumentConfig> instruments, final int sessions) {
        this.sourceId = sourceId;
        state = seed * 0x9E3779B97F4A7C15L + sourceId;
        if (state == 0) {
            state = 1;
        }
        symbols = new long[instruments.size()];
        mids = new long[symbols.length];
        lowestMids = new long[symbols.length];
        highestMids = new long[symbols.length];
        ticks = new long[symbols.length];
        lots = new long[symbols.length];
        for (int i = 0; i < symbols.length; i++) {
            final InstrumentConfig instrument = instruments.get(i);
            symbols[i] = instrument.symbol();
            ticks[i] = instrument.tickSize();
            lots[i] = instrument.lotSize();
            final long mid = (instrument.priceLow() + instrument.priceHigh()) / 2;
            mids[i] = mid - mid % ticks[i];
            lowestMids[i] = instrument.priceLow() + 10 * ticks[i];
            highestMids[i] = instrument.priceHigh() - 10 * ticks[i];
        }
        this.sessions = new long[sessions];
        recentClOrdIds = new long[sessions][RECENT];
        recentInstruments = new int[sessions][RECENT];
        recentSides = new Side[sessions][RECENT];
        recentCount = new int[sessions];
        recentNext = new int[sessions];
        for (int i = 0; i < sessions; i++) {
            this.sessions[i] = ShortTextLongConverter.INSTANCE.parse("G" + sourceId + "S" + i);
        }
    }

    /** Passes the next command to {@code target}. */
    public void next(final GatewayToEngine target) {
        final long n = ++eventId;
        final int session = (int) (n % sessions.length);
        final int kind = random(100);
        if (kind < 72 || recentCount[session] == 0) {
            final int instrument = random(symbols.length);
            walk(instrument);
            final Side side = random(2) == 0 ? Side.BUY : Side.SELL;
            final boolean market = kind >= 68 && kind < 72;
            final boolean ioc = kind >= 62;
            stamp(newOrder.metaData(), n);
            newOrder.session(sessions[session]).clOrdId(n).account(sessions[session]).symbol(symbols[instrument])
                    .side(side).ordType(market ? OrdType.MARKET : OrdType.LIMIT)
                    .timeInForce(ioc ? TimeInForce.IMMEDIATE_OR_CANCEL : TimeInForce.DAY)
                    .orderQty(lots[instrument] * (1 + random(20)))
                    .price(market ? 0 : price(instrument, side));
            remember(session, n, instrument, side);
            target.newOrder(newOrder);
        } else {
            final int slot = random(recentCount[session]);
            final long origClOrdId = recentClOrdIds[session][slot];
            final int instrument = recentInstruments[session][slot];
            final Side side = recentSides[session][slot];
            if (kind < 90) {
                stamp(cancel.metaData(), n);
                cancel.session(sessions[session]).clOrdId(n).origClOrdId(origClOrdId).symbol(symbols[instrument]).side(side);
                target.cancelOrder(cancel);
            } else {
                stamp(replace.metaData(), n);
                replace.origClOrdId(origClOrdId);
                replace.session(sessions[session]).clOrdId(n).account(sessions[session]).symbol(symbols[instrument])
                        .side(side).ordType(OrdType.LIMIT).timeInForce(TimeInForce.DAY)
                        .orderQty(lots[instrument] * (1 + random(20))).price(price(instrument, side));
                recentClOrdIds[session][slot] = n;
                target.replaceOrder(replace);
            }
        }
    }

    /**
     * Passes a mass cancel to {@code target}, with the next event id: of the sessions' resting orders in turn, one
     * instrument (in turn) and all instruments alternating, each side and then both, as a client asks (cause
     * CLIENT_REQUEST). Draws no random number, so the commands around it are those the flow gives without it.
     */
    public void massCancel(final GatewayToEngine target) {
        final long n = ++eventId;
        final long k = massCancels++;
        stamp(massCancel.metaData(), n);
        massCancel.session(sessions[(int) (k % sessions.length)]).clOrdId(n)
                .scope(k % 2 == 0 ? MassCancelScope.SECURITY : MassCancelScope.ALL)
                .symbol(symbols[(int) (k % symbols.length)]).side(SIDE_FILTERS[(int) (k % SIDE_FILTERS.length)])
                .cause(MassCancelCause.CLIENT_REQUEST);
        target.massCancel(massCancel);
    }

    /** @return the event id of the last command passed on. */
    public long eventId() {
        return eventId;
    }

    /**
     * Moves the instrument's mid a tick up or down now and then, within its band: orders left resting far
     * from the mid trade when it comes back, so the books stay of a realistic, bounded size.
     */
    private void walk(final int instrument) {
        final int step = random(16);
        if (step == 0 && mids[instrument] - ticks[instrument] >= lowestMids[instrument]) {
            mids[instrument] -= ticks[instrument];
        } else if (step == 1 && mids[instrument] + ticks[instrument] <= highestMids[instrument]) {
            mids[instrument] += ticks[instrument];
        }
    }

    /** A price from 5 ticks through to 4 ticks beyond the mid on the order's side: about half cross. */
    private long price(final int instrument, final Side side) {
        final long offset = (random(10) - 5) * ticks[instrument];
        return side == Side.BUY ? mids[instrument] + offset : mids[instrument] - offset;
    }

    private void remember(final int session, final long clOrdId, final int instrument, final Side side) {
        final int slot = recentNext[session];
        recentNext[session] = (slot + 1) % RECENT;
        recentCount[session] = Math.min(RECENT, recentCount[session] + 1);
        recentClOrdIds[session][slot] = clOrdId;
        recentInstruments[session][slot] = instrument;
        recentSides[session][slot] = side;
    }

    private void stamp(final MetaData metaData, final long n) {
        metaData.clearTimestamps();
        metaData.sourceId(sourceId).eventId(n);
    }

    /** xorshift64: deterministic, allocation-free. */
    private int random(final int bound) {
        long x = state;
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        state = x;
        return (int) ((x >>> 1) % bound);
    }
}
