package io.sluice.gateway;

import io.sluice.contracts.AdminOutcome;
import io.sluice.contracts.CancelReject;
import io.sluice.contracts.Delivery;
import io.sluice.contracts.EngineToGateway;
import io.sluice.contracts.ExecType;
import io.sluice.contracts.ExecutionReport;
import io.sluice.contracts.FixCoded;
import io.sluice.contracts.MassCancelCause;
import io.sluice.contracts.MassCancelReport;
import io.sluice.contracts.RejectReason;
import io.sluice.contracts.Report;
import io.sluice.contracts.time.SluiceClock;
import io.sluice.gateway.codec.FixEncoder;
import io.sluice.gateway.codec.FixTags;
import io.sluice.gateway.codec.MsgTypes;
import io.sluice.gateway.session.FixAcceptor;
import io.sluice.gateway.session.FixConnection;
import io.sluice.gateway.session.FixSession;
import net.openhft.chronicle.queue.ExcerptTailer;

/**
 * Delivers the engine's reports that belong to this gateway: each becomes an ExecutionReport (35=8),
 * OrderCancelReject (35=9) or OrderMassCancelReport (35=r) on the session that owns the order, and nowhere else, routed back through the
 * OnBehalfOfCompID/DeliverToCompID the order or request came with (the engine carries them in its reports, so a
 * restarted gateway and an offline client's later resend get the same routing). The FIX message and the
 * engine-journal index of its report are stored in one journal excerpt before the bytes go out
 * ({@link FixSession#sendApplicationMessage}), so after a crash a report is either delivered (resendable) or
 * still ahead of the recovered tailer. One engine excerpt holds every report of one input (an ack and its fills),
 * so a gateway stopped part way through one starts again at that excerpt and passes over the reports of it that
 * it had already delivered. A report for an offline session is stored the same way and reaches the client
 * through the resend protocol when it logs on again.
 * <p>
 * Each ExecutionReport and OrderCancelReject of a firm also goes, as a copy, to the firm's drop-copy sessions on this
 * gateway ({@link DropCopies}), after the owner's message: numbered, stored and resent as any report of theirs, so an
 * offline drop copy gets what it missed through the resend protocol, and a restart passes over copies already sent as
 * it does reports.
 * <p>
 * For the latency tail, each report also gets a {@link Delivery} record (its MetaData with gatewayRead, stamped
 * as the report is read, and fixSent): held in {@link QueuedDeliveries} until the socket has taken the message
 * ({@link #onWritten}), then journaled; a report that was not queued on a connection at once is journaled
 * with fixSent 0.
 */
final class ReportDelivery implements EngineToGateway {
    private static final long TICKS_PER_MILLI = 10_000;
    /** Deliveries held for their socket write at most: beyond, the oldest are journaled untimed. */
    private static final int MAX_QUEUED_DELIVERIES = 1024;
    private static final byte[] NONE = {'N', 'O', 'N', 'E'};
    /** MassCancelResponse (531) 0: cancel request rejected. */
    private static final char MASS_CANCEL_REJECTED = '0';

    private final int gatewayId;
    private final FixAcceptor acceptor;
    private final DropCopies dropCopies;
    /** Who gets the report at hand, filled by {@link #recipients}: its owner, then its firm's drop copies. */
    private final FixSession[] recipients;
    private final JournalSessionStore store;
    private final ExcerptTailer engineTailer;
    private final Delivery delivery = new Delivery();
    /** Text (58) of a refusal, rebuilt for each: the reason's words, then the value of the firm limit it names. */
    private final StringBuilder rejectText = new StringBuilder(128);
    private final QueuedDeliveries queued = new QueuedDeliveries(MAX_QUEUED_DELIVERIES);
    private long alreadyDelivered;

    /**
     * @param engineTailer     the engine journal's tailer, at the first excerpt with reports to deliver
     * @param alreadyDelivered how many of this gateway's messages of that excerpt (reports and drop copies) were
     *                         delivered before a restart, and are passed over
     */
    ReportDelivery(final int gatewayId, final FixAcceptor acceptor, final DropCopies dropCopies,
                   final JournalSessionStore store, final ExcerptTailer engineTailer, final long alreadyDelivered) {
        this.gatewayId = gatewayId;
        this.acceptor = acceptor;
        this.dropCopies = dropCopies;
        this.recipients = new FixSession[1 + dropCopies.mostPerFirm()];
        this.store = store;
        this.engineTailer = engineTailer;
        this.alreadyDelivered = alreadyDelivered;
    }

    @Override
    public void executionReport(final ExecutionReport report) {
        final int count = recipients(report);
        if (count > 0) {
            final long gatewayRead = SluiceClock.nowTicks();
            for (int i = 0; i < count; i++) {
                executionReport(recipients[i], report, gatewayRead);
            }
        }
    }

    private void executionReport(final FixSession session, final ExecutionReport report, final long gatewayRead) {
        final FixEncoder encoder = session.startApplicationMessage(MsgTypes.EXECUTION_REPORT);
        route(encoder, report, session);
        orderIds(encoder, report);
        encoder.longField(FixTags.EXEC_ID, report.execId());
        code(encoder, FixTags.EXEC_TYPE, report.execType());
        code(encoder, FixTags.ORD_STATUS, report.ordStatus());
        if (report.account() != 0) {
            encoder.shortTextField(FixTags.ACCOUNT, report.account());
        }
        encoder.shortTextField(FixTags.SYMBOL, report.symbol());
        code(encoder, FixTags.SIDE, report.side());
        code(encoder, FixTags.ORD_TYPE, report.ordType());
        code(encoder, FixTags.TIME_IN_FORCE, report.timeInForce());
        encoder.longField(FixTags.ORDER_QTY, report.orderQty());
        if (report.price() != 0) {
            encoder.priceField(FixTags.PRICE, report.price());
        }
        encoder.longField(FixTags.LAST_QTY, report.lastQty())
                .priceField(FixTags.LAST_PX, report.lastPx())
                .longField(FixTags.LEAVES_QTY, report.leavesQty())
                .longField(FixTags.CUM_QTY, report.cumQty())
                .priceField(FixTags.AVG_PX, report.avgPx());
        transactTime(encoder, report);
        final RejectReason reason = report.rejectReason();
        if (report.execType() == ExecType.REJECTED) {
            encoder.longField(FixTags.ORD_REJ_REASON, reason.fixCode());
        }
        if (reason != RejectReason.NONE) {
            encoder.textField(FixTags.TEXT, rejectText(reason, report.limitValue()));
        }
        send(session, report, report.execId(), gatewayRead);
    }

    @Override
    public void cancelReject(final CancelReject reject) {
        final int count = recipients(reject);
        if (count > 0) {
            final long gatewayRead = SluiceClock.nowTicks();
            for (int i = 0; i < count; i++) {
                cancelReject(recipients[i], reject, gatewayRead);
            }
        }
    }

    private void cancelReject(final FixSession session, final CancelReject reject, final long gatewayRead) {
        final FixEncoder encoder = session.startApplicationMessage(MsgTypes.ORDER_CANCEL_REJECT);
        route(encoder, reject, session);
        orderIds(encoder, reject);
        code(encoder, FixTags.ORD_STATUS, reject.ordStatus());
        code(encoder, FixTags.CXL_REJ_RESPONSE_TO, reject.responseTo());
        transactTime(encoder, reject);
        encoder.longField(FixTags.CXL_REJ_REASON, reject.rejectReason().fixCode());
        if (reject.rejectReason() != RejectReason.NONE) {
            encoder.textField(FixTags.TEXT, rejectText(reject.rejectReason(), reject.limitValue()));
        }
        send(session, reject, 0, gatewayRead);
    }

    /**
     * OrderMassCancelReport (35=r), for a mass cancel the client asked for: OrderID (37) the engine's id for the
     * request, MassCancelRequestType (530), MassCancelResponse (531) echoing it, or 0 with MassCancelRejectReason (532)
     * and Text when refused, TotalAffectedOrders (533), and the Symbol and Side it was narrowed to. A report of the
     * gateway's own cancel-on-disconnect is for no client: it is passed over before {@link #owner}, so it is neither
     * sent nor counted, on either side of a restart, among the reports delivered from its excerpt (the individual
     * cancel reports before it are delivered as usual).
     */
    @Override
    public void massCancelReport(final MassCancelReport report) {
        if (report.cause() != MassCancelCause.CLIENT_REQUEST) {
            return;
        }
        final FixSession session = owner(report);
        if (session == null || passedOver()) {
            return;
        }
        final long gatewayRead = SluiceClock.nowTicks();
        final FixEncoder encoder = session.startApplicationMessage(MsgTypes.ORDER_MASS_CANCEL_REPORT);
        routeBack(encoder, report);
        orderIds(encoder, report);
        code(encoder, FixTags.MASS_CANCEL_REQUEST_TYPE, report.scope());
        final RejectReason reason = report.rejectReason();
        if (reason == RejectReason.NONE) {
            code(encoder, FixTags.MASS_CANCEL_RESPONSE, report.scope());
        } else {
            encoder.charField(FixTags.MASS_CANCEL_RESPONSE, MASS_CANCEL_REJECTED)
                    .longField(FixTags.MASS_CANCEL_REJECT_REASON, massCancelRejectReason(reason));
        }
        encoder.longField(FixTags.TOTAL_AFFECTED_ORDERS, report.affectedOrders());
        if (report.symbol() != 0) {
            encoder.shortTextField(FixTags.SYMBOL, report.symbol());
        }
        code(encoder, FixTags.SIDE, report.side());
        transactTime(encoder, report);
        if (reason != RejectReason.NONE) {
            encoder.textField(FixTags.TEXT, reason.text());
        }
        send(session, report, 0, gatewayRead);
    }

    /** @return Text (58) for {@code reason}: its words, and the value of the firm limit it names, if any */
    private CharSequence rejectText(final RejectReason reason, final long limitValue) {
        rejectText.setLength(0);
        reason.appendText(rejectText, limitValue);
        return rejectText;
    }

    /** @return MassCancelRejectReason (532): 1 "invalid or unknown security" for an unknown symbol, else 99 "other" */
    static int massCancelRejectReason(final RejectReason reason) {
        return reason == RejectReason.UNKNOWN_SYMBOL ? 1 : 99;
    }

    @Override
    public void adminOutcome(final AdminOutcome outcome) {
        // the engine's answer to an admin command: for ./sluice admin, not for a client
    }

    /** @return this gateway's session that owns {@code report}'s order, or null: another gateway's */
    private FixSession owner(final Report report) {
        return report.gatewayId() == gatewayId ? acceptor.session(report.session()) : null;
    }

    /**
     * Puts who gets {@code report} into {@link #recipients}: its owner on this gateway, then its firm's drop-copy
     * sessions, less the messages of them delivered before a restart; @return how many
     */
    private int recipients(final Report report) {
        int count = 0;
        final FixSession owner = owner(report);
        if (owner != null && !passedOver()) {
            recipients[count++] = owner;
        }
        for (final FixSession copy : dropCopies.of(report.firm())) {
            if (!passedOver()) {
                recipients[count++] = copy;
            }
        }
        return count;
    }

    /**
     * @return true if the next message of this excerpt was delivered before a restart, and is passed over: the
     *         owner's message of each report, then its copies, in the order they were first sent
     */
    private boolean passedOver() {
        if (alreadyDelivered > 0) {
            alreadyDelivered--;
            return true;
        }
        return false;
    }

    private void send(final FixSession session, final Report report, final long execId, final long gatewayRead) {
        final FixConnection connection = session.connection();
        final long end = session.sendApplicationMessage(engineTailer.index());
        delivery.metaData().copyFrom(report.metaData()).gatewayRead(gatewayRead).fixSent(0);
        delivery.session(session.id()).execId(execId);
        if (end == FixSession.NOT_QUEUED) {
            store.delivered(delivery);
        } else {
            queued.hold(delivery, connection, end, store);
        }
    }

    /**
     * A write to {@code connection}'s socket just returned, its outbound stream taken up to {@code writtenBytes}:
     * the deliveries whose message it completed are journaled with fixSent now.
     */
    void onWritten(final FixConnection connection, final long writtenBytes) {
        queued.onWritten(connection, writtenBytes, store);
    }

    /** {@code connection} was lost: what it held will never be written, so its deliveries are journaled untimed. */
    void onClosed(final FixConnection connection) {
        queued.onClosed(connection, store);
    }

    /**
     * The owner's report is routed back ({@link #routeBack}); a copy, on a session that is not the owner, says whose
     * report it is in DeliverToCompID (128): the SenderCompID of the session that owns the order (the client's own
     * routing stays with the client's report).
     */
    private void route(final FixEncoder encoder, final Report report, final FixSession session) {
        if (report.gatewayId() == gatewayId && session.id() == report.session()) {
            routeBack(encoder, report);
        } else {
            encoder.shortTextField(FixTags.DELIVER_TO_COMP_ID, report.session());
        }
    }

    /**
     * Routes a report back the way its order or request came, as {@code FixSession} does its own answers: the
     * client's OnBehalfOfCompID (115) becomes DeliverToCompID (128) and its DeliverToCompID becomes
     * OnBehalfOfCompID. Header fields, so written right after the header is started.
     */
    private static void routeBack(final FixEncoder encoder, final Report report) {
        if (report.onBehalfOfCompId() != 0) {
            encoder.shortTextField(FixTags.DELIVER_TO_COMP_ID, report.onBehalfOfCompId());
        }
        if (report.deliverToCompId() != 0) {
            encoder.shortTextField(FixTags.ON_BEHALF_OF_COMP_ID, report.deliverToCompId());
        }
    }

    private static void orderIds(final FixEncoder encoder, final Report report) {
        if (report.orderId() == 0) {
            encoder.field(FixTags.ORDER_ID, NONE);
        } else {
            encoder.longField(FixTags.ORDER_ID, report.orderId());
        }
        encoder.shortTextField(FixTags.CL_ORD_ID, report.clOrdId());
        if (report.origClOrdId() != 0) {
            encoder.shortTextField(FixTags.ORIG_CL_ORD_ID, report.origClOrdId());
        }
    }

    private static void transactTime(final FixEncoder encoder, final Report report) {
        final long written = report.metaData().reportWriting();
        if (written != 0) {
            encoder.timestampField(FixTags.TRANSACT_TIME, written / TICKS_PER_MILLI);
        }
    }

    private static void code(final FixEncoder encoder, final int tag, final FixCoded value) {
        if (value != null) {
            encoder.charField(tag, value.fixCode());
        }
    }
}
