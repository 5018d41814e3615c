package io.sluice.engine.config;

import io.sluice.contracts.PublicIds;
import io.sluice.contracts.TradingSession;
import io.sluice.contracts.journal.Journals;
import io.sluice.engine.risk.FirmCounters;
import io.sluice.runtime.agent.IdleConfig;
import io.sluice.runtime.config.ConfigFile;
import io.sluice.runtime.counters.CountersFile;
import io.sluice.runtime.journal.JournalSpace;
import io.sluice.runtime.process.CpuPinning;
import net.openhft.chronicle.wire.SelfDescribingMarshallable;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import static io.sluice.engine.config.InstrumentConfig.require;

/**
 * The engine's configuration, read from YAML ({@code ./sluice engine --config FILE}). Every field has a
 * default except the instruments; a file looks like this (see {@code engine-example.yaml}):
 * <pre>
 * !EngineConfig {
 *   journalRoot: data,            # journals live under this directory (see Journals)
 *   gatewayIds: [ 1, 2 ],         # the gateway journals to tail: data/gateway-1, data/gateway-2
 *   idle: { strategy: backoff },  # what the engine thread does with no input: Agrona's aliases (IdleConfig)
 *   maxOpenOrders: 1048576,       # open orders across all books; more are rejected
 *   completedOrderMemory: 65536,  # completed orders remembered for duplicate ClOrdID and too-late checks
 *   maxPriceLevels: 4096,         # price levels per side of each book
 *   pinCpu: -1,                   # pin the engine thread to this CPU (OpenHFT Affinity); -1: no pinning
 *   pretouch: true,               # fault in the engine journal's pages ahead of the engine thread (JournalPretoucher)
 *   journalReserveBytes: 67108864, # disk kept reserved ahead of the engine journal's writer (JournalSpace)
 *   diskWarningBytes: 1073741824, # warn when the journal's filesystem has less free
 *   restartFromSnapshots: true,   # restart from the newest valid snapshot in data/snapshots (./sluice snapshot)
 *   counters: true,               # live counters in data/counters/engine.counters (./sluice stat); false: none kept
 *   idKey: "a long secret",       # permutes OrderIDs and ExecIDs (PublicIds); empty: a built-in key; counters: none
 *   tradingSchedule: { timeZone: Europe/London, open: "08:00", close: "16:30" }, # optional (TradingScheduleConfig)
 *   risk: { defaults: { maxOrdersPerSecond: 500 }, firms: [ { firm: ACME, maxOpenOrders: 100 } ] }, # optional (RiskConfig)
 *   instruments: [
 *     { symbol: VOD.L, tickSize: 0.01, lotSize: 1, priceLow: 50, priceHigh: 150,
 *       maxOrderQty: 1000000, maxNotional: 50000000 }
 *   ]
 * }
 * </pre>
 * All capacities are allocated up front so the engine never allocates per order.
 */
public final class EngineConfig extends SelfDescribingMarshallable {
    private String journalRoot = "data";
    private List<Integer> gatewayIds = new ArrayList<>();
    private IdleConfig idle = new IdleConfig();
    private int maxOpenOrders = 1 << 20;
    private int completedOrderMemory = 1 << 16;
    private int maxPriceLevels = 4096;
    private int pinCpu = CpuPinning.NONE;
    private boolean pretouch = true;
    private long journalReserveBytes = JournalSpace.DEFAULT_RESERVE_BYTES;
    private long diskWarningBytes = JournalSpace.DEFAULT_WARNING_BYTES;
    private boolean restartFromSnapshots = true;
    private boolean counters = true;
    private String idKey = "";
    private List<InstrumentConfig> instruments = new ArrayList<>();
    private TradingScheduleConfig tradingSchedule;
    private RiskConfig risk;

    /**
     * Reads and validates a config file.
     *
     * @throws IllegalArgumentException naming the file and what is wrong with it
     */
    public static EngineConfig load(final Path file) {
        return ConfigFile.load(file, EngineConfig.class, "engine config", EngineConfig::validate);
    }

    /** Parses and validates config text; {@code origin} names where it came from, for messages. */
    public static EngineConfig parse(final String yaml, final String origin) {
        return ConfigFile.parse(yaml, origin, EngineConfig.class, "engine config", EngineConfig::validate);
    }

    /** @throws IllegalArgumentException saying what is wrong */
    public void validate() {
        require(journalRoot != null && !journalRoot.isBlank(), "journalRoot is missing");
        for (final Integer id : gatewayIds) {
            require(id != null && id > 0, "gateway ids must be positive, got " + id);
        }
        require(gatewayIds.stream().distinct().count() == gatewayIds.size(), "gatewayIds has duplicates: " + gatewayIds);
        require(idle != null, "idle is missing");
        idle.validate();
        require(maxOpenOrders > 0, "maxOpenOrders must be positive");
        require(completedOrderMemory >= 0, "completedOrderMemory must not be negative");
        require((long) maxOpenOrders + completedOrderMemory < (1 << 28), "maxOpenOrders + completedOrderMemory must be below 2^28");
        require(maxPriceLevels > 0, "maxPriceLevels must be positive");
        require(pinCpu >= CpuPinning.NONE, "pinCpu must be a CPU number, or -1 for no pinning, got " + pinCpu);
        require(journalReserveBytes >= JournalSpace.MIN_RESERVE_BYTES,
                "journalReserveBytes must be at least " + JournalSpace.MIN_RESERVE_BYTES + ", got " + journalReserveBytes);
        require(diskWarningBytes >= 0, "diskWarningBytes must not be negative, got " + diskWarningBytes);
        require(!instruments.isEmpty(), "no instruments configured");
        for (final InstrumentConfig instrument : instruments) {
            instrument.validate();
        }
        require(instruments.stream().mapToLong(InstrumentConfig::symbol).distinct().count() == instruments.size(),
                "an instrument symbol is configured twice");
        if (tradingSchedule != null) {
            tradingSchedule.validate(instruments.stream().map(InstrumentConfig::symbol).collect(Collectors.toSet()));
        }
        if (risk != null) {
            risk.validate();
            require(!counters || counterCapacityNeeded() <= CountersFile.MOST_COUNTERS, "risk.maxFirms "
                    + risk.maxFirms() + " needs " + FirmCounters.countersOf(risk.maxFirms(), instruments.size())
                    + " firm counters (" + FirmCounters.countersOf(1, instruments.size()) + " per firm with "
                    + instruments.size() + " instruments), more than the engine's counters file has room for ("
                    + (CountersFile.MOST_COUNTERS - CountersFile.DEFAULT_COUNTERS)
                    + "): lower risk.maxFirms, or set counters: false");
        }
    }

    /** @return the directory all journals live under. */
    public Path journalRoot() {
        return Path.of(journalRoot);
    }

    public EngineConfig journalRoot(final Path root) {
        this.journalRoot = root.toString();
        return this;
    }

    /** @return the gateway ids whose journals ({@link Journals#gatewayJournal}) the engine tails, in config order. */
    public int[] gatewayIds() {
        return gatewayIds.stream().mapToInt(Integer::intValue).toArray();
    }

    public EngineConfig gatewayIds(final int... ids) {
        gatewayIds = new ArrayList<>();
        for (final int id : ids) {
            gatewayIds.add(id);
        }
        return this;
    }

    /** @return what the engine thread does when no gateway journal has anything to read */
    public IdleConfig idle() {
        return idle;
    }

    public EngineConfig idle(final IdleConfig idle) {
        this.idle = idle;
        return this;
    }

    public int maxOpenOrders() {
        return maxOpenOrders;
    }

    public EngineConfig maxOpenOrders(final int maxOpenOrders) {
        this.maxOpenOrders = maxOpenOrders;
        return this;
    }

    public int completedOrderMemory() {
        return completedOrderMemory;
    }

    public EngineConfig completedOrderMemory(final int completedOrderMemory) {
        this.completedOrderMemory = completedOrderMemory;
        return this;
    }

    public int maxPriceLevels() {
        return maxPriceLevels;
    }

    public EngineConfig maxPriceLevels(final int maxPriceLevels) {
        this.maxPriceLevels = maxPriceLevels;
        return this;
    }

    /** @return the CPU to pin the engine thread to, or {@link CpuPinning#NONE}. */
    public int pinCpu() {
        return pinCpu;
    }

    public EngineConfig pinCpu(final int cpu) {
        this.pinCpu = cpu;
        return this;
    }

    /**
     * @return true if a thread of its own faults in the engine journal's pages ahead of the engine thread
     * ({@link io.sluice.runtime.journal.JournalPretoucher}), which otherwise spends much of its time in the
     * kernel on first writes to each page
     */
    public boolean pretouch() {
        return pretouch;
    }

    public EngineConfig pretouch(final boolean pretouch) {
        this.pretouch = pretouch;
        return this;
    }

    /**
     * @return how many bytes of disk are kept reserved ahead of the engine journal's writer ({@link JournalSpace}):
     * the engine stops cleanly, before writing, when an eighth of it is left and no more can be had
     */
    public long journalReserveBytes() {
        return journalReserveBytes;
    }

    public EngineConfig journalReserveBytes(final long bytes) {
        this.journalReserveBytes = bytes;
        return this;
    }

    /** @return the free space on the journal's filesystem below which the engine logs a warning */
    public long diskWarningBytes() {
        return diskWarningBytes;
    }

    public EngineConfig diskWarningBytes(final long bytes) {
        this.diskWarningBytes = bytes;
        return this;
    }

    /**
     * @return true if a restart starts from the newest valid snapshot of the snapshot journal under the root
     * ({@code ./sluice snapshot} writes them) and re-runs only the inputs after it; false to re-run every input
     */
    public boolean restartFromSnapshots() {
        return restartFromSnapshots;
    }

    public EngineConfig restartFromSnapshots(final boolean restartFromSnapshots) {
        this.restartFromSnapshots = restartFromSnapshots;
        return this;
    }

    /**
     * @return the trading session every instrument starts in, before any OPEN_TRADING or CLOSE_TRADING of the admin
     * journal: {@link TradingSession#OPEN} without a {@link #tradingSchedule()} (instruments trade from the start),
     * {@link TradingSession#CLOSED} with one (the scheduler's first OPEN_TRADING opens them). A pure function of the
     * config: a restart, a replay and a snapshot restore all start from the same state.
     */
    public TradingSession tradingSessionAtStart() {
        return tradingSchedule == null ? TradingSession.OPEN : TradingSession.CLOSED;
    }

    /**
     * @return true if the engine keeps its live counters in {@code <journalRoot>/counters/engine.counters} (for
     * {@code ./sluice stat} and {@code ./sluice metrics}); false if it keeps none (no file, no counter writes)
     */
    public boolean counters() {
        return counters;
    }

    public EngineConfig counters(final boolean counters) {
        this.counters = counters;
        return this;
    }

    /**
     * @return how many counters the engine's counters file holds: its own, and those of every firm risk.maxFirms
     * allows ({@link FirmCounters}), so that every firm is counted; at most {@link CountersFile#MOST_COUNTERS}
     */
    public int counterCapacity() {
        return (int) counterCapacityNeeded();
    }

    private long counterCapacityNeeded() {
        return CountersFile.DEFAULT_COUNTERS
                + (risk == null ? 0 : FirmCounters.countersOf(risk.maxFirms(), instruments.size()));
    }

    /** @return how OrderIDs and ExecIDs are made from the engine's counters ({@code idKey}, see {@link PublicIds}) */
    public PublicIds publicIds() {
        return PublicIds.of(idKey);
    }

    /** @return true if {@code idKey} is set to a key of the deployment's own (not empty, not {@code counters}) */
    public boolean hasOwnIdKey() {
        return idKey != null && !idKey.isEmpty() && !PublicIds.COUNTERS.equals(idKey);
    }

    public EngineConfig idKey(final String idKey) {
        this.idKey = idKey;
        return this;
    }

    /** @return the instruments, in config order. */
    public List<InstrumentConfig> instruments() {
        return instruments;
    }

    public EngineConfig addInstrument(final InstrumentConfig instrument) {
        instruments.add(instrument);
        return this;
    }

    /**
     * @return when each instrument's trading session opens and closes, or null if the config has no
     * {@code tradingSchedule}: then every instrument trades from the start and no session ever closes. With one, every
     * instrument starts closed and the engine process's {@link io.sluice.engine.schedule.TradingScheduler} opens and
     * closes them through the admin journal.
     */
    public TradingScheduleConfig tradingSchedule() {
        return tradingSchedule;
    }

    public EngineConfig tradingSchedule(final TradingScheduleConfig schedule) {
        this.tradingSchedule = schedule;
        return this;
    }

    /** @return the firms' pre-trade limits, or null if the config has no {@code risk} section (no firm limits) */
    public RiskConfig risk() {
        return risk;
    }

    public EngineConfig risk(final RiskConfig risk) {
        this.risk = risk;
        return this;
    }
}
