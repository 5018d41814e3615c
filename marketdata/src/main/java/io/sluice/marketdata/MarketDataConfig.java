package io.sluice.marketdata;

import io.sluice.contracts.TradingSession;
import io.sluice.marketdata.feed.PacketHeader;
import io.sluice.runtime.agent.IdleConfig;
import io.sluice.runtime.config.ConfigFile;
import net.openhft.chronicle.wire.SelfDescribingMarshallable;
import net.openhft.chronicle.wire.ShortTextLongConverter;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code ./sluice marketdata} process's YAML config (see {@code marketdata-example.yaml}). The journal root, the
 * instruments (the engine's, in any order: the feed's order), the trading session they start in (as the engine's),
 * where the incremental and snapshot packets go, where the retransmission service listens, and the feed's timings.
 */
public final class MarketDataConfig extends SelfDescribingMarshallable {
    private String journalRoot;
    private List<String> instruments = new ArrayList<>();
    private TradingSession tradingSessionAtStart = TradingSession.OPEN;
    private String session = "SLUICE";
    private List<String> incremental = new ArrayList<>();
    private List<String> snapshot = new ArrayList<>();
    private String multicastInterface = "";
    private String retransmit = "127.0.0.1:0";
    private long snapshotIntervalMillis = 1_000;
    private long heartbeatIntervalMillis = 1_000;
    private int checksumEvery = 1_000;
    private int maxOrders = 1 << 20;
    private int maxPriceLevels = 4_096;
    private int maxRetransmitCount = 10_000;
    private IdleConfig idle = new IdleConfig();

    /**
     * Reads and validates a config file.
     *
     * @throws IllegalArgumentException naming the file and what is wrong with it
     */
    public static MarketDataConfig load(final Path file) {
        return ConfigFile.load(file, MarketDataConfig.class, "market-data config", MarketDataConfig::validate);
    }

    /** Parses and validates config text; {@code origin} names where it came from, for messages. */
    public static MarketDataConfig parse(final String yaml, final String origin) {
        return ConfigFile.parse(yaml, origin, MarketDataConfig.class, "market-data config", MarketDataConfig::validate);
    }

    /** @throws IllegalArgumentException saying what is wrong */
    public MarketDataConfig validate() {
        require(journalRoot != null && !journalRoot.isBlank(), "journalRoot is missing");
        require(!instruments.isEmpty(), "no instruments: list the engine's");
        require(instruments.stream().distinct().count() == instruments.size(), "an instrument is listed twice");
        require(tradingSessionAtStart != null, "tradingSessionAtStart is OPEN or CLOSED");
        PacketHeader.sessionBytes(session);
        require(!incremental.isEmpty(), "incremental names no address to send the feed to");
        incrementalAddresses();
        snapshotAddresses();
        address(retransmit, "retransmit");
        require(snapshotIntervalMillis > 0, "snapshotIntervalMillis must be positive");
        require(heartbeatIntervalMillis > 0, "heartbeatIntervalMillis must be positive");
        require(checksumEvery > 0, "checksumEvery must be positive");
        require(maxOrders > 0 && maxPriceLevels > 0, "maxOrders and maxPriceLevels must be positive");
        require(maxRetransmitCount > 0 && maxRetransmitCount <= 65_535, "maxRetransmitCount is 1 to 65535");
        require(idle != null, "idle is missing");
        idle.validate();
        return this;
    }

    public Path journalRoot() {
        return Path.of(journalRoot);
    }

    public MarketDataConfig journalRoot(final Path root) {
        journalRoot = root.toString();
        return this;
    }

    /** @return the instruments' symbols, in the feed's order */
    public long[] symbols() {
        return instruments.stream().mapToLong(ShortTextLongConverter.INSTANCE::parse).toArray();
    }

    public MarketDataConfig instruments(final List<String> symbols) {
        instruments = new ArrayList<>(symbols);
        return this;
    }

    public TradingSession tradingSessionAtStart() {
        return tradingSessionAtStart;
    }

    public MarketDataConfig tradingSessionAtStart(final TradingSession session) {
        tradingSessionAtStart = session;
        return this;
    }

    /** @return the feed session's 10 bytes, as every packet header carries them */
    public byte[] sessionBytes() {
        return PacketHeader.sessionBytes(session);
    }

    public MarketDataConfig session(final String name) {
        session = name;
        return this;
    }

    public List<InetSocketAddress> incrementalAddresses() {
        return addresses(incremental, "incremental");
    }

    public MarketDataConfig incremental(final List<String> addresses) {
        incremental = new ArrayList<>(addresses);
        return this;
    }

    public List<InetSocketAddress> snapshotAddresses() {
        return addresses(snapshot, "snapshot");
    }

    public MarketDataConfig snapshot(final List<String> addresses) {
        snapshot = new ArrayList<>(addresses);
        return this;
    }

    /** @return the interface multicast packets leave by (its name, e.g. {@code veth0}), or empty for the default */
    public String multicastInterface() {
        return multicastInterface;
    }

    public MarketDataConfig multicastInterface(final String name) {
        multicastInterface = name;
        return this;
    }

    public InetSocketAddress retransmitAddress() {
        return address(retransmit, "retransmit");
    }

    public MarketDataConfig retransmit(final String address) {
        retransmit = address;
        return this;
    }

    public long snapshotIntervalMillis() {
        return snapshotIntervalMillis;
    }

    public MarketDataConfig snapshotIntervalMillis(final long millis) {
        snapshotIntervalMillis = millis;
        return this;
    }

    public long heartbeatIntervalMillis() {
        return heartbeatIntervalMillis;
    }

    public MarketDataConfig heartbeatIntervalMillis(final long millis) {
        heartbeatIntervalMillis = millis;
        return this;
    }

    public int checksumEvery() {
        return checksumEvery;
    }

    public MarketDataConfig checksumEvery(final int messages) {
        checksumEvery = messages;
        return this;
    }

    public int maxOrders() {
        return maxOrders;
    }

    public int maxPriceLevels() {
        return maxPriceLevels;
    }

    public int maxRetransmitCount() {
        return maxRetransmitCount;
    }

    public IdleConfig idle() {
        return idle;
    }

    public MarketDataConfig idle(final IdleConfig idle) {
        this.idle = idle;
        return this;
    }

    private static List<InetSocketAddress> addresses(final List<String> texts, final String key) {
        final List<InetSocketAddress> addresses = new ArrayList<>();
        for (final String text : texts) {
            addresses.add(address(text, key));
        }
        return addresses;
    }

    /** @return {@code host:port} as an address @throws IllegalArgumentException naming {@code key} if it is not one */
    static InetSocketAddress address(final String text, final String key) {
        final int colon = text == null ? -1 : text.lastIndexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException(key + ": '" + text + "' is not host:port");
        }
        try {
            final int port = Integer.parseInt(text.substring(colon + 1));
            require(port >= 0 && port <= 65_535, key + ": port " + port + " is not 0 to 65535");
            return new InetSocketAddress(InetAddress.getByName(text.substring(0, colon)), port);
        } catch (final NumberFormatException | UnknownHostException e) {
            throw new IllegalArgumentException(key + ": '" + text + "' is not host:port (" + e.getMessage() + ")", e);
        }
    }

    private static void require(final boolean condition, final String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }
}
