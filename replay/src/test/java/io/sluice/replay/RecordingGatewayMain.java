package io.sluice.replay;

import io.sluice.contracts.CancelOrder;
import io.sluice.contracts.GatewayToEngine;
import io.sluice.contracts.MetaData;
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
import java.util.concurrent.locks.LockSupport;

/**
 * Stands in for a gateway process while the real gateway is not available: a child JVM that appends a
 * seeded session of commands to gateway {@code id}'s journal, as a gateway would after decoding FIX. Two
 * sessions per gateway send limit (DAY, IOC, FOK) and market orders around a mid price, cancels and
 * replaces of their recent orders, so that orders rest, trade across gateways, get canceled and rejected.
 * <pre>
 *   RecordingGatewayMain &lt;root&gt; &lt;gatewayId&gt; &lt;commands&gt; &lt;symbol&gt; &lt;gapMicros&gt; [&lt;jumboAt&gt;]
 * </pre>
 * {@code gapMicros} spaces the commands in time (0: flat out); command {@code jumboAt} (if given) is a new
 * order for {@value #JUMBO_QTY}, every other quantity is at most 100: a lower {@code maxOrderQty} in a
 * replay's config then changes exactly that order's fate.
 */
public final class RecordingGatewayMain {
    /** The quantity of the jumbo order. */
    public static final long JUMBO_QTY = 500;

    private final GatewayToEngine writer;
    private final int gatewayId;
    private final long symbol;
    private final long midPrice;
    private final long priceStep;
    private final long jumboAt;
    private final long[] sessions;
    private final NewOrder newOrder = new NewOrder();
    private final CancelOrder cancel = new CancelOrder();
    private final ReplaceOrder replace = new ReplaceOrder();

    private RecordingGatewayMain(final GatewayToEngine writer, final int gatewayId, final String symbol, final long jumboAt) {
        this.writer = writer;
        this.gatewayId = gatewayId;
        this.symbol = ShortTextLongConverter.INSTANCE.parse(symbol);
        // Mid prices and steps on the tick grids of RecordedSession's instruments.
        this.midPrice = symbol.startsWith("AZN") ? Price.of(10_000) : Price.of(100);
        this.priceStep = symbol.startsWith("AZN") ? Price.of(5) / 2 : Price.SCALE / 2;
        this.jumboAt = jumboAt;
        this.sessions = new long[]{ShortTextLongConverter.INSTANCE.parse("G" + gatewayId + "A"),
                ShortTextLongConverter.INSTANCE.parse("G" + gatewayId + "B")};
    }

    public static void main(final String[] args) {
        final Path root = Path.of(args[0]);
        final int gatewayId = Integer.parseInt(args[1]);
        final int commands = Integer.parseInt(args[2]);
        final long gapNanos = Long.parseLong(args[4]) * 1_000;
        final long jumboAt = args.length > 5 ? Long.parseLong(args[5]) : 0;
        write(root, gatewayId, commands, args[3], gapNanos, jumboAt);
        System.out.println("gateway " + gatewayId + ": wrote " + commands + " commands");
    }

    /** Appends commands 1 to {@code commands} of gateway {@code gatewayId}'s session to its journal under {@code root}. */
    public static void write(final Path root, final int gatewayId, final int commands, final String symbol,
                             final long gapNanos, final long jumboAt) {
        try (ChronicleQueue queue = Journals.open(Journals.gatewayJournal(root, gatewayId))) {
            final RecordingGatewayMain gateway = new RecordingGatewayMain(
                    queue.methodWriter(GatewayToEngine.class), gatewayId, symbol, jumboAt);
            for (long n = 1; n <= commands; n++) {
                gateway.command(n);
                if (gapNanos > 0) {
                    LockSupport.parkNanos(gapNanos);
                }
            }
        }
    }

    private void command(final long n) {
        final SplittableRandom random = new SplittableRandom(gatewayId * 1_000_003L + n);
        final long session = sessions[random.nextInt(sessions.length)];
        final int kind = random.nextInt(20);
        final long price = midPrice + (random.nextInt(7) - 3) * priceStep;
        final long qty = 10L * (1 + random.nextInt(10));
        if (n == jumboAt || n < 8 || kind < 13) {
            final boolean market = n != jumboAt && kind == 10;
            final TimeInForce tif = n == jumboAt ? TimeInForce.DAY
                    : market || kind == 11 ? TimeInForce.IMMEDIATE_OR_CANCEL : kind == 12 ? TimeInForce.FILL_OR_KILL : TimeInForce.DAY;
            newOrder.session(session).clOrdId(n).account(session).symbol(symbol)
                    .side(random.nextBoolean() ? Side.BUY : Side.SELL)
                    .ordType(market ? OrdType.MARKET : OrdType.LIMIT).timeInForce(tif)
                    .orderQty(n == jumboAt ? JUMBO_QTY : qty).price(market ? 0 : price);
            stamp(newOrder.metaData(), n);
            writer.newOrder(newOrder);
        } else if (kind < 17) {
            cancel.session(session).clOrdId(n).origClOrdId(n - 1 - random.nextInt(6)).symbol(symbol).side(Side.BUY);
            stamp(cancel.metaData(), n);
            writer.cancelOrder(cancel);
        } else {
            replace.origClOrdId(n - 1 - random.nextInt(6));
            replace.session(session).clOrdId(n).account(session).symbol(symbol).side(Side.SELL)
                    .ordType(OrdType.LIMIT).timeInForce(TimeInForce.DAY).orderQty(qty).price(price);
            stamp(replace.metaData(), n);
            writer.replaceOrder(replace);
        }
    }

    private void stamp(final MetaData metaData, final long n) {
        final long now = SluiceClock.nowTicks();
        metaData.sourceId(gatewayId).eventId(n).fixReceived(now - 20).commandWritten(now)
                .engineRead(0).reportWritten(0).gatewayRead(0).fixSent(0);
    }
}
