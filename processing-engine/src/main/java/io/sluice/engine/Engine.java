package io.sluice.engine;

import io.sluice.contracts.AdminAction;
import io.sluice.contracts.AdminCommand;
import io.sluice.contracts.AdminOutcome;
import io.sluice.contracts.AdminRefusal;
import io.sluice.contracts.BookEffect;
import io.sluice.contracts.CancelOrder;
import io.sluice.contracts.CancelReject;
import io.sluice.contracts.CxlRejResponseTo;
import io.sluice.contracts.EngineToGateway;
import io.sluice.contracts.ExecType;
import io.sluice.contracts.ExecutionReport;
import io.sluice.contracts.FirmLimit;
import io.sluice.contracts.KillSwitch;
import io.sluice.contracts.MassCancel;
import io.sluice.contracts.MassCancelReport;
import io.sluice.contracts.MassCancelScope;
import io.sluice.contracts.MetaData;
import io.sluice.contracts.NewOrder;
import io.sluice.contracts.OrdStatus;
import io.sluice.contracts.OrdType;
import io.sluice.contracts.OrderCommand;
import io.sluice.contracts.PrimaryLease;
import io.sluice.contracts.PublicIds;
import io.sluice.contracts.RejectReason;
import io.sluice.contracts.ReplaceOrder;
import io.sluice.contracts.Side;
import io.sluice.contracts.SnapshotFirm;
import io.sluice.contracts.SnapshotFirmPosition;
import io.sluice.contracts.SnapshotOrder;
import io.sluice.contracts.SnapshotSessionKillSwitch;
import io.sluice.contracts.TimeInForce;
import io.sluice.contracts.TradingHalt;
import io.sluice.contracts.TradingSession;
import io.sluice.engine.book.BookSide;
import io.sluice.engine.book.CompletedOrders;
import io.sluice.engine.book.Order;
import io.sluice.engine.book.OrderBook;
import io.sluice.engine.book.OrderIndex;
import io.sluice.engine.book.OrderPool;
import io.sluice.engine.book.PriceLevel;
import io.sluice.engine.config.EngineConfig;
import io.sluice.engine.config.FirmLimitsConfig;
import io.sluice.engine.config.InstrumentConfig;
import io.sluice.engine.risk.FirmExposure;
import io.sluice.engine.risk.FirmKillSwitch;
import io.sluice.engine.risk.FirmRisk;
import io.sluice.engine.risk.SessionKillSwitches;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * The processing engine's logic: a pure, single-threaded function from commands to reports. It validates
 * each command, matches orders in per-instrument books with strict price-time priority, and writes every
 * resulting report to its {@link EngineToGateway} output, synchronously, before the call returns. Its inputs
 * ({@link EngineInput}) are the gateways' commands and the operators' admin commands (the admin journal, source 0).
 *
 * <h2>Determinism</h2>
 * No clock, no randomness, no hash-order iteration: the same commands in the same order give the same
 * reports, byte for byte. OrderIDs and ExecIDs are counters starting at 1, each permuted with the config's
 * {@code idKey} ({@link PublicIds}), so that no id tells a firm the venue's volume. Each report's MetaData is a
 * copy of the input's, so every input's {@code sourceId}/{@code eventId} appears on at least one report:
 * that is how the consumption order is recovered (see {@code recovery.RecordedInputs}).
 *
 * <h2>Sessions and firms</h2>
 * A session is named by the gateway it is on (the input's {@code sourceId}) and the client's SenderCompID
 * together: the same CompID configured on two gateways is two sessions, which never see each other's orders.
 * A session may belong to a firm (an order command's {@code firm}, 0 for none), which widens self-match prevention
 * and, with firm limits, is what the limits hold. So:
 * <ul>
 * <li>ClOrdID uniqueness is per session (FIX's rule): open and remembered orders of the same session only.</li>
 * <li>Cancel and cancel/replace find orders of the requesting session only.</li>
 * <li>Self-match prevention is per session, or per firm between orders that carry the same non-zero firm.</li>
 * </ul>
 *
 * <h2>Rules</h2>
 * <ul>
 * <li>A new order is validated (the kill switch, symbol, the instrument's trading session and halt, side, type,
 *     time in force, quantity, price, band, limits, then a duplicate ClOrdID among the session's open and
 *     remembered orders); a failure is one execution report with ExecType=REJECTED, OrderID 0 and the reason. An
 *     accepted order is reported NEW, then trades.</li>
 * <li>Trades happen at the resting order's price; each fill is reported to the aggressor, then to the
 *     resting order's owner. What is left of an order then rests (limit, DAY or GTC) or is canceled: IOC
 *     remainders, market orders out of liquidity ({@code NO_LIQUIDITY}), FOK orders that cannot fill in
 *     full ({@code FOK_NOT_FILLABLE}, canceled before any trade).</li>
 * <li>Self-match prevention, "cancel the aggressor": an aggressor that reaches a resting order of its own
 *     session or firm stops there; fills already made stand and the rest of the aggressor is canceled with
 *     {@code SELF_MATCH_PREVENTED}. The resting order is untouched. FOK counts only liquidity in front of
 *     the first such order.</li>
 * <li>Cancel and cancel/replace name the order by (gateway, session, OrigClOrdID): a session only ever finds
 *     its own orders. Unknown (or someone else's) orders get a cancel reject {@code UNKNOWN_ORDER}; orders already
 *     filled, canceled or expired get {@code ORDER_ALREADY_DONE}. A replace is refused while the kill switch is
 *     on or the instrument is closed or halted; it keeps the symbol and side, stays a DAY or GTC limit order, may
 *     not go below CumQty; it keeps time priority only if the price is unchanged and the
 *     quantity does not grow, otherwise it goes to the back and, at a new price, may trade at once. It keeps
 *     its owner, firm included.</li>
 * <li>A mass cancel (35=q, or cancel-on-disconnect) takes the requesting session's resting orders only, of one
 *     instrument (SECURITY) or all (ALL), optionally of one side: books in config order, bids then asks, each in price
 *     then time priority, each reported CANCELED to its owner with its own ClOrdID (fills stand); then one
 *     MassCancelReport with the request's ClOrdID, an OrderID of the engine's (from the OrderID counter) and the
 *     count. An unknown instrument is refused ({@code UNKNOWN_SYMBOL}) and cancels nothing.</li>
 * <li>Admin commands: CANCEL_SESSION, CANCEL_INSTRUMENT and CANCEL_ALL cancel resting orders (whoever owns them,
 *     in the mass cancel's order), KILL_SWITCH_ON cancels every resting order and rejects every new order and
 *     replace ({@code KILL_SWITCH_ON}) until KILL_SWITCH_OFF; HALT rejects an instrument's new orders and replaces
 *     ({@code INSTRUMENT_HALTED}) until RESUME, resting orders staying; the shipper's LEASE_LAPSED rejects every new
 *     order and replace ({@code LEASE_LAPSED}) until LEASE_REGAINED, and its FENCED for good ({@code PRIMARY_FENCED}),
 *     resting orders staying; CLOSE_TRADING (one instrument, or all) rejects
 *     them ({@code OUTSIDE_TRADING_SESSION}) until OPEN_TRADING and expires every resting DAY order there (ExecType
 *     and OrdStatus EXPIRED), GTC orders resting on. Cancels and mass cancels are always taken. Each admin command
 *     is answered by exactly one AdminOutcome, after the reports it caused: ACKNOWLEDGED with the orders it
 *     canceled or expired, REFUSED with why (unknown instrument, already in that state, a field missing), or
 *     PASSED_TO_GATEWAY for a gateway's action. Instruments start in {@code EngineConfig.tradingSessionAtStart()}.</li>
 * <li>Firm limits (with a {@code risk} section, {@link FirmRisk}): after the instrument's rules a new order or replace is
 *     held to its firm's limits (a session without a firm is its own firm); over one, it is rejected naming the limit,
 *     the report carrying the limit's value. A session's or a firm's own kill switch (admin commands, or a firm's
 *     limit rejects in one second of journal time) cancels its resting orders and rejects its new ones until off.</li>
 * <li>Reports go to the gateway and session that own the order; rejects of requests go to the requester
 *     (the gateway and session the request came from). Every request gets at least one report.</li>
 * </ul>
 * Completed orders are remembered for {@code completedOrderMemory} completions; older ClOrdIDs are
 * forgotten and may be reused. All memory is allocated in the constructor: zero allocation per command.
 */
public final class Engine implements EngineInput {
    private final EngineToGateway output;
    private final Long2ObjectHashMap<Instrument> instruments = new Long2ObjectHashMap<>();
    /** The instruments in config order, for sweeps and snapshots: the map above is for lookups and is never iterated. */
    private final Instrument[] inConfigOrder;
    private final OrderBook[] books;
    private final OrderPool pool;
    private final OrderIndex index;
    private final CompletedOrders completed;
    private final int maxOpenOrders;
    private final ExecutionReport report = new ExecutionReport();
    private final CancelReject cancelReject = new CancelReject();
    private final MassCancelReport massCancelReport = new MassCancelReport();
    private final OrderSweep sweep = new OrderSweep();
    private final AdminOutcome outcome = new AdminOutcome();
    private KillSwitch killSwitch = KillSwitch.OFF;
    private PrimaryLease primaryLease = PrimaryLease.HELD;
    private final SessionKillSwitches sessionKillSwitches = new SessionKillSwitches();
    /** The firms' limits and exposure; null when the config has no risk section (no firm limits, no firm state). */
    private final FirmRisk risk;
    private final PublicIds ids;
    private int openOrders;
    private long lastOrderId;
    private long lastExecId;
    private MetaData cause;

    public Engine(final EngineConfig config, final EngineToGateway output) {
        this.output = output;
        this.ids = config.publicIds();
        books = new OrderBook[config.instruments().size()];
        inConfigOrder = new Instrument[books.length];
        for (final InstrumentConfig instrument : config.instruments()) {
            final Instrument runtime = new Instrument(instrument, instruments.size(), config.maxPriceLevels(),
                    config.tradingSessionAtStart());
            instruments.put(instrument.symbol(), runtime);
            inConfigOrder[instruments.size() - 1] = runtime;
            books[instruments.size() - 1] = runtime.book();
        }
        maxOpenOrders = config.maxOpenOrders();
        // One spare: a replace takes its successor before the original joins the completed orders.
        final int orders = config.maxOpenOrders() + config.completedOrderMemory() + 1;
        pool = new OrderPool(orders);
        index = new OrderIndex(orders);
        completed = new CompletedOrders(config.completedOrderMemory(), index, pool);
        risk = config.risk() == null ? null : new FirmRisk(config.risk(), books.length);
    }

    @Override
    public void newOrder(final NewOrder command) {
        cause = command.metaData();
        final Instrument instrument = instruments.get(command.symbol());
        RejectReason reason = primaryLease != PrimaryLease.HELD ? leaseReject()
                : killSwitch == KillSwitch.ON ? RejectReason.KILL_SWITCH_ON
                : sessionKillSwitches.isOn(cause.sourceId(), command.session()) ? RejectReason.SESSION_KILL_SWITCH_ON
                : instrument == null ? RejectReason.UNKNOWN_SYMBOL : instrument.admission();
        if (reason == RejectReason.NONE) {
            reason = instrument.check(command);
        }
        FirmExposure firm = null;
        long second = 0;
        long riskPrice = 0;
        if (risk != null && reason == RejectReason.NONE) {
            firm = risk.exposureOf(FirmRisk.firmOf(command.firm(), command.session()));
            second = FirmRisk.second(cause.commandWriting());
            riskPrice = instrument.riskPrice(command.ordType(), command.price());
            reason = firm == null ? RejectReason.FIRM_CAPACITY_REACHED : risk.checkNew(firm, instrument.index(),
                    command.side(), command.orderQty(), riskPrice, command.ordType() == OrdType.LIMIT ? command.price() : 0,
                    collarReference(firm, instrument), second);
        }
        if (reason == RejectReason.NONE && index.get(cause.sourceId(), command.session(), command.clOrdId()) != null) {
            reason = RejectReason.DUPLICATE_CL_ORD_ID;
        }
        if (reason == RejectReason.NONE && openOrders == maxOpenOrders) {
            reason = RejectReason.ENGINE_CAPACITY_REACHED;
        }
        if (reason != RejectReason.NONE) {
            rejectOrder(command, reason, firm == null ? 0 : limitValue(firm, reason));
            if (firm != null) {
                countReject(firm, reason, second);
            }
            return;
        }
        final Order order = pool.take().accept(ids.orderId(++lastOrderId), cause.sourceId(), command);
        index.put(order);
        openOrders++;
        // The order takes its firm slot once it has matched: its fills and its close (if it does not rest) are not
        // counted one by one, its firm is updated once below with what they add up to.
        final OrderBook book = instrument.book();
        if (order.timeInForce() == TimeInForce.FILL_OR_KILL && !book.canFillInFull(order)) {
            execution(order, ExecType.NEW, order.clOrdId(), 0, 0, 0, RejectReason.NONE, BookEffect.NONE);
            cancelRemainder(order, RejectReason.FOK_NOT_FILLABLE);
        } else {
            final AggressorStep first = AggressorStep.of(book, order);
            execution(order, ExecType.NEW, order.clOrdId(), 0, 0, 0, RejectReason.NONE, first.effectOnAggressor());
            trade(instrument, order, first);
        }
        if (firm != null) {
            order.firmSlot(firm.slot(), instrument.index());
            risk.onNewOrder(firm, instrument.index(), order.side(), order.cumQty(), order.leavesQty(), riskPrice, second);
        }
    }

    @Override
    public void cancelOrder(final CancelOrder command) {
        cause = command.metaData();
        final Order order = index.get(cause.sourceId(), command.session(), command.origClOrdId());
        if (order == null || order.isCompleted()) {
            rejectCancel(command.session(), command.firm(), command.clOrdId(), command.origClOrdId(),
                    CxlRejResponseTo.ORDER_CANCEL_REQUEST, order, command.onBehalfOfCompId(), command.deliverToCompId());
            return;
        }
        bookOf(order).sideOf(order).remove(order);
        order.ordStatus(OrdStatus.CANCELED);
        order.route(command.onBehalfOfCompId(), command.deliverToCompId());
        execution(order, ExecType.CANCELED, command.clOrdId(), order.clOrdId(), 0, 0, RejectReason.NONE,
                BookEffect.REMOVED);
        complete(order);
    }

    @Override
    public void replaceOrder(final ReplaceOrder command) {
        cause = command.metaData();
        final Order original = index.get(cause.sourceId(), command.session(), command.origClOrdId());
        if (original == null || original.isCompleted()) {
            rejectCancel(command.session(), command.firm(), command.clOrdId(), command.origClOrdId(),
                    CxlRejResponseTo.ORDER_CANCEL_REPLACE_REQUEST, original, command.onBehalfOfCompId(),
                    command.deliverToCompId());
            return;
        }
        final Instrument instrument = instruments.get(original.symbol());
        final FirmExposure firm = risk == null || original.firmSlot() < 0 ? null : risk.inSlot(original.firmSlot());
        final long oldLeaves = original.leavesQty();
        final long second = firm == null ? 0 : FirmRisk.second(cause.commandWriting());
        final long oldRiskPrice = firm == null ? 0 : instrument.riskPrice(original.ordType(), original.price());
        RejectReason reason = checkReplace(original, command);
        if (reason == RejectReason.NONE && firm != null) {
            reason = risk.checkReplace(firm, instrument.index(), original.side(), oldLeaves, oldRiskPrice, command.orderQty(),
                    command.orderQty() - original.cumQty(), command.price(), collarReference(firm, instrument), second);
        }
        if (reason != RejectReason.NONE) {
            sendCancelReject(command.session(), command.firm(), command.clOrdId(), command.origClOrdId(),
                    CxlRejResponseTo.ORDER_CANCEL_REPLACE_REQUEST, reason, original.ordStatus(), original.orderId(),
                    command.onBehalfOfCompId(), command.deliverToCompId(), firm == null ? 0 : limitValue(firm, reason));
            if (firm != null) {
                countReject(firm, reason, second);
            }
            return;
        }
        final OrderBook book = instrument.book();
        final BookSide side = book.sideOf(original);
        final Order successor = pool.take().succeed(original, command);
        final boolean keepsPriority = successor.price() == original.price()
                && successor.orderQty() <= original.orderQty() && successor.leavesQty() > 0;
        if (keepsPriority) {
            side.replaceInPlace(original, successor);
        } else {
            side.remove(original);
        }
        original.ordStatus(OrdStatus.REPLACED);
        index.put(successor);
        if (firm != null) {
            risk.onReplaced(firm, instrument.index(), original.side(), oldLeaves, oldRiskPrice, successor.leavesQty(),
                    successor.price(), second);
        }
        // Kept in place, it stays; else the original left the book, and the successor rests again at once (requeued)
        // unless it is done (replaced down to its CumQty) or crosses the other side first.
        final AggressorStep first = keepsPriority || successor.leavesQty() == 0 ? AggressorStep.FILLED
                : AggressorStep.of(book, successor);
        final BookEffect effect = keepsPriority ? BookEffect.UPDATED
                : first == AggressorStep.REST ? BookEffect.REQUEUED : BookEffect.REMOVED;
        execution(successor, ExecType.REPLACED, successor.clOrdId(), original.clOrdId(), 0, 0, RejectReason.NONE, effect);
        completed.add(original);
        if (successor.leavesQty() == 0) {
            complete(successor);
        } else if (!keepsPriority) {
            trade(instrument, successor, first);
        }
    }

    @Override
    public void massCancel(final MassCancel command) {
        cause = command.metaData();
        final MassCancelReport r = massCancelReport;
        r.metaData().copyFrom(cause);
        r.gatewayId(cause.sourceId()).session(command.session()).firm(command.firm()).orderId(ids.orderId(++lastOrderId))
                .clOrdId(command.clOrdId())
                .origClOrdId(0).ordStatus(null).rejectReason(RejectReason.NONE)
                .routing(command.onBehalfOfCompId(), command.deliverToCompId()).limitValue(0);
        r.scope(command.scope()).symbol(command.symbol()).side(command.side()).cause(command.cause()).affectedOrders(0);
        sweep.ofSession(cause.sourceId(), command.session()).side(command.side());
        if (command.scope() == MassCancelScope.ALL) {
            r.affectedOrders(sweepAll(ExecType.CANCELED, RejectReason.NONE));
        } else {
            // Anything but ALL names one instrument (SECURITY): a missing or unknown one is refused.
            final Instrument instrument = instruments.get(command.symbol());
            if (instrument == null) {
                r.rejectReason(RejectReason.UNKNOWN_SYMBOL);
            } else {
                r.affectedOrders(sweepBook(instrument.book(), ExecType.CANCELED, RejectReason.NONE));
            }
        }
        output.massCancelReport(r);
    }

    /**
     * Carries out an operator's command from the admin journal and answers it with exactly one {@link AdminOutcome},
     * after the execution reports of the orders it canceled or expired. Commands for a gateway (disconnect, set
     * sequence) are answered PASSED_TO_GATEWAY.
     */
    @Override
    public void adminCommand(final AdminCommand command) {
        cause = command.metaData();
        final AdminOutcome o = outcome.answering(command);
        final AdminAction action = command.action();
        if (action == null) {
            o.refused(AdminRefusal.MALFORMED_COMMAND);
        } else if (action.actor() == AdminAction.Actor.GATEWAY) {
            o.passedToGateway();
        } else {
            switch (action) {
                case CANCEL_SESSION -> cancelSession(command, o);
                case CANCEL_INSTRUMENT -> cancelInstrument(command, o);
                case CANCEL_ALL -> cancelAll(o);
                case KILL_SWITCH_ON -> killSwitchOn(o);
                case KILL_SWITCH_OFF -> killSwitchOff(o);
                case HALT, RESUME -> haltOrResume(command, o, action == AdminAction.HALT ? TradingHalt.HALTED
                        : TradingHalt.NOT_HALTED);
                case OPEN_TRADING -> openOrClose(command, o, TradingSession.OPEN);
                case CLOSE_TRADING -> openOrClose(command, o, TradingSession.CLOSED);
                case FIRM_KILL_SWITCH_ON, FIRM_KILL_SWITCH_OFF -> firmKillSwitch(command, o,
                        action == AdminAction.FIRM_KILL_SWITCH_ON);
                case SESSION_KILL_SWITCH_ON -> sessionKillSwitchOn(command, o);
                case SESSION_KILL_SWITCH_OFF -> sessionKillSwitchOff(command, o);
                case SET_FIRM_LIMIT -> setFirmLimit(command, o);
                case LEASE_LAPSED, LEASE_REGAINED, FENCED -> primaryLease(action, o);
                default -> o.passedToGateway(); // unreachable: every ENGINE action is above
            }
        }
        output.adminOutcome(o);
    }

    private void cancelSession(final AdminCommand command, final AdminOutcome o) {
        if (command.gatewayId() <= 0 || command.session() == 0) {
            o.refused(AdminRefusal.MALFORMED_COMMAND);
        } else {
            sweep.ofSession(command.gatewayId(), command.session());
            o.acknowledged(sweepAll(ExecType.CANCELED, RejectReason.NONE));
        }
    }

    private void cancelAll(final AdminOutcome o) {
        sweep.ofAnyone();
        o.acknowledged(sweepAll(ExecType.CANCELED, RejectReason.NONE));
    }

    private void cancelInstrument(final AdminCommand command, final AdminOutcome o) {
        final Instrument instrument = namedInstrument(command, o);
        if (instrument != null) {
            sweep.ofAnyone();
            o.acknowledged(sweepBook(instrument.book(), ExecType.CANCELED, RejectReason.NONE));
        }
    }

    private void killSwitchOn(final AdminOutcome o) {
        if (killSwitch == KillSwitch.ON) {
            o.refused(AdminRefusal.KILL_SWITCH_ALREADY_ON);
            return;
        }
        killSwitch = KillSwitch.ON;
        sweep.ofAnyone();
        o.acknowledged(sweepAll(ExecType.CANCELED, RejectReason.KILL_SWITCH_ON));
    }

    private void killSwitchOff(final AdminOutcome o) {
        if (killSwitch == KillSwitch.OFF) {
            o.refused(AdminRefusal.KILL_SWITCH_ALREADY_OFF);
            return;
        }
        killSwitch = KillSwitch.OFF;
        o.acknowledged(0);
    }

    /**
     * Moves the primary's lease as its shipper says: lapsed and regained in turn, fenced for good. Nothing is canceled:
     * resting orders stay, and the new primary holds them too.
     */
    private void primaryLease(final AdminAction action, final AdminOutcome o) {
        if (primaryLease == PrimaryLease.FENCED) {
            o.refused(AdminRefusal.PRIMARY_FENCED);
            return;
        }
        final PrimaryLease wanted = action == AdminAction.LEASE_LAPSED ? PrimaryLease.LAPSED
                : action == AdminAction.FENCED ? PrimaryLease.FENCED : PrimaryLease.HELD;
        if (primaryLease == wanted) {
            o.refused(wanted == PrimaryLease.LAPSED ? AdminRefusal.LEASE_ALREADY_LAPSED : AdminRefusal.LEASE_HELD);
            return;
        }
        primaryLease = wanted;
        o.acknowledged(0);
    }

    /** @return why a primary whose lease is not held rejects an order or replace */
    private RejectReason leaseReject() {
        return primaryLease == PrimaryLease.FENCED ? RejectReason.PRIMARY_FENCED : RejectReason.LEASE_LAPSED;
    }

    /** Turns one firm's kill switch on (canceling its resting orders, on every session and gateway) or off. */
    private void firmKillSwitch(final AdminCommand command, final AdminOutcome o, final boolean on) {
        final FirmExposure firm = namedFirm(command, o);
        if (firm == null) {
            return;
        }
        if (on == (firm.killSwitch() != FirmKillSwitch.OFF)) {
            o.refused(on ? AdminRefusal.FIRM_KILL_SWITCH_ALREADY_ON : AdminRefusal.FIRM_KILL_SWITCH_ALREADY_OFF);
            return;
        }
        risk.killSwitch(firm, on ? FirmKillSwitch.ON : FirmKillSwitch.OFF);
        if (on) {
            sweep.ofFirm(firm.slot());
            o.acknowledged(sweepAll(ExecType.CANCELED, RejectReason.FIRM_KILL_SWITCH_ON));
        } else {
            o.acknowledged(0);
        }
    }

    private void sessionKillSwitchOn(final AdminCommand command, final AdminOutcome o) {
        if (command.gatewayId() <= 0 || command.session() == 0) {
            o.refused(AdminRefusal.MALFORMED_COMMAND);
        } else if (!sessionKillSwitches.turnOn(command.gatewayId(), command.session())) {
            o.refused(sessionKillSwitches.isFull() ? AdminRefusal.TOO_MANY_SESSION_KILL_SWITCHES
                    : AdminRefusal.SESSION_KILL_SWITCH_ALREADY_ON);
        } else {
            sweep.ofSession(command.gatewayId(), command.session());
            o.acknowledged(sweepAll(ExecType.CANCELED, RejectReason.SESSION_KILL_SWITCH_ON));
        }
    }

    private void sessionKillSwitchOff(final AdminCommand command, final AdminOutcome o) {
        if (command.gatewayId() <= 0 || command.session() == 0) {
            o.refused(AdminRefusal.MALFORMED_COMMAND);
        } else if (!sessionKillSwitches.turnOff(command.gatewayId(), command.session())) {
            o.refused(AdminRefusal.SESSION_KILL_SWITCH_ALREADY_OFF);
        } else {
            o.acknowledged(0);
        }
    }

    /** Sets one limit of one firm; what is open already stays, and only later requests are held to the new value. */
    private void setFirmLimit(final AdminCommand command, final AdminOutcome o) {
        if (command.limit() == null) {
            o.refused(risk == null ? AdminRefusal.NO_FIRM_LIMITS : AdminRefusal.MALFORMED_COMMAND);
            return;
        }
        final FirmExposure firm = namedFirm(command, o);
        if (firm == null) {
            return;
        }
        if (!FirmLimitsConfig.isAllowed(command.limit(), command.limitValue())) {
            o.refused(AdminRefusal.BAD_LIMIT_VALUE);
            return;
        }
        risk.limit(firm, command.limit(), command.limitValue());
        o.acknowledged(0);
    }

    /** @return the firm {@code command} names, or null, having refused {@code o} (no firm limits, none named, unknown) */
    private FirmExposure namedFirm(final AdminCommand command, final AdminOutcome o) {
        if (risk == null) {
            o.refused(AdminRefusal.NO_FIRM_LIMITS);
            return null;
        }
        if (command.firm() == 0) {
            o.refused(AdminRefusal.MALFORMED_COMMAND);
            return null;
        }
        final FirmExposure firm = risk.find(command.firm());
        if (firm == null) {
            o.refused(AdminRefusal.UNKNOWN_FIRM);
        }
        return firm;
    }

    private void haltOrResume(final AdminCommand command, final AdminOutcome o, final TradingHalt wanted) {
        final Instrument instrument = namedInstrument(command, o);
        if (instrument == null) {
            return;
        }
        if (instrument.halt() == wanted) {
            o.refused(wanted == TradingHalt.HALTED ? AdminRefusal.ALREADY_HALTED : AdminRefusal.NOT_HALTED);
            return;
        }
        instrument.halt(wanted);
        o.acknowledged(0);
    }

    /**
     * Opens or closes the trading session of the named instrument, or of every one (symbol 0): refused if it is (all
     * are) in that state already. A close expires the resting DAY orders of each instrument it closes; the outcome
     * counts them.
     */
    private void openOrClose(final AdminCommand command, final AdminOutcome o, final TradingSession wanted) {
        final AdminRefusal already = wanted == TradingSession.OPEN ? AdminRefusal.TRADING_ALREADY_OPEN
                : AdminRefusal.TRADING_ALREADY_CLOSED;
        if (command.symbol() != 0) {
            final Instrument instrument = namedInstrument(command, o);
            if (instrument == null) {
                return;
            }
            if (instrument.session() == wanted) {
                o.refused(already);
            } else {
                o.acknowledged(changeSession(instrument, wanted));
            }
            return;
        }
        long expired = 0;
        int changed = 0;
        for (final Instrument instrument : inConfigOrder) {
            if (instrument.session() != wanted) {
                expired += changeSession(instrument, wanted);
                changed++;
            }
        }
        if (changed == 0) {
            o.refused(already);
        } else {
            o.acknowledged(expired);
        }
    }

    /** @return how many DAY orders expired (at a close) */
    private long changeSession(final Instrument instrument, final TradingSession wanted) {
        instrument.session(wanted);
        if (wanted == TradingSession.OPEN) {
            return 0;
        }
        sweep.ofAnyone().timeInForce(TimeInForce.DAY);
        return sweepBook(instrument.book(), ExecType.EXPIRED, RejectReason.NONE);
    }

    /** @return the instrument {@code command} names, or null, having refused {@code o} (none named, or unknown) */
    private Instrument namedInstrument(final AdminCommand command, final AdminOutcome o) {
        if (command.symbol() == 0) {
            o.refused(AdminRefusal.MALFORMED_COMMAND);
            return null;
        }
        final Instrument instrument = instruments.get(command.symbol());
        if (instrument == null) {
            o.refused(AdminRefusal.UNKNOWN_INSTRUMENT);
        }
        return instrument;
    }

    /** @return whether the kill switch is on */
    public KillSwitch killSwitch() {
        return killSwitch;
    }

    /** @return whether this primary's lease is held, lapsed or fenced, as its shipper last said */
    public PrimaryLease primaryLease() {
        return primaryLease;
    }

    /** @return the firms' limits and exposure, or null if the config has no risk section */
    public FirmRisk risk() {
        return risk;
    }

    /** @return the trading session of the {@code i}-th instrument of the config */
    public TradingSession tradingSession(final int i) {
        return inConfigOrder[i].session();
    }

    /** @return the price of the last trade in the {@code i}-th instrument of the config, 0 if it had none */
    public long lastTradePrice(final int i) {
        return inConfigOrder[i].lastTradePrice();
    }

    /** @return whether the {@code i}-th instrument of the config is halted */
    public TradingHalt tradingHalt(final int i) {
        return inConfigOrder[i].halt();
    }

    /** @return the symbol of the {@code i}-th instrument of the config */
    public long symbol(final int i) {
        return inConfigOrder[i].symbol();
    }

    /** @return how many orders rest in the books. */
    public int openOrders() {
        return openOrders;
    }

    /** @return how many OrderIDs were given: the counter behind them, from 1 ({@link PublicIds#orderId}). */
    public long lastOrderId() {
        return lastOrderId;
    }

    /** @return how many ExecIDs were given: the counter behind them, from 1 ({@link PublicIds#execId}). */
    public long lastExecId() {
        return lastExecId;
    }

    /** @return how many instruments (books) there are. */
    public int books() {
        return books.length;
    }

    /** @return the book of the {@code i}-th instrument of the config. */
    public OrderBook book(final int i) {
        return books[i];
    }

    /** @return the completed orders remembered, oldest first. */
    public CompletedOrders completedOrders() {
        return completed;
    }

    /**
     * Restoring a snapshot into this engine, which must be fresh (nothing processed yet), step one of three: the id
     * counters. Then {@link #restoreResting} every resting order in book priority, then {@link #restoreCompleted}
     * every remembered completed order, oldest first. Not for the hot path: it is how a restart or a replay starts
     * from a snapshot instead of from the first input.
     *
     * @throws IllegalStateException if this engine has processed anything already
     */
    public void restoreCounters(final long lastOrderId, final long lastExecId) {
        if (this.lastExecId != 0 || openOrders != 0 || completed.size() != 0) {
            throw new IllegalStateException("a snapshot can only be restored into a fresh engine");
        }
        this.lastOrderId = lastOrderId;
        this.lastExecId = lastExecId;
    }

    /**
     * Restoring a snapshot, after {@link #restoreCounters}: the kill switch.
     */
    public void restoreKillSwitch(final KillSwitch state) {
        killSwitch = state;
    }

    /**
     * Restoring a snapshot, after {@link #restoreCounters}: the primary's lease.
     */
    public void restorePrimaryLease(final PrimaryLease state) {
        primaryLease = state;
    }

    /**
     * Restoring a snapshot, after {@link #restoreCounters}: the trading session, halt and last trade price of instrument
     * {@code symbol}.
     *
     * @throws IllegalStateException if the instrument is not configured
     */
    public void restoreTradingState(final long symbol, final TradingSession session, final TradingHalt halt,
                                    final long lastTradePrice) {
        final Instrument instrument = instruments.get(symbol);
        if (instrument == null || session == null || halt == null) {
            throw new IllegalStateException("the trading state of an instrument not configured, or not readable");
        }
        instrument.session(session);
        instrument.halt(halt);
        instrument.traded(lastTradePrice);
    }

    /**
     * Appends a resting order from a snapshot behind those of its price level ({@link #restoreCounters}).
     *
     * @throws IllegalStateException if it cannot be where the snapshot says: an unknown instrument, no room
     */
    public void restoreResting(final SnapshotOrder snapshot) {
        final Instrument instrument = instruments.get(snapshot.symbol());
        if (instrument == null || openOrders == maxOpenOrders) {
            throw new IllegalStateException(instrument == null ? "a resting order of an instrument not configured"
                    : "more resting orders than maxOpenOrders");
        }
        final Order order = restore(snapshot);
        final BookSide side = instrument.book().sideOf(order);
        if (order.isCompleted() || !side.canRest(order.price()) || index.get(order.gatewayId(), order.session(), order.clOrdId()) != null) {
            throw new IllegalStateException("resting order " + order.orderId() + " cannot rest: completed, no price level"
                    + " left, or its ClOrdID taken");
        }
        index.put(order);
        side.rest(order);
        openOrders++;
    }

    /**
     * Remembers a completed order from a snapshot, after those before it ({@link #restoreCounters}).
     *
     * @throws IllegalStateException if it is not completed, or its ClOrdID is taken
     */
    public void restoreCompleted(final SnapshotOrder snapshot) {
        final Order order = restore(snapshot);
        if (!order.isCompleted() || index.get(order.gatewayId(), order.session(), order.clOrdId()) != null) {
            throw new IllegalStateException("completed order " + order.orderId() + " is not completed, or its ClOrdID taken");
        }
        index.put(order);
        completed.add(order);
    }

    /** An order from a snapshot; with firm limits it carries its firm's slot, as when it was accepted. */
    private Order restore(final SnapshotOrder s) {
        final Order order = pool.take().restore(s);
        if (risk != null) {
            final FirmExposure firm = risk.find(FirmRisk.firmOf(order.firm(), order.session()));
            if (firm == null) {
                throw new IllegalStateException("order " + order.orderId() + " belongs to a firm the snapshot does not hold");
            }
            order.firmSlot(firm.slot(), instruments.get(order.symbol()).index());
        }
        return order;
    }

    /**
     * Restoring a snapshot, before its orders: one firm's limits and exposure ({@link FirmRisk#restore}).
     *
     * @throws IllegalStateException if this engine has no firm limits, or the firm does not follow on
     */
    public void restoreFirm(final SnapshotFirm firm) {
        if (risk == null) {
            throw new IllegalStateException("the snapshot holds firms, this engine has no firm limits");
        }
        risk.restore(firm);
    }

    /**
     * Restoring a snapshot, after its firm: one firm's exposure in one instrument.
     *
     * @throws IllegalStateException if this engine has no firm limits, or the instrument is not configured
     */
    public void restoreFirmPosition(final SnapshotFirmPosition position) {
        final Instrument instrument = instruments.get(position.symbol());
        if (risk == null || instrument == null) {
            throw new IllegalStateException("a firm's position the engine cannot hold: no firm limits, or an instrument"
                    + " not configured");
        }
        risk.restorePosition(instrument.index(), position);
    }

    /**
     * Restoring a snapshot: a session whose kill switch is on.
     *
     * @throws IllegalStateException if there is no room for it, or it is there twice
     */
    public void restoreSessionKillSwitch(final SnapshotSessionKillSwitch session) {
        if (!sessionKillSwitches.turnOn(session.gatewayId(), session.session())) {
            throw new IllegalStateException("a session kill switch the engine cannot hold: twice, or more than "
                    + SessionKillSwitches.CAPACITY);
        }
    }

    /** @return the sessions whose own kill switch is on */
    public SessionKillSwitches sessionKillSwitches() {
        return sessionKillSwitches;
    }

    private RejectReason checkReplace(final Order original, final ReplaceOrder command) {
        if (primaryLease != PrimaryLease.HELD) {
            return leaseReject();
        }
        if (killSwitch == KillSwitch.ON) {
            return RejectReason.KILL_SWITCH_ON;
        }
        if (sessionKillSwitches.isOn(cause.sourceId(), command.session())) {
            return RejectReason.SESSION_KILL_SWITCH_ON;
        }
        final Instrument instrument = instruments.get(original.symbol());
        final RejectReason admission = instrument.admission();
        if (admission != RejectReason.NONE) {
            return admission;
        }
        if (command.symbol() != original.symbol() || command.side() != original.side()) {
            return RejectReason.REPLACE_CHANGES_SYMBOL_OR_SIDE;
        }
        if (command.ordType() != OrdType.LIMIT) {
            return RejectReason.UNSUPPORTED_ORD_TYPE;
        }
        if (!Instrument.rests(command.timeInForce())) {
            return RejectReason.UNSUPPORTED_TIME_IN_FORCE;
        }
        final RejectReason terms = instrument.check(command);
        if (terms != RejectReason.NONE) {
            return terms;
        }
        if (index.get(cause.sourceId(), command.session(), command.clOrdId()) != null) {
            return RejectReason.DUPLICATE_CL_ORD_ID;
        }
        if (command.orderQty() < original.cumQty()) {
            return RejectReason.REPLACE_QUANTITY_BELOW_FILLED;
        }
        return RejectReason.NONE;
    }

    /**
     * Matches {@code aggressor} against the opposite side, then rests or cancels what is left. {@code step} is what
     * happens to it first ({@link AggressorStep#of}); each step is decided before the report of the one before it is
     * written, so that the aggressor's last report says whether it comes to rest ({@link BookEffect#ADDED}).
     */
    private void trade(final Instrument instrument, final Order aggressor, final AggressorStep first) {
        final OrderBook book = instrument.book();
        final BookSide opposite = book.oppositeOf(aggressor);
        AggressorStep step = first;
        while (step == AggressorStep.TRADE) {
            final PriceLevel level = opposite.best();
            final Order resting = level.head();
            final long qty = Math.min(aggressor.leavesQty(), resting.leavesQty());
            final long price = level.price();
            aggressor.fill(qty, price);
            resting.fill(qty, price);
            instrument.traded(price);
            final boolean restingFilled = resting.leavesQty() == 0;
            if (risk != null) {
                fillExposure(instrument, aggressor, qty, false);
                fillExposure(instrument, resting, qty, restingFilled);
            }
            if (restingFilled) {
                opposite.remove(resting);
            }
            step = AggressorStep.of(book, aggressor);
            execution(aggressor, ExecType.TRADE, aggressor.clOrdId(), 0, qty, price, RejectReason.NONE,
                    step.effectOnAggressor());
            execution(resting, ExecType.TRADE, resting.clOrdId(), 0, qty, price, RejectReason.NONE,
                    restingFilled ? BookEffect.REMOVED : BookEffect.UPDATED);
            if (restingFilled) {
                retire(resting); // its firm counted its close with its last fill
            }
        }
        switch (step) {
            case FILLED -> complete(aggressor);
            case REST -> book.sideOf(aggressor).rest(aggressor);
            default -> cancelRemainder(aggressor, step.reason());
        }
    }

    /** Sweeps every book, in config order ({@link #sweepBook}). @return how many orders it took */
    private long sweepAll(final ExecType execType, final RejectReason reason) {
        long taken = 0;
        for (final OrderBook book : books) {
            taken += sweepBook(book, execType, reason);
        }
        return taken;
    }

    /**
     * Takes every resting order of {@code book} that {@link #sweep} takes out of the book, bids then asks, each side
     * in price then time priority, reporting each to its owner ({@code execType} CANCELED or EXPIRED, and
     * {@code reason}). @return how many it took
     */
    private long sweepBook(final OrderBook book, final ExecType execType, final RejectReason reason) {
        long taken = 0;
        if (sweep.coversSide(Side.BUY)) {
            taken += sweepSide(book.bids(), execType, reason);
        }
        if (sweep.coversSide(Side.SELL)) {
            taken += sweepSide(book.asks(), execType, reason);
        }
        return taken;
    }

    private long sweepSide(final BookSide side, final ExecType execType, final RejectReason reason) {
        final OrdStatus status = execType == ExecType.EXPIRED ? OrdStatus.EXPIRED : OrdStatus.CANCELED;
        long taken = 0;
        int depth = 0;
        for (PriceLevel level = side.level(0); level != null; level = side.level(depth)) {
            boolean emptied = true;
            for (Order order = level.head(); order != null; ) {
                final Order next = order.nextInLevel();
                if (sweep.takes(order)) {
                    side.remove(order); // the last one drops the level, and the next level moves to this depth
                    order.ordStatus(status);
                    execution(order, execType, order.clOrdId(), 0, 0, 0, reason, BookEffect.REMOVED);
                    complete(order);
                    taken++;
                } else {
                    emptied = false;
                }
                order = next;
            }
            if (!emptied) {
                depth++;
            }
        }
        return taken;
    }

    /** Cancels an order that is not resting (an aggressor's remainder), saying why. */
    private void cancelRemainder(final Order order, final RejectReason reason) {
        order.ordStatus(OrdStatus.CANCELED);
        execution(order, ExecType.CANCELED, order.clOrdId(), 0, 0, 0, reason, BookEffect.NONE);
        complete(order);
    }

    /** An open order has completed and left its book: it stops counting as open and is remembered. */
    private void complete(final Order order) {
        if (risk != null && order.firmSlot() >= 0) {
            final Instrument instrument = inConfigOrder[order.instrumentIndex()];
            // Its status is final already (leavesQty reads 0): what it leaves unfilled is OrderQty - CumQty.
            risk.onClosed(order.firmSlot(), instrument.index(), order.side(), order.orderQty() - order.cumQty(),
                    instrument.riskPrice(order.ordType(), order.price()));
        }
        retire(order);
    }

    /** As {@link #complete}, for an order whose firm already counted it closed, or that has no firm slot yet. */
    private void retire(final Order order) {
        openOrders--;
        completed.add(order);
    }

    /** @param last whether the fill completes the order: its firm then counts it closed too */
    private void fillExposure(final Instrument instrument, final Order order, final long qty, final boolean last) {
        if (order.firmSlot() >= 0) {
            risk.onFill(order.firmSlot(), instrument.index(), order.side(), qty,
                    instrument.riskPrice(order.ordType(), order.price()), last);
        }
    }

    /** @return the price collar's reference for {@code firm}'s order in {@code instrument}; 0 if it has no collar */
    private static long collarReference(final FirmExposure firm, final Instrument instrument) {
        return firm.limit(FirmLimit.PRICE_COLLAR) == FirmLimit.NONE ? 0 : instrument.referencePrice();
    }

    /** @return the value of the firm limit {@code reason} names, for the report; 0 if it names none */
    private static long limitValue(final FirmExposure firm, final RejectReason reason) {
        return reason.limit() == null ? 0 : firm.limit(reason.limit());
    }

    /**
     * Counts a refusal of {@code firm}'s request toward its {@code killOnRejectsPerSecond}; if that trips its kill switch,
     * every resting order of the firm is canceled, each report saying why ({@link RejectReason#FIRM_KILL_SWITCH_TRIPPED}).
     */
    private void countReject(final FirmExposure firm, final RejectReason reason, final long second) {
        if (risk.onReject(firm, reason, second)) {
            sweep.ofFirm(firm.slot());
            sweepAll(ExecType.CANCELED, RejectReason.FIRM_KILL_SWITCH_TRIPPED);
        }
    }

    private OrderBook bookOf(final Order order) {
        return instruments.get(order.symbol()).book();
    }

    private void execution(final Order order, final ExecType execType, final long clOrdId, final long origClOrdId,
                           final long lastQty, final long lastPx, final RejectReason reason, final BookEffect effect) {
        final ExecutionReport r = report;
        r.metaData().copyFrom(cause);
        r.gatewayId(order.gatewayId()).session(order.session()).firm(order.firm()).orderId(order.orderId()).clOrdId(clOrdId)
                .origClOrdId(origClOrdId).ordStatus(order.ordStatus()).rejectReason(reason)
                .routing(order.onBehalfOfCompId(), order.deliverToCompId())
                .limitValue(reason.limit() == null ? 0 : limitValue(risk.inSlot(order.firmSlot()), reason));
        r.execId(ids.execId(++lastExecId)).execType(execType).account(order.account()).symbol(order.symbol())
                .side(order.side()).ordType(order.ordType()).timeInForce(order.timeInForce())
                .orderQty(order.orderQty()).price(order.price()).lastQty(lastQty).lastPx(lastPx)
                .cumQty(order.cumQty()).leavesQty(order.leavesQty()).avgPx(order.avgPx()).bookEffect(effect);
        output.executionReport(r);
    }

    private void rejectOrder(final OrderCommand command, final RejectReason reason, final long limitValue) {
        final ExecutionReport r = report;
        r.metaData().copyFrom(cause);
        r.gatewayId(cause.sourceId()).session(command.session()).firm(command.firm()).orderId(0).clOrdId(command.clOrdId())
                .origClOrdId(0).ordStatus(OrdStatus.REJECTED).rejectReason(reason)
                .routing(command.onBehalfOfCompId(), command.deliverToCompId()).limitValue(limitValue);
        r.execId(ids.execId(++lastExecId)).execType(ExecType.REJECTED).account(command.account()).symbol(command.symbol())
                .side(command.side()).ordType(command.ordType()).timeInForce(command.timeInForce())
                .orderQty(command.orderQty()).price(command.price()).lastQty(0).lastPx(0)
                .cumQty(0).leavesQty(0).avgPx(0).bookEffect(BookEffect.NONE);
        output.executionReport(r);
    }

    /** Refuses a cancel or replace naming an order that is unknown to the session, or no longer open. */
    private void rejectCancel(final long session, final long firm, final long clOrdId, final long origClOrdId,
                              final CxlRejResponseTo responseTo, final Order order, final long onBehalfOfCompId,
                              final long deliverToCompId) {
        if (order == null) {
            sendCancelReject(session, firm, clOrdId, origClOrdId, responseTo, RejectReason.UNKNOWN_ORDER,
                    OrdStatus.REJECTED, 0, onBehalfOfCompId, deliverToCompId, 0);
        } else {
            // A replaced order's old ClOrdID no longer names an open order: unknown, not "done".
            final RejectReason reason = order.ordStatus() == OrdStatus.REPLACED
                    ? RejectReason.UNKNOWN_ORDER : RejectReason.ORDER_ALREADY_DONE;
            sendCancelReject(session, firm, clOrdId, origClOrdId, responseTo, reason, order.ordStatus(), order.orderId(),
                    onBehalfOfCompId, deliverToCompId, 0);
        }
    }

    private void sendCancelReject(final long session, final long firm, final long clOrdId, final long origClOrdId,
                                  final CxlRejResponseTo responseTo, final RejectReason reason,
                                  final OrdStatus ordStatus, final long orderId, final long onBehalfOfCompId,
                                  final long deliverToCompId, final long limitValue) {
        final CancelReject r = cancelReject;
        r.metaData().copyFrom(cause);
        r.responseTo(responseTo);
        r.gatewayId(cause.sourceId()).session(session).firm(firm).orderId(orderId).clOrdId(clOrdId).origClOrdId(origClOrdId)
                .ordStatus(ordStatus).rejectReason(reason).routing(onBehalfOfCompId, deliverToCompId)
                .limitValue(limitValue);
        output.cancelReject(r);
    }
}
