package io.sluice.bench.quickfixj;

import quickfix.Application;
import quickfix.FieldNotFound;
import quickfix.Message;
import quickfix.Session;
import quickfix.SessionID;
import quickfix.SessionNotFound;
import quickfix.field.AvgPx;
import quickfix.field.ClOrdID;
import quickfix.field.CumQty;
import quickfix.field.ExecID;
import quickfix.field.ExecType;
import quickfix.field.LastPx;
import quickfix.field.LastQty;
import quickfix.field.LeavesQty;
import quickfix.field.MsgType;
import quickfix.field.OrdStatus;
import quickfix.field.OrderID;
import quickfix.field.OrderQty;
import quickfix.field.Price;
import quickfix.field.Side;
import quickfix.field.Symbol;
import quickfix.fix44.ExecutionReport;
import quickfix.fix44.NewOrderSingle;

/**
 * The whole "business logic" of the QuickFIX/J baseline: every NewOrderSingle is answered with two
 * ExecutionReports, an acknowledgement (ExecType=New) and a full fill at the order's price. Nothing is
 * validated, stored or matched, so the baseline measures QuickFIX/J's own FIX processing only.
 */
final class TwoReportApplication implements Application {
    private long nextId;

    @Override
    public void onCreate(final SessionID sessionId) {
    }

    @Override
    public void onLogon(final SessionID sessionId) {
    }

    @Override
    public void onLogout(final SessionID sessionId) {
    }

    @Override
    public void toAdmin(final Message message, final SessionID sessionId) {
    }

    @Override
    public void fromAdmin(final Message message, final SessionID sessionId) {
    }

    @Override
    public void toApp(final Message message, final SessionID sessionId) {
    }

    @Override
    public void fromApp(final Message message, final SessionID sessionId) throws FieldNotFound {
        if (!NewOrderSingle.MSGTYPE.equals(message.getHeader().getString(MsgType.FIELD))) {
            return;
        }
        final String clOrdId = message.getString(ClOrdID.FIELD);
        final char side = message.getChar(Side.FIELD);
        final String symbol = message.getString(Symbol.FIELD);
        final double quantity = message.getDouble(OrderQty.FIELD);
        final double price = message.isSetField(Price.FIELD) ? message.getDouble(Price.FIELD) : 0;
        final String orderId = Long.toString(++nextId);

        final ExecutionReport ack = report(orderId, clOrdId, side, symbol, quantity, price,
                ExecType.NEW, OrdStatus.NEW);
        ack.set(new LeavesQty(quantity));
        ack.set(new CumQty(0));
        ack.set(new AvgPx(0));
        send(ack, sessionId);

        final ExecutionReport fill = report(orderId, clOrdId, side, symbol, quantity, price,
                ExecType.TRADE, OrdStatus.FILLED);
        fill.set(new LastQty(quantity));
        fill.set(new LastPx(price));
        fill.set(new LeavesQty(0));
        fill.set(new CumQty(quantity));
        fill.set(new AvgPx(price));
        send(fill, sessionId);
    }

    private ExecutionReport report(final String orderId, final String clOrdId, final char side,
                                   final String symbol, final double quantity, final double price,
                                   final char execType, final char ordStatus) {
        final ExecutionReport report = new ExecutionReport();
        report.set(new OrderID(orderId));
        report.set(new ExecID(Long.toString(++nextId)));
        report.set(new ExecType(execType));
        report.set(new OrdStatus(ordStatus));
        report.set(new ClOrdID(clOrdId));
        report.set(new Side(side));
        report.set(new Symbol(symbol));
        report.set(new OrderQty(quantity));
        report.set(new Price(price));
        return report;
    }

    private static void send(final ExecutionReport report, final SessionID sessionId) {
        try {
            Session.sendToTarget(report, sessionId);
        } catch (final SessionNotFound e) {
            throw new IllegalStateException("session " + sessionId + " vanished while answering an order", e);
        }
    }
}
