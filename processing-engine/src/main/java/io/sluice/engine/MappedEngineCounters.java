package io.sluice.engine;

import io.sluice.contracts.AdminAction;
import io.sluice.contracts.AdminCommand;
import io.sluice.contracts.AdminOutcome;
import io.sluice.contracts.AdminResult;
import io.sluice.contracts.CancelOrder;
import io.sluice.contracts.CancelReject;
import io.sluice.contracts.ExecType;
import io.sluice.contracts.ExecutionReport;
import io.sluice.contracts.MassCancel;
import io.sluice.contracts.MassCancelReport;
import io.sluice.contracts.MetaData;
import io.sluice.contracts.NewOrder;
import io.sluice.contracts.RejectReason;
import io.sluice.contracts.ReplaceOrder;
import io.sluice.contracts.journal.Journals;
import io.sluice.engine.book.OrderBook;
import io.sluice.engine.config.EngineConfig;
import io.sluice.engine.config.InstrumentConfig;
import io.sluice.engine.risk.FirmCounters;
import io.sluice.engine.risk.FirmExposure;
import io.sluice.engine.risk.FirmRisk;
import io.sluice.runtime.counters.CounterLabel;
import io.sluice.runtime.counters.CountersFile;
import net.openhft.chronicle.wire.ShortTextLongConverter;
import org.agrona.collections.Int2IntHashMap;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * The engine's {@link EngineCounters} when they are on: its live counters, in its {@link CountersFile} ({@code
 * <root>/counters/engine.counters}): live
 * commands by type (mass cancels included), rejects by {@link RejectReason} (of orders and of cancels/replaces), fills,
 * orders expired at a close, admin commands by {@link AdminAction} and how many were refused, reports, resting orders
 * per instrument, each firm's limits and use ({@link FirmCounters}, with a risk section), the last eventId consumed
 * from each gateway journal (a gateway publishes the last it wrote: the
 * difference is the engine's lag behind it) and from the admin journal, and the engine thread's idle turns.
 * <p>
 * All counters are allocated here, at start; on the engine thread each update is one ordered or plain write into
 * the mapped file: no allocation, no lock, no system call. They count what this process did live, not the inputs its
 * recovery re-ran.
 */
final class MappedEngineCounters implements EngineCounters {
    /** How many turns that processed commands, at most, between two publications of the firms' counters. */
    static final int BUSY_TURNS_PER_FIRM_PUBLISH = 4096;
    private final CountersFile file;
    private final AtomicCounter newOrders;
    private final AtomicCounter cancels;
    private final AtomicCounter replaces;
    private final AtomicCounter massCancels;
    private final AtomicCounter massCanceledOrders;
    private final AtomicCounter[] adminCommands;
    private final AtomicCounter adminRefusals;
    private final AtomicCounter expiredOrders;
    private final AtomicCounter adminConsumedEventId;
    private final AtomicCounter[] orderRejects;
    private final AtomicCounter[] cancelRejects;
    private final AtomicCounter fills;
    private final AtomicCounter reports;
    private final AtomicCounter[] restingOrders;
    private final AtomicCounter[] consumedEventId;
    private final Int2IntHashMap sourceSlot = new Int2IntHashMap(-1);
    private final AtomicCounter idleTurns;
    private final AtomicCounter journalIndex;
    /**
     * Each firm's counters, by its slot in the engine's risk table (room for every one of risk.maxFirms), allocated
     * when the firm first appears, once; none without risk.
     */
    private final FirmCounters[] firms;
    private final long[] symbols;
    private int busyTurns;

    /**
     * Creates the engine's counters file under the config's journal root (rewriting one of an earlier run), with room
     * for every firm the risk section allows ({@link EngineConfig#counterCapacity()}).
     */
    MappedEngineCounters(final EngineConfig config) {
        file = CountersFile.create(config.journalRoot(), PROCESS, config.counterCapacity());
        newOrders = file.counter(CounterLabel.of("sluice_engine_commands_total", "type", "new_order"));
        cancels = file.counter(CounterLabel.of("sluice_engine_commands_total", "type", "cancel"));
        replaces = file.counter(CounterLabel.of("sluice_engine_commands_total", "type", "replace"));
        massCancels = file.counter(CounterLabel.of("sluice_engine_commands_total", "type", "mass_cancel"));
        massCanceledOrders = file.counter(CounterLabel.of("sluice_engine_mass_canceled_orders_total"));
        final AdminAction[] actions = AdminAction.values();
        adminCommands = new AtomicCounter[actions.length];
        for (final AdminAction action : actions) {
            adminCommands[action.ordinal()] = file.counter(CounterLabel.of("sluice_engine_admin_commands_total",
                    "action", action.name()));
        }
        adminRefusals = file.counter(CounterLabel.of("sluice_engine_admin_refusals_total"));
        expiredOrders = file.counter(CounterLabel.of("sluice_engine_expired_orders_total"));
        final RejectReason[] reasons = RejectReason.values();
        orderRejects = new AtomicCounter[reasons.length];
        cancelRejects = new AtomicCounter[reasons.length];
        for (final RejectReason reason : reasons) {
            if (reason != RejectReason.NONE) {
                orderRejects[reason.ordinal()] = file.counter(CounterLabel.of("sluice_engine_rejects_total",
                        "kind", "order", "reason", reason.name()));
                cancelRejects[reason.ordinal()] = file.counter(CounterLabel.of("sluice_engine_rejects_total",
                        "kind", "cancel", "reason", reason.name()));
            }
        }
        fills = file.counter(CounterLabel.of("sluice_engine_fills_total"));
        reports = file.counter(CounterLabel.of("sluice_engine_reports_total"));
        restingOrders = new AtomicCounter[config.instruments().size()];
        for (int i = 0; i < restingOrders.length; i++) {
            final InstrumentConfig instrument = config.instruments().get(i);
            restingOrders[i] = file.gauge(CounterLabel.of("sluice_engine_resting_orders", "instrument",
                    ShortTextLongConverter.INSTANCE.asString(instrument.symbol())));
        }
        final int[] gatewayIds = config.gatewayIds();
        consumedEventId = new AtomicCounter[gatewayIds.length];
        for (int i = 0; i < gatewayIds.length; i++) {
            sourceSlot.put(gatewayIds[i], i);
            consumedEventId[i] = file.gauge(CounterLabel.of("sluice_engine_consumed_event_id",
                    "gateway", Integer.toString(gatewayIds[i])));
        }
        adminConsumedEventId = file.gauge(CounterLabel.of("sluice_engine_consumed_event_id", "gateway", "admin"));
        idleTurns = file.counter(CounterLabel.of("sluice_engine_idle_turns_total"));
        journalIndex = file.gauge(CounterLabel.of("sluice_engine_journal_index"));
        firms = new FirmCounters[config.risk() == null ? 0 : config.risk().maxFirms()];
        symbols = config.instruments().stream().mapToLong(InstrumentConfig::symbol).toArray();
    }

    @Override
    public EngineInput counting(final EngineInput engine) {
        return new CountedCommands(engine, this);
    }

    @Override
    public void onReport(final ExecutionReport report) {
        reports.incrementRelease();
        final ExecType type = report.execType();
        if (type == ExecType.TRADE) {
            fills.incrementRelease();
        } else if (type == ExecType.EXPIRED) {
            expiredOrders.incrementRelease();
        } else if (type == ExecType.REJECTED && report.rejectReason() != RejectReason.NONE) {
            orderRejects[report.rejectReason().ordinal()].incrementRelease();
        }
    }

    @Override
    public void onReport(final CancelReject reject) {
        reports.incrementRelease();
        if (reject.rejectReason() != RejectReason.NONE) {
            cancelRejects[reject.rejectReason().ordinal()].incrementRelease();
        }
    }

    /** Counts a mass cancel report written to the engine journal (live), and the orders it canceled. */
    @Override
    public void onReport(final MassCancelReport report) {
        reports.incrementRelease();
        massCanceledOrders.getAndAddRelease(report.affectedOrders());
    }

    /** Counts an admin outcome written to the engine journal (live), and whether it was a refusal. */
    @Override
    public void onReport(final AdminOutcome outcome) {
        reports.incrementRelease();
        if (outcome.result() == AdminResult.REFUSED) {
            adminRefusals.incrementRelease();
        }
    }

    @Override
    public void afterWork(final Engine engine, final long lastIndexAppended) {
        for (int i = 0; i < restingOrders.length; i++) {
            final OrderBook book = engine.book(i);
            restingOrders[i].setRelease(book.bids().orders() + book.asks().orders());
        }
        journalIndex.setRelease(lastIndexAppended);
        if (++busyTurns == BUSY_TURNS_PER_FIRM_PUBLISH) {
            publishChangedFirms(engine);
        }
    }

    @Override
    public void afterRecovery(final Engine engine) {
        publishChangedFirms(engine);
    }

    /**
     * Publishes the firms whose state changed since the last time; a firm's counters are allocated the first time (once
     * per firm). Not after every turn: a firm's counters are a score of writes, so they are published when the engine
     * finds nothing to do, and every {@value #BUSY_TURNS_PER_FIRM_PUBLISH} busy turns.
     */
    private void publishChangedFirms(final Engine engine) {
        busyTurns = 0;
        final FirmRisk risk = engine.risk();
        if (risk == null || risk.changedCount() == 0) {
            return;
        }
        for (int i = 0; i < risk.changedCount(); i++) {
            final int slot = risk.changedSlot(i);
            final FirmExposure firm = risk.inSlot(slot);
            if (firms[slot] == null) {
                firms[slot] = new FirmCounters(file, firm.firm(), symbols);
            }
            firms[slot].publish(firm);
        }
        risk.clearChanged();
    }

    @Override
    public void onIdle(final Engine engine) {
        idleTurns.incrementRelease();
        publishChangedFirms(engine);
    }

    private void consumed(final MetaData metaData) {
        if (metaData.sourceId() == Journals.ADMIN_SOURCE_ID) {
            adminConsumedEventId.setRelease(metaData.eventId());
            return;
        }
        final int slot = sourceSlot.get(metaData.sourceId());
        if (slot >= 0) {
            consumedEventId[slot].setRelease(metaData.eventId());
        }
    }

    @Override
    public void close() {
        file.close();
    }

    /** Counts each command before the engine runs it. */
    private record CountedCommands(EngineInput engine, MappedEngineCounters counters) implements EngineInput {
        @Override
        public void newOrder(final NewOrder order) {
            counters.newOrders.incrementRelease();
            counters.consumed(order.metaData());
            engine.newOrder(order);
        }

        @Override
        public void cancelOrder(final CancelOrder cancel) {
            counters.cancels.incrementRelease();
            counters.consumed(cancel.metaData());
            engine.cancelOrder(cancel);
        }

        @Override
        public void replaceOrder(final ReplaceOrder replace) {
            counters.replaces.incrementRelease();
            counters.consumed(replace.metaData());
            engine.replaceOrder(replace);
        }

        @Override
        public void massCancel(final MassCancel massCancel) {
            counters.massCancels.incrementRelease();
            counters.consumed(massCancel.metaData());
            engine.massCancel(massCancel);
        }

        @Override
        public void adminCommand(final AdminCommand command) {
            if (command.action() != null) {
                counters.adminCommands[command.action().ordinal()].incrementRelease();
            }
            counters.consumed(command.metaData());
            engine.adminCommand(command);
        }
    }
}
