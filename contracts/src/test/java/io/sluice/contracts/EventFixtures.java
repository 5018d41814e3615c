package io.sluice.contracts;

import net.openhft.chronicle.wire.ShortTextLongConverter;

/** Fully populated events for tests, with values chosen to catch swapped or truncated fields. */
public final class EventFixtures {
    private EventFixtures() {
    }

    public static long id(final String text) {
        return ShortTextLongConverter.INSTANCE.parse(text);
    }

    public static MetaData metaData(final MetaData metaData, final long base) {
        return metaData.sourceId(7).eventId(base)
                .fixReceived(base + 1).commandWriting(base + 2).engineRead(base + 3)
                .reportWriting(base + 4).gatewayRead(base + 5).fixSent(base + 6);
    }

    public static NewOrder newOrder() {
        final NewOrder order = new NewOrder();
        metaData(order.metaData(), 1_000);
        order.session(id("CLIENT1")).firm(id("FIRM-A")).clOrdId(id("ORD-000001")).account(id("ACC1")).symbol(id("VOD.L"))
                .side(Side.BUY).ordType(OrdType.LIMIT).timeInForce(TimeInForce.DAY)
                .orderQty(1_000).price(Price.of(101) + Price.SCALE / 4);
        return order;
    }

    public static ReplaceOrder replaceOrder() {
        final ReplaceOrder replace = new ReplaceOrder().origClOrdId(id("ORD-000001"));
        metaData(replace.metaData(), 2_000);
        replace.session(id("CLIENT1")).firm(id("FIRM-B")).clOrdId(id("ORD-000002")).account(id("ACC1")).symbol(id("VOD.L"))
                .side(Side.SELL).ordType(OrdType.MARKET).timeInForce(TimeInForce.FILL_OR_KILL)
                .orderQty(Long.MAX_VALUE).price(Long.MIN_VALUE);
        return replace;
    }

    public static CancelOrder cancelOrder() {
        final CancelOrder cancel = new CancelOrder().session(id("CLIENT2")).clOrdId(id("C-9"))
                .origClOrdId(id("ORD-000001")).symbol(id("BARC.L")).side(Side.SELL_SHORT);
        metaData(cancel.metaData(), 3_000);
        return cancel;
    }

    public static ExecutionReport executionReport() {
        final ExecutionReport report = new ExecutionReport().execId(Long.MAX_VALUE).execType(ExecType.TRADE)
                .account(id("ACC1")).symbol(id("VOD.L")).side(Side.BUY).ordType(OrdType.LIMIT)
                .timeInForce(TimeInForce.IMMEDIATE_OR_CANCEL).orderQty(1_000).price(Price.of(101))
                .lastQty(400).lastPx(Price.of(100)).cumQty(600).leavesQty(400).avgPx(10_033_333_333L)
                .bookEffect(BookEffect.REQUEUED);
        report.gatewayId(Integer.MAX_VALUE).session(id("CLIENT1")).firm(id("FIRMA")).orderId(42).clOrdId(id("ORD-000002"))
                .origClOrdId(id("ORD-000001")).ordStatus(OrdStatus.PARTIALLY_FILLED)
                .rejectReason(RejectReason.NONE);
        metaData(report.metaData(), 4_000);
        return report;
    }

    public static CancelReject cancelReject() {
        final CancelReject reject = new CancelReject().responseTo(CxlRejResponseTo.ORDER_CANCEL_REPLACE_REQUEST);
        reject.gatewayId(2).session(id("CLIENT2")).firm(id("FIRMB")).orderId(0).clOrdId(id("C-9")).origClOrdId(id("NOPE"))
                .ordStatus(OrdStatus.REJECTED).rejectReason(RejectReason.UNKNOWN_ORDER);
        metaData(reject.metaData(), 5_000);
        return reject;
    }

    public static MassCancel massCancel() {
        final MassCancel cancel = new MassCancel().session(id("CLIENT2")).clOrdId(id("MC-1")).scope(MassCancelScope.SECURITY)
                .symbol(id("BARC.L")).side(Side.SELL).cause(MassCancelCause.CLIENT_REQUEST)
                .routing(id("DESK-1"), id("VENUE-2"));
        metaData(cancel.metaData(), 6_000);
        return cancel;
    }

    public static MassCancelReport massCancelReport() {
        final MassCancelReport report = new MassCancelReport().scope(MassCancelScope.ALL).symbol(0).side(null)
                .cause(MassCancelCause.DISCONNECT).affectedOrders(12_345);
        report.gatewayId(3).session(id("CLIENT2")).orderId(44).clOrdId(0).origClOrdId(0)
                .ordStatus(null).rejectReason(RejectReason.NONE).routing(id("DESK-1"), 0);
        metaData(report.metaData(), 7_000);
        return report;
    }

    public static AdminCommand adminCommand() {
        final AdminCommand command = new AdminCommand().action(AdminAction.SET_SEQUENCE).gatewayId(2)
                .session(id("CLIENT2")).symbol(id("VOD.L")).sequence(101, 202).reason(id("ops-ticket")).user(id("sluice"))
                .firm(id("ACME")).limit(FirmLimit.MAX_POSITION, 5_000);
        metaData(command.metaData(), 8_000).sourceId(0);
        return command;
    }

    public static AdminOutcome adminOutcome() {
        return new AdminOutcome().answering(adminCommand()).refused(AdminRefusal.UNKNOWN_SESSION);
    }
}
