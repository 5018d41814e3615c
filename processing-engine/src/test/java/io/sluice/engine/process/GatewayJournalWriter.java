package io.sluice.engine.process;

import io.sluice.contracts.CancelOrder;
import io.sluice.contracts.GatewayToEngine;
import io.sluice.contracts.NewOrder;
import io.sluice.contracts.OrdType;
import io.sluice.contracts.Price;
import io.sluice.contracts.ReplaceOrder;
import io.sluice.contracts.Side;
import io.sluice.contracts.TimeInForce;
import io.sluice.contracts.journal.Journals;
import io.sluice.contracts.time.SluiceClock;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.wire.ShortTextLongConverter;

import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * Plays a gateway without FIX in tests: appends commands to gateway {@code id}'s journal with correct
 * MetaData (this source, event ids 1, 2, 3 ...). {@link #writeMixed} writes a seeded, realistic mix of new
 * orders, cancels and replaces over a few prices so that orders rest, cross and get canceled.
 */
public final class GatewayJournalWriter implements AutoCloseable {
    private static final long VOD = ShortTextLongConverter.INSTANCE.parse("VOD.L");

    private final int gatewayId;
    private final ChronicleQueue queue;
    private final GatewayToEngine writer;
    private final NewOrder newOrder = new NewOrder();
    private final CancelOrder cancel = new CancelOrder();
    private final ReplaceOrder replace = new ReplaceOrder();
    private final long seed;
    private final long[] sessions = new long[3];
    private long eventId;

    public GatewayJournalWriter(final Path root, final int gatewayId, final long seed) {
        this.gatewayId = gatewayId;
        queue = Journals.open(Journals.gatewayJournal(root, gatewayId));
        writer = queue.methodWriter(GatewayToEngine.class);
        this.seed = seed;
        for (int i = 0; i < sessions.length; i++) {
            sessions[i] = ShortTextLongConverter.INSTANCE.parse("G" + gatewayId + "S" + i);
        }
    }

    /**
     * Writes command {@code n} (its event id; n counts from 1, with no gaps) of this gateway's deterministic
     * mix. The command depends only on the seed and {@code n}, so a writer that resumes a journal goes on
     * with the same mix as an uninterrupted one.
     */
    public void writeMixed(final long n) {
        if (n != eventId + 1) {
            throw new IllegalArgumentException("next event id is " + (eventId + 1) + ", not " + n);
        }
        final SplittableRandom random = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + n);
        final long session = sessions[(int) (n % sessions.length)];
        final int kind = random.nextInt(10);
        if (kind < 7 || n < 10) {
            newOrder.metaData().clearTimestamps();
            newOrder.session(session).clOrdId(n).account(session).symbol(VOD)
                    .side(random.nextBoolean() ? Side.BUY : Side.SELL)
                    .ordType(kind == 6 ? OrdType.MARKET : OrdType.LIMIT)
                    .timeInForce(kind == 6 ? TimeInForce.IMMEDIATE_OR_CANCEL : TimeInForce.DAY)
                    .orderQty(10 * (1 + random.nextInt(10)))
                    .price(kind == 6 ? 0 : Price.of(98) + random.nextInt(9) * (Price.SCALE / 2));
            stamp(newOrder.metaData());
            writer.newOrder(newOrder);
        } else if (kind < 9) {
            cancel.metaData().clearTimestamps();
            cancel.session(session).clOrdId(n).origClOrdId(n - 1 - random.nextInt(9)).symbol(VOD).side(Side.BUY);
            stamp(cancel.metaData());
            writer.cancelOrder(cancel);
        } else {
            replace.metaData().clearTimestamps();
            replace.origClOrdId(n - 1 - random.nextInt(9));
            replace.session(session).clOrdId(n).account(session).symbol(VOD).side(Side.SELL)
                    .ordType(OrdType.LIMIT).timeInForce(TimeInForce.DAY)
                    .orderQty(10 * (1 + random.nextInt(10))).price(Price.of(98) + random.nextInt(9) * (Price.SCALE / 2));
            stamp(replace.metaData());
            writer.replaceOrder(replace);
        }
    }

    /** Writes one new order with the given terms. */
    public void newOrder(final String session, final long clOrdId, final Side side, final long qty, final long price) {
        newOrder.metaData().clearTimestamps();
        newOrder.session(ShortTextLongConverter.INSTANCE.parse(session)).clOrdId(clOrdId).account(0).symbol(VOD)
                .side(side).ordType(OrdType.LIMIT).timeInForce(TimeInForce.DAY).orderQty(qty).price(price);
        stamp(newOrder.metaData());
        writer.newOrder(newOrder);
    }

    private void stamp(final io.sluice.contracts.MetaData metaData) {
        metaData.sourceId(gatewayId).eventId(++eventId).commandWritten(SluiceClock.nowTicks());
    }

    /** Continues a journal that already holds events 1 to {@code lastEventId}. */
    public GatewayJournalWriter resumeAfter(final long lastEventId) {
        eventId = lastEventId;
        return this;
    }

    /** @return how many commands this writer has appended. */
    public long written() {
        return eventId;
    }

    @Override
    public void close() {
        queue.close();
    }
}
