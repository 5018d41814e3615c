package io.sluice.systemtests;

import io.sluice.bench.quickfixj.QuickFixJClient;
import io.sluice.tools.fix.SluiceDeployment;
import quickfix.FieldNotFound;
import quickfix.Message;
import quickfix.field.Account;
import quickfix.field.ClOrdID;
import quickfix.field.ExecType;
import quickfix.field.MsgType;
import quickfix.field.OrdType;
import quickfix.field.OrderQty;
import quickfix.field.OrigClOrdID;
import quickfix.field.Price;
import quickfix.field.Side;
import quickfix.field.Symbol;
import quickfix.field.TimeInForce;
import quickfix.field.TransactTime;
import quickfix.fix44.NewOrderSingle;
import quickfix.fix44.OrderCancelReplaceRequest;
import quickfix.fix44.OrderCancelRequest;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.function.Predicate;

/** The FIX 4.4 messages the end-to-end tests send through QuickFIX/J, and how they pick out the answers. */
final class FixMessages {
    static final String SYMBOL = SluiceDeployment.SYMBOL;

    private FixMessages() {
    }

    /** @return a match for the execution report of ExecType {@code execType} with ClOrdID {@code clOrdId} */
    static Predicate<Message> report(final String clOrdId, final char execType) {
        return message -> QuickFixJClient.isType(message, MsgType.EXECUTION_REPORT)
                && clOrdId.equals(clOrdId(message)) && charField(message, ExecType.FIELD) == execType;
    }

    static String clOrdId(final Message message) {
        return QuickFixJClient.field(message, ClOrdID.FIELD);
    }

    /** @return the one-character value of {@code tag}, or 0 if it is absent */
    static char charField(final Message message, final int tag) {
        try {
            return message.getChar(tag);
        } catch (final FieldNotFound e) {
            return 0;
        }
    }

    static NewOrderSingle buy(final String clOrdId, final int quantity, final double price) {
        return order(clOrdId, Side.BUY, quantity, price);
    }

    /** @return a DAY limit order for {@value #SYMBOL} in account ACC1 */
    static NewOrderSingle order(final String clOrdId, final char side, final int quantity, final double price) {
        final NewOrderSingle order = new NewOrderSingle(new ClOrdID(clOrdId), new Side(side), now(),
                new OrdType(OrdType.LIMIT));
        order.set(new Account("ACC1"));
        order.set(new Symbol(SYMBOL));
        order.set(new OrderQty(quantity));
        order.set(new Price(price));
        order.set(new TimeInForce(TimeInForce.DAY));
        return order;
    }

    /** @return a cancel of the buy order {@code origClOrdId} */
    static OrderCancelRequest cancel(final String clOrdId, final String origClOrdId, final int quantity) {
        final OrderCancelRequest cancel = new OrderCancelRequest(new OrigClOrdID(origClOrdId), new ClOrdID(clOrdId),
                new Side(Side.BUY), now());
        cancel.set(new Symbol(SYMBOL));
        cancel.set(new OrderQty(quantity));
        return cancel;
    }

    static TransactTime now() {
        return new TransactTime(LocalDateTime.now(ZoneOffset.UTC));
    }

    /** @return a replace of the buy order {@code origClOrdId}: a DAY limit order at the new quantity and price */
    static OrderCancelReplaceRequest replaceBuy(final String clOrdId, final String origClOrdId, final int quantity,
                                                final double price) {
        final OrderCancelReplaceRequest replace = new OrderCancelReplaceRequest(new OrigClOrdID(origClOrdId),
                new ClOrdID(clOrdId), new Side(Side.BUY), now(), new OrdType(OrdType.LIMIT));
        replace.set(new Symbol(SYMBOL));
        replace.set(new OrderQty(quantity));
        replace.set(new Price(price));
        replace.set(new TimeInForce(TimeInForce.DAY));
        replace.set(new Account("ACC1"));
        return replace;
    }
}
