package io.sluice.bench.replay;

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
 * Writes a gateway journal of synthetic order flow for throughput benchmarks, as fast as the journal takes
 * it: per 100 commands about 65 limit orders within five ticks of a fixed mid (so that about half of them
 * trade), 5 market orders, 20 cancels and 10 replaces of the session's recent orders, over
 * {@link #SYMBOLS} and 16 sessions per gateway, taking turns. Seeded by the gateway id: the same journal every time.
 */
final class SyntheticGateway {
    /** The instruments the flow trades; {@link ReplayBench#config} configures them. */
    static final String[] SYMBOLS = {"VOD.L", "BARC.L", "AZN.L", "HSBA.L"};
    /** Their tick size, fixed point. */
    static final long TICK = Price.SCALE / 100;

    private static final int SESSIONS = 16;
    private static final long MID = Price.of(100);

    private SyntheticGateway() {
    }

    /** Appends {@code commands} commands (event ids 1 to {@code commands}) to gateway {@code gatewayId}'s journal. */
    static void write(final Path root, final int gatewayId, final int commands) {
        final long[] symbols = new long[SYMBOLS.length];
        for (int i = 0; i < symbols.length; i++) {
            symbols[i] = ShortTextLongConverter.INSTANCE.parse(SYMBOLS[i]);
        }
        final long[] sessions = new long[SESSIONS];
        for (int i = 0; i < sessions.length; i++) {
            sessions[i] = ShortTextLongConverter.INSTANCE.parse("B" + gatewayId + "S" + i);
        }
        final NewOrder order = new NewOrder();
        final CancelOrder cancel = new CancelOrder();
        final ReplaceOrder replace = new ReplaceOrder();
        final SplittableRandom random = new SplittableRandom(gatewayId);
        try (ChronicleQueue queue = Journals.open(Journals.gatewayJournal(root, gatewayId))) {
            final GatewayToEngine journal = queue.methodWriter(GatewayToEngine.class);
            for (long n = 1; n <= commands; n++) {
                final int session = (int) (n % SESSIONS);
                // Command n has ClOrdID n and comes from session n % SESSIONS: going back whole rounds finds the
                // same session's recent orders.
                final long recent = Math.max(1, n - SESSIONS * (1 + random.nextInt(4)));
                final long symbol = symbols[session % symbols.length];
                final int dice = random.nextInt(100);
                final long price = MID + (random.nextInt(11) - 5) * TICK;
                final long qty = 100L * (1 + random.nextInt(10));
                final long now = SluiceClock.nowTicks();
                if (dice < 70) {
                    final boolean market = dice >= 65;
                    order.metaData().sourceId(gatewayId).eventId(n).fixReceived(now).commandWritten(now);
                    order.session(sessions[session]).clOrdId(n).account(sessions[session]).symbol(symbol)
                            .side(random.nextBoolean() ? Side.BUY : Side.SELL)
                            .ordType(market ? OrdType.MARKET : OrdType.LIMIT)
                            .timeInForce(market ? TimeInForce.IMMEDIATE_OR_CANCEL : TimeInForce.DAY)
                            .orderQty(qty).price(market ? 0 : price);
                    journal.newOrder(order);
                } else if (dice < 90) {
                    cancel.metaData().sourceId(gatewayId).eventId(n).fixReceived(now).commandWritten(now);
                    cancel.session(sessions[session]).clOrdId(n).origClOrdId(recent).symbol(symbol).side(Side.BUY);
                    journal.cancelOrder(cancel);
                } else {
                    replace.origClOrdId(recent);
                    replace.metaData().sourceId(gatewayId).eventId(n).fixReceived(now).commandWritten(now);
                    replace.session(sessions[session]).clOrdId(n).account(sessions[session]).symbol(symbol).side(Side.SELL)
                            .ordType(OrdType.LIMIT).timeInForce(TimeInForce.DAY).orderQty(qty).price(price);
                    journal.replaceOrder(replace);
                }
            }
        }
    }
}
