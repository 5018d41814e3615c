package io.sluice.gateway;

import io.sluice.contracts.PublicIds;
import io.sluice.contracts.SentMessage;
import io.sluice.gateway.codec.FixValidation;
import io.sluice.gateway.codec.ShortText;
import io.sluice.gateway.session.FixSession;
import io.sluice.gateway.transport.ListenAddress;
import io.sluice.gateway.transport.NioTransport;
import io.sluice.gateway.transport.TcpKeepalive;
import io.sluice.runtime.agent.IdleConfig;
import io.sluice.runtime.config.ConfigFile;
import io.sluice.runtime.journal.JournalSpace;
import io.sluice.runtime.process.CpuPinning;
import net.openhft.chronicle.wire.SelfDescribingMarshallable;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A gateway's configuration, read from YAML (see {@code gateway-example.yaml}). Its id, the journal root,
 * where it listens ({@code tcp://host:port} or {@code unix:/path}; more addresses in {@code alsoListen}, and
 * {@code tls://host:port} or {@code tls+unix:/path} for TLS with the settings of {@code tls}, a {@link TlsConfig}),
 * the sessions it accepts (each optionally of a firm, a client certificate and an inbound throttle, or a drop copy of
 * a firm's reports), the idle
 * strategy of its I/O thread ({@code idle}, the same key with the same defaults as the engine's: {@link
 * IdleConfig}), optionally the CPU to pin that thread to ({@code pinCpu}, OpenHFT Affinity; -1, the
 * default, pins nothing), its limits, and how dead peers are found out (the smallest HeartBtInt a Logon may ask for,
 * TCP keepalive on accepted TCP connections), and whether a message waits for Kafka to acknowledge its journal record
 * before it goes out ({@code replication}: {@link GatewayReplication}), whether it keeps live counters
 * ({@code counters}), and the key that numbers the ExecIDs of the reports it makes itself ({@code idKey}:
 * {@link GatewayExecIds}). {@link #validate(Map)} names every problem it finds.
 */
public final class GatewayConfig extends SelfDescribingMarshallable {
    static {
        ConfigFile.alias(SessionConfig.class, "Session");
        ConfigFile.alias(TlsConfig.class, "Tls");
    }

    private int gatewayId = 1;
    private String journalRoot = "journals";
    private String listen = "tcp://127.0.0.1:9878";
    private List<String> alsoListen = new ArrayList<>();
    private TlsConfig tls;
    private IdleConfig idle = new IdleConfig();
    private int maxMessageBytes = 8192;
    private int sendBufferBytes = 256 * 1024;
    private long sendingTimeToleranceMillis = 120_000;
    private long logoutTimeoutMillis = 2_000;
    private long logonTimeoutMillis = 10_000;
    private int socketSendBufferBytes = 0;
    private int minHeartBtIntSeconds = 1;
    private int tcpKeepaliveIdleSeconds = 30;
    private int tcpKeepaliveIntervalSeconds = 10;
    private int pinCpu = CpuPinning.NONE;
    private int maxConnections = 256;
    private int maxConnectionsPerAddress = 32;
    private int preLogonBuffers = 64;
    private int preLogonBuffersPerAddress = 16;
    private int logonFailuresAllowed = 3;
    private long logonBackoffMillis = 1_000;
    private long logonBackoffMaxMillis = 60_000;
    private long journalReserveBytes = JournalSpace.DEFAULT_RESERVE_BYTES;
    private long diskWarningBytes = JournalSpace.DEFAULT_WARNING_BYTES;
    private ValidationConfig validation = new ValidationConfig();
    private String replication = "none";
    private boolean counters = true;
    private String idKey = "";
    private GatewayMarketData marketData;
    private List<SessionConfig> sessions = new ArrayList<>();

    /** @return the data-dictionary checks of client messages ({@code validation}: the standard's by default). */
    public FixValidation validation() {
        return validation == null ? FixValidation.STANDARD : validation.validation();
    }

    /**
     * Reads and validates a config file, TLS passwords named by variable read from {@code environment}.
     *
     * @throws IllegalArgumentException naming the file and what is wrong with it
     */
    public static GatewayConfig load(final Path file, final Map<String, String> environment) {
        return ConfigFile.load(file, GatewayConfig.class, "gateway config", config -> config.validate(environment));
    }

    /** @throws IllegalArgumentException listing what is wrong, TLS passwords named by variable read from {@code environment} */
    public GatewayConfig validate(final Map<String, String> environment) {
        final List<String> problems = new ArrayList<>();
        if (gatewayId <= 0) {
            problems.add("gatewayId must be positive, got " + gatewayId);
        }
        boolean anyTls = false;
        final List<String> addresses = new ArrayList<>();
        addresses.add(listen);
        if (alsoListen != null) {
            addresses.addAll(alsoListen);
        }
        for (final String address : addresses) {
            try {
                anyTls |= ListenAddress.parse(address).tls();
            } catch (final IllegalArgumentException e) {
                problems.add(e.getMessage());
            }
        }
        if (new HashSet<>(addresses).size() < addresses.size()) {
            problems.add("listen and alsoListen name an address twice: " + addresses);
        }
        if (tls != null) {
            tls.validate(problems, environment);
        } else if (anyTls) {
            problems.add("a tls:// or tls+unix: listen address needs the tls settings (keyStore and its password)");
        }
        try {
            if (idle == null) {
                problems.add("idle is missing");
            } else {
                idle.validate();
            }
        } catch (final IllegalArgumentException e) {
            problems.add(e.getMessage());
        }
        if (maxMessageBytes < 256 || maxMessageBytes > SentMessage.MAX_BODY_LENGTH) {
            problems.add("maxMessageBytes must be 256 to " + SentMessage.MAX_BODY_LENGTH + ", got " + maxMessageBytes);
        }
        if (sendBufferBytes < 2 * maxMessageBytes) {
            problems.add("sendBufferBytes must be at least twice maxMessageBytes, got " + sendBufferBytes);
        }
        if (minHeartBtIntSeconds < 1 || minHeartBtIntSeconds > FixSession.MAX_HEARTBEAT_SECONDS) {
            problems.add("minHeartBtIntSeconds must be 1 to " + FixSession.MAX_HEARTBEAT_SECONDS + ", got "
                    + minHeartBtIntSeconds);
        }
        if (tcpKeepaliveIdleSeconds < 1 || tcpKeepaliveIdleSeconds > TcpKeepalive.MAX_SECONDS) {
            problems.add("tcpKeepaliveIdleSeconds must be 1 to " + TcpKeepalive.MAX_SECONDS + ", got "
                    + tcpKeepaliveIdleSeconds);
        }
        if (tcpKeepaliveIntervalSeconds < 1 || tcpKeepaliveIntervalSeconds > TcpKeepalive.MAX_SECONDS) {
            problems.add("tcpKeepaliveIntervalSeconds must be 1 to " + TcpKeepalive.MAX_SECONDS + ", got "
                    + tcpKeepaliveIntervalSeconds);
        }
        if (maxConnections < 1 || maxConnections > NioTransport.CACHED_DESCRIPTORS / 2) {
            problems.add("maxConnections must be 1 to " + NioTransport.CACHED_DESCRIPTORS / 2 + ", got " + maxConnections);
        }
        if (maxConnectionsPerAddress < 1) {
            problems.add("maxConnectionsPerAddress must be positive, got " + maxConnectionsPerAddress);
        }
        if (preLogonBuffers < 1) {
            problems.add("preLogonBuffers must be positive, got " + preLogonBuffers);
        }
        if (preLogonBuffersPerAddress < 1) {
            problems.add("preLogonBuffersPerAddress must be positive, got " + preLogonBuffersPerAddress);
        }
        if (logonFailuresAllowed < 1) {
            problems.add("logonFailuresAllowed must be positive, got " + logonFailuresAllowed);
        }
        if (logonBackoffMillis < 1 || logonBackoffMaxMillis < logonBackoffMillis) {
            problems.add("logonBackoffMillis must be positive and at most logonBackoffMaxMillis, got "
                    + logonBackoffMillis + " and " + logonBackoffMaxMillis);
        }
        if (pinCpu < CpuPinning.NONE) {
            problems.add("pinCpu must be a CPU number, or -1 for no pinning, got " + pinCpu);
        }
        if (journalReserveBytes < JournalSpace.MIN_RESERVE_BYTES) {
            problems.add("journalReserveBytes must be at least " + JournalSpace.MIN_RESERVE_BYTES + ", got "
                    + journalReserveBytes);
        }
        if (diskWarningBytes < 0) {
            problems.add("diskWarningBytes must not be negative, got " + diskWarningBytes);
        }
        try {
            GatewayReplication.parse(replication);
        } catch (final IllegalArgumentException e) {
            problems.add(e.getMessage());
        }
        if (marketData != null) {
            marketData.validate(problems);
        }
        if (sessions == null || sessions.isEmpty()) {
            problems.add("sessions: at least one session is required");
        } else {
            final Set<String> seen = new HashSet<>();
            for (final SessionConfig session : sessions) {
                final String id = session.senderCompId();
                if (id == null || ShortText.parse(id) == ShortText.INVALID) {
                    problems.add("senderCompId '" + id + "' must be 1 to 10 characters of letters, digits and "
                            + ShortText.ALPHABET.trim());
                } else if (!seen.add(id)) {
                    problems.add("senderCompId " + id + " is configured twice");
                }
                if (session.targetCompId() == null || session.targetCompId().isEmpty()) {
                    problems.add("session " + id + ": targetCompId is required");
                }
                if (session.password() == null || session.password().isEmpty()) {
                    problems.add("session " + id + ": password is required");
                }
                if (session.minHeartBtIntSeconds() < 0
                        || session.minHeartBtIntSeconds() > FixSession.MAX_HEARTBEAT_SECONDS) {
                    problems.add("session " + id + ": minHeartBtIntSeconds must be 1 to "
                            + FixSession.MAX_HEARTBEAT_SECONDS + ", or 0 for the gateway's, got "
                            + session.minHeartBtIntSeconds());
                }
                session.validateTlsAndThrottle(problems, tls != null && tls.asksForClientCertificates());
                if (session.hasMarketData()) {
                    if (marketData == null) {
                        problems.add("session " + id + ": marketData needs the gateway's marketData section");
                    } else {
                        session.marketData().validate(id, marketData.instruments(), problems);
                    }
                }
                session.cancelOnDisconnect().validate(id, problems);
                session.validateDropCopy(problems);
                try {
                    session.resetPolicy();
                } catch (final IllegalArgumentException e) {
                    problems.add("session " + id + ": " + e.getMessage());
                }
                if (session.firm() != null && ShortText.parse(session.firm()) == ShortText.INVALID) {
                    problems.add("session " + id + ": firm '" + session.firm() + "' must be 1 to 10 characters of"
                            + " letters, digits and " + ShortText.ALPHABET.trim());
                }
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("invalid gateway configuration: " + String.join("; ", problems));
        }
        return this;
    }

    public int gatewayId() {
        return gatewayId;
    }

    public GatewayConfig gatewayId(final int gatewayId) {
        this.gatewayId = gatewayId;
        return this;
    }

    public Path journalRoot() {
        return Path.of(journalRoot);
    }

    public GatewayConfig journalRoot(final Path journalRoot) {
        this.journalRoot = journalRoot.toString();
        return this;
    }

    public ListenAddress listen() {
        return ListenAddress.parse(listen);
    }

    public GatewayConfig listen(final String listen) {
        this.listen = listen;
        return this;
    }

    /** @return every address the gateway listens on: {@code listen} first, then {@code alsoListen}. */
    public List<ListenAddress> listens() {
        final List<ListenAddress> listens = new ArrayList<>();
        listens.add(ListenAddress.parse(listen));
        if (alsoListen != null) {
            for (final String address : alsoListen) {
                listens.add(ListenAddress.parse(address));
            }
        }
        return listens;
    }

    /** Adds a listen address beside {@code listen}. */
    public GatewayConfig alsoListen(final String address) {
        alsoListen.add(address);
        return this;
    }

    /** @return the TLS settings of the TLS listen addresses, or null if none are configured. */
    public TlsConfig tls() {
        return tls;
    }

    public GatewayConfig tls(final TlsConfig tls) {
        this.tls = tls;
        return this;
    }

    /** @return what the I/O thread does when a round found no work */
    public IdleConfig idle() {
        return idle;
    }

    public GatewayConfig idle(final IdleConfig idle) {
        this.idle = idle;
        return this;
    }

    public int maxMessageBytes() {
        return maxMessageBytes;
    }

    public GatewayConfig maxMessageBytes(final int maxMessageBytes) {
        this.maxMessageBytes = maxMessageBytes;
        return this;
    }

    public int sendBufferBytes() {
        return sendBufferBytes;
    }

    public GatewayConfig sendBufferBytes(final int sendBufferBytes) {
        this.sendBufferBytes = sendBufferBytes;
        return this;
    }

    public long sendingTimeToleranceMillis() {
        return sendingTimeToleranceMillis;
    }

    public long logoutTimeoutMillis() {
        return logoutTimeoutMillis;
    }

    /** @return how long a new connection may take to log on before it is closed. */
    public long logonTimeoutMillis() {
        return logonTimeoutMillis;
    }

    public GatewayConfig logonTimeoutMillis(final long logonTimeoutMillis) {
        this.logonTimeoutMillis = logonTimeoutMillis;
        return this;
    }

    /** @return SO_SNDBUF for client sockets, or 0 to leave the kernel's default (autotuned for TCP). */
    public int socketSendBufferBytes() {
        return socketSendBufferBytes;
    }

    public GatewayConfig socketSendBufferBytes(final int socketSendBufferBytes) {
        this.socketSendBufferBytes = socketSendBufferBytes;
        return this;
    }

    /** @return the smallest HeartBtInt (108) a Logon may ask for, in seconds, unless the session sets its own. */
    public int minHeartBtIntSeconds() {
        return minHeartBtIntSeconds;
    }

    public GatewayConfig minHeartBtIntSeconds(final int seconds) {
        this.minHeartBtIntSeconds = seconds;
        return this;
    }

    /** @return the smallest HeartBtInt (108) {@code session} may log on with: its own minimum, or the gateway's. */
    public int minHeartBtIntSeconds(final SessionConfig session) {
        return session.minHeartBtIntSeconds() > 0 ? session.minHeartBtIntSeconds() : minHeartBtIntSeconds;
    }

    /** @return the TCP keepalive applied to every accepted TCP connection. */
    public TcpKeepalive tcpKeepalive() {
        return new TcpKeepalive(tcpKeepaliveIdleSeconds, tcpKeepaliveIntervalSeconds);
    }

    public GatewayConfig tcpKeepalive(final int idleSeconds, final int intervalSeconds) {
        this.tcpKeepaliveIdleSeconds = idleSeconds;
        this.tcpKeepaliveIntervalSeconds = intervalSeconds;
        return this;
    }

    /** @return the CPU to pin the I/O thread to, or {@link CpuPinning#NONE}. */
    public int pinCpu() {
        return pinCpu;
    }

    public GatewayConfig pinCpu(final int cpu) {
        this.pinCpu = cpu;
        return this;
    }

    /** @return connections the gateway holds at most (logged on, waiting for a Logon, or closing). */
    public int maxConnections() {
        return maxConnections;
    }

    /**
     * @return connections one TCP source address holds at most; Unix domain socket peers are all local and
     *         only {@link #maxConnections()} applies to them
     */
    public int maxConnectionsPerAddress() {
        return maxConnectionsPerAddress;
    }

    public GatewayConfig maxConnectionsPerAddress(final int maxConnectionsPerAddress) {
        this.maxConnectionsPerAddress = maxConnectionsPerAddress;
        return this;
    }

    /** @return connections that may wait for their Logon at once: buffer pairs allocated at start for them. */
    public int preLogonBuffers() {
        return preLogonBuffers;
    }

    /**
     * @return connections one TCP source address may have waiting for their Logon at once (at most
     *         {@link #preLogonBuffers()} count); a newer one from that address evicts its oldest
     */
    public int preLogonBuffersPerAddress() {
        return preLogonBuffersPerAddress;
    }

    public GatewayConfig preLogonBuffersPerAddress(final int preLogonBuffersPerAddress) {
        this.preLogonBuffersPerAddress = preLogonBuffersPerAddress;
        return this;
    }

    /** @return failed logons in a row before a CompID from a source address, or the address, is blocked. */
    public int logonFailuresAllowed() {
        return logonFailuresAllowed;
    }

    /** @return the first block after too many failed logons; each further failure doubles it. */
    public long logonBackoffMillis() {
        return logonBackoffMillis;
    }

    public GatewayConfig logonBackoff(final long firstMillis, final long maxMillis) {
        this.logonBackoffMillis = firstMillis;
        this.logonBackoffMaxMillis = maxMillis;
        return this;
    }

    /** @return the longest block after failed logons. */
    public long logonBackoffMaxMillis() {
        return logonBackoffMaxMillis;
    }

    /**
     * @return how many bytes of disk are kept reserved ahead of each of the gateway's journal writers
     * ({@link JournalSpace}): below half of it new orders are refused ("journal disk full"), below an eighth the
     * gateway stops
     */
    public long journalReserveBytes() {
        return journalReserveBytes;
    }

    public GatewayConfig journalReserveBytes(final long bytes) {
        this.journalReserveBytes = bytes;
        return this;
    }

    /** @return the free space on the journals' filesystem below which the gateway logs a warning */
    public long diskWarningBytes() {
        return diskWarningBytes;
    }

    public GatewayConfig diskWarningBytes(final long bytes) {
        this.diskWarningBytes = bytes;
        return this;
    }

    /** @return when a message may reach its client relative to the journals' replication ({@code replication}) */
    public GatewayReplication replication() {
        return GatewayReplication.parse(replication);
    }

    public GatewayConfig replication(final GatewayReplication mode) {
        this.replication = mode.name().toLowerCase();
        return this;
    }

    /**
     * @return true if the gateway keeps its live counters in {@code <journalRoot>/counters/gateway-<id>.counters}
     * ({@code counters}, the default); false if it keeps none (no file, no counter writes)
     */
    public boolean counters() {
        return counters;
    }

    public GatewayConfig counters(final boolean counters) {
        this.counters = counters;
        return this;
    }

    /**
     * @return how the ExecIDs of the reports the gateway makes itself are numbered ({@code idKey}, the engine's key
     *         setting: empty for a built-in key, {@code counters} for none, see {@link PublicIds})
     */
    public PublicIds publicIds() {
        return PublicIds.of(idKey);
    }

    public GatewayConfig idKey(final String idKey) {
        this.idKey = idKey;
        return this;
    }

    /** @return the FIX market data this gateway serves, or null for none */
    public GatewayMarketData marketData() {
        return marketData;
    }

    public GatewayConfig marketData(final GatewayMarketData setting) {
        this.marketData = setting;
        return this;
    }

    public List<SessionConfig> sessions() {
        return sessions;
    }

    public GatewayConfig session(final SessionConfig session) {
        sessions.add(session);
        return this;
    }
}
