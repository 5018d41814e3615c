package io.sluice.engine.snapshot;

import io.sluice.contracts.EngineSnapshots;
import io.sluice.contracts.SnapshotBegin;
import io.sluice.contracts.SnapshotEnd;
import io.sluice.contracts.SnapshotFirm;
import io.sluice.contracts.SnapshotFirmPosition;
import io.sluice.contracts.SnapshotInstrument;
import io.sluice.contracts.SnapshotOrder;
import io.sluice.contracts.SnapshotSessionKillSwitch;
import io.sluice.contracts.SnapshotSource;
import io.sluice.contracts.journal.Journals;
import io.sluice.engine.Engine;
import io.sluice.engine.book.BookSide;
import io.sluice.engine.book.Order;
import io.sluice.engine.book.PriceLevel;
import io.sluice.engine.config.EngineConfig;
import io.sluice.engine.config.InstrumentConfig;
import io.sluice.engine.config.RiskConfig;
import io.sluice.engine.recovery.ConsumptionOrder;
import io.sluice.engine.recovery.InputSource;
import io.sluice.engine.recovery.InputSources;
import io.sluice.engine.risk.FirmExposure;
import io.sluice.engine.risk.FirmRisk;
import io.sluice.engine.risk.SessionKillSwitches;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * Writes the whole state of an {@link Engine} as one snapshot into the snapshot journal, in the record order {@link
 * EngineSnapshots} lays down. Begin (position, counters, kill switch, capacities), sources (the admin journal among
 * them) and instruments (with their trading session and halt) go in one excerpt. Then, {@value
 * SnapshotBegin#ORDERS_PER_EXCERPT} records to an excerpt: the firms of the risk table with their positions, the
 * sessions whose kill switch is on, the resting orders in book priority and the completed orders oldest first; then the
 * end record
 * with the chained checksum of all those excerpts. A writer killed part way leaves
 * a snapshot without its end, which readers never use ({@link SnapshotCatalog}).
 * <p>
 * The engine must not be processing while it is written: the snapshotter ({@link SnapshotMain}) writes between inputs
 * on its own thread, never touching the live engine.
 */
public final class SnapshotWriter {
    private final ExcerptAppender appender;
    private final EngineSnapshots records;
    private final EngineConfig config;
    private final long idKeyCheck;
    private final long riskCheck;
    private final SnapshotChecksum checksum = new SnapshotChecksum();
    private final SnapshotBegin begin = new SnapshotBegin();
    private final SnapshotSource source = new SnapshotSource();
    private final SnapshotInstrument instrument = new SnapshotInstrument();
    private final SnapshotOrder order = new SnapshotOrder();
    private final SnapshotFirm firm = new SnapshotFirm();
    private final SnapshotFirmPosition position = new SnapshotFirmPosition();
    private final SnapshotSessionKillSwitch session = new SnapshotSessionKillSwitch();
    private final SnapshotEnd end = new SnapshotEnd();
    private DocumentContext excerpt;
    private long excerptStart;
    private int inExcerpt;

    /** @param appender an appender of the snapshot journal ({@link Journals#snapshotJournal}) */
    public SnapshotWriter(final ExcerptAppender appender, final EngineConfig config) {
        this.appender = appender;
        this.records = Journals.methodWriter(appender, EngineSnapshots.class);
        this.config = config;
        this.idKeyCheck = config.publicIds().keyCheck();
        this.riskCheck = RiskConfig.checkOf(config.risk());
    }

    /**
     * Writes a snapshot of {@code engine}, which has consumed exactly the inputs up to the one {@code position} is at.
     *
     * @param position the engine journal's consumption order, at the last input the engine has consumed
     * @param inputs   how many inputs that is, from the engine journal's first
     * @param sources  the gateway journals, each positioned right after the last of its inputs the engine consumed
     * @return the snapshot journal index of the snapshot's begin excerpt
     */
    public long write(final Engine engine, final ConsumptionOrder position, final long inputs, final InputSources sources) {
        checksum.reset();
        final FirmRisk risk = engine.risk();
        final SessionKillSwitches sessionKillSwitches = engine.sessionKillSwitches();
        begin.position(position.index(), position.checksum(), position.sourceId(), position.eventId(), inputs)
                .state(engine.lastOrderId(), engine.lastExecId(), engine.openOrders(), engine.completedOrders().size(),
                        sources.count(), config.instruments().size())
                .capacities(config.maxOpenOrders(), config.completedOrderMemory(), config.maxPriceLevels())
                .idKeyCheck(idKeyCheck)
                .killSwitch(engine.killSwitch())
                .primaryLease(engine.primaryLease())
                .risk(riskCheck, risk == null ? 0 : risk.firms(), sessionKillSwitches.count());
        open();
        records.snapshotBegin(begin);
        for (int i = 0; i < sources.count(); i++) {
            final InputSource s = sources.get(i);
            final long eventId = s.lastEventId();
            records.snapshotSource(source.set(s.sourceId(), eventId, eventId == 0 ? 0 : s.lastReadIndex()));
        }
        for (int i = 0; i < config.instruments().size(); i++) {
            final InstrumentConfig c = config.instruments().get(i);
            records.snapshotInstrument(instrument.set(c.symbol(), c.tickSize(), c.lotSize(), c.priceLow(), c.priceHigh(),
                    c.maxOrderQty(), c.maxNotional()).state(engine.tradingSession(i), engine.tradingHalt(i), engine.lastTradePrice(i)));
        }
        close();
        final long beginIndex = appender.lastIndexAppended();
        for (int slot = 0; risk != null && slot < risk.firms(); slot++) {
            writeFirm(risk.inSlot(slot));
        }
        for (int i = 0; i < sessionKillSwitches.count(); i++) {
            beforeRecord();
            records.snapshotSessionKillSwitch(session.set(sessionKillSwitches.gatewayId(i), sessionKillSwitches.session(i)));
            afterRecord();
        }
        int resting = 0;
        for (int i = 0; i < engine.books(); i++) {
            resting += writeSide(engine.book(i).bids()) + writeSide(engine.book(i).asks());
        }
        if (resting != engine.openOrders()) {
            throw new IllegalStateException("the books hold " + resting + " orders, the engine counts "
                    + engine.openOrders() + " open: not snapshotting an inconsistent state");
        }
        for (Order o = engine.completedOrders().oldest(); o != null; o = o.nextCompleted()) {
            writeOrder(o, false);
        }
        if (excerpt != null) {
            close();
        }
        records.snapshotEnd(end.set(position.index(), beginIndex, checksum.excerpts(), checksum.value()));
        return beginIndex;
    }

    private int writeSide(final BookSide side) {
        int count = 0;
        for (int depth = 0; ; depth++) {
            final PriceLevel level = side.level(depth);
            if (level == null) {
                return count;
            }
            for (Order o = level.head(); o != null; o = o.nextInLevel()) {
                writeOrder(o, true);
                count++;
            }
        }
    }

    /** The firm's record, then one record per instrument it has exposure in. */
    private void writeFirm(final FirmExposure exposure) {
        beforeRecord();
        records.snapshotFirm(exposure.snapshot(firm));
        afterRecord();
        for (int i = 0; i < config.instruments().size(); i++) {
            if (exposure.snapshotPosition(i, config.instruments().get(i).symbol(), position)) {
                beforeRecord();
                records.snapshotFirmPosition(position);
                afterRecord();
            }
        }
    }

    private void writeOrder(final Order o, final boolean resting) {
        beforeRecord();
        records.snapshotOrder(o.snapshot(order.resting(resting)));
        afterRecord();
    }

    /** Opens an excerpt for the next record of the chunked part (firms, session kill switches, orders) if none is open. */
    private void beforeRecord() {
        if (excerpt == null) {
            open();
        }
    }

    /** Closes the excerpt once it holds {@value SnapshotBegin#ORDERS_PER_EXCERPT} records. */
    private void afterRecord() {
        if (++inExcerpt == SnapshotBegin.ORDERS_PER_EXCERPT) {
            close();
        }
    }

    private void open() {
        excerpt = appender.writingDocument();
        excerptStart = excerpt.wire().bytes().writePosition();
        inExcerpt = 0;
    }

    /** Chains the excerpt's bytes into the checksum and commits it. */
    private void close() {
        final Bytes<?> bytes = excerpt.wire().bytes();
        final int length = (int) (bytes.writePosition() - excerptStart);
        checksum.add(bytes.addressForRead(excerptStart, length), length);
        excerpt.close();
        excerpt = null;
    }
}
