package io.sluice.gateway;

import io.sluice.contracts.journal.Journals;
import io.sluice.gateway.transport.ListenSockets;
import io.sluice.gateway.transport.NioTransport;
import io.sluice.gateway.transport.TlsContext;
import io.sluice.runtime.admin.AdminJournal;
import io.sluice.runtime.journal.JournalSpace;
import io.sluice.runtime.journal.RootRole;
import io.sluice.runtime.process.ProcessLock;
import net.openhft.chronicle.queue.ChronicleQueue;
import org.agrona.CloseHelper;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.SystemNanoClock;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * What one gateway process is given and holds open, made ready by {@link #conclude()} before any of its agents is built.
 * <p>
 * As Aeron's {@code MediaDriver.Context}: set the configuration, the process's environment (where TLS passwords named
 * by variable are read; empty by default) and its clocks, then {@link #conclude()} validates and does every file-system
 * step, in this order: the configuration and the JVM flags checked; the writer locks of the gateway's two journals taken
 * ({@link ProcessLock#journalWriter}: one process per gateway id); a replica's root refused ({@link RootRole}); an admin
 * journal others could write refused ({@link AdminJournal#requireOwnerOnly}); disk space for every journal checked;
 * the sessions claimed in the deployment ({@link SessionClaims}); the journals opened; the session store recovered
 * ({@link JournalSessionStore}, {@link CommandJournalRecovery}; reading on from a state read ahead, if given,
 * {@link #sessionStoreReadAhead}) and its checkpoint written; disk space reserved ahead of both writers
 * ({@link JournalSpace}); the admin journal opened; the counters file created ({@link GatewayCounters}, unless
 * {@code counters: false}); the TLS key material loaded; the listen addresses bound ({@link ListenSockets}),
 * unless given bound ({@link #listenSockets(ListenSockets)}). If a step fails, what earlier steps opened is closed
 * again and the failure propagates. A {@link Gateway} is then wired from the concluded context, and closes it last.
 * <p>
 * Chronicle appenders and tailers belong to one thread, so a context is concluded on the thread that runs its gateway
 * ({@link GatewayAgent}).
 */
public final class GatewayContext implements AutoCloseable {
    private GatewayConfig config;
    private Map<String, String> environment = Map.of();
    private EpochClock epochClock = SystemEpochClock.INSTANCE;
    private NanoClock nanoClock = SystemNanoClock.INSTANCE;

    private final List<AutoCloseable> opened = new ArrayList<>();
    private boolean concluded;
    private ChronicleQueue commandJournal;
    private ChronicleQueue engineJournal;
    private JournalSessionStore store;
    private final CancelOnDisconnect.Recovered recovered = new CancelOnDisconnect.Recovered();
    private long lastEventId;
    private JournalSpace commandSpace;
    private JournalSpace recordSpace;
    private ChronicleQueue adminJournal;
    private ChronicleQueue marketDataJournal;
    private GatewayCounters counters;
    private TlsContext tls;
    private ListenSockets listenSockets;
    private SessionStoreRecovery sessionStoreReadAhead;

    /** Sets the gateway's configuration. */
    public GatewayContext config(final GatewayConfig config) {
        this.config = config;
        return this;
    }

    public GatewayConfig config() {
        return config;
    }

    /** Sets the environment TLS passwords named by variable are read from: the process's, read by its main. */
    public GatewayContext environment(final Map<String, String> environment) {
        this.environment = Map.copyOf(environment);
        return this;
    }

    /** Sets the wall clock of sessions, timers and cancel-on-disconnect (by default the system's). */
    public GatewayContext epochClock(final EpochClock epochClock) {
        this.epochClock = epochClock;
        return this;
    }

    public EpochClock epochClock() {
        return epochClock;
    }

    /** Sets the monotonic clock of the housekeeping and connection timeouts (by default the system's). */
    public GatewayContext nanoClock(final NanoClock nanoClock) {
        this.nanoClock = nanoClock;
        return this;
    }

    public NanoClock nanoClock() {
        return nanoClock;
    }

    /**
     * Validates the configuration and does every file-system step of a start, in the order of the class comment.
     *
     * @return this context, concluded
     * @throws IllegalArgumentException listing what is wrong with the configuration, or naming a session another
     *                                  gateway serves
     * @throws io.sluice.runtime.process.LockHeldException if another process writes one of the gateway's journals
     * @throws io.sluice.contracts.journal.CorruptJournalException if a journal is damaged
     */
    public GatewayContext conclude() {
        if (concluded) {
            throw new IllegalStateException("gateway context already concluded");
        }
        if (config == null) {
            throw new IllegalStateException("a gateway context needs a configuration");
        }
        config.validate(environment);
        if (!NioTransport.boxingIsCached()) {
            throw new IllegalArgumentException("the gateway needs the JVM flags in jvm.options (-XX:AutoBoxCacheMax="
                    + NioTransport.CACHED_DESCRIPTORS + "), or its selector allocates on every ready socket");
        }
        try {
            openAll();
        } catch (final RuntimeException | Error e) {
            close();
            throw e;
        }
        concluded = true;
        return this;
    }

    private void openAll() {
        if (listenSockets != null) {
            opened.add(listenSockets);
        }
        final Path root = config.journalRoot();
        final int id = config.gatewayId();
        final Path commandPath = Journals.gatewayJournal(root, id);
        final Path recordPath = Journals.gatewayDeliveries(root, id);
        opened.add(ProcessLock.journalWriter(commandPath, "gateway " + id));
        opened.add(ProcessLock.journalWriter(recordPath, "gateway " + id));
        RootRole.requireNotReplica(root, "gateway " + id);
        AdminJournal.requireOwnerOnly(root);
        for (final Path journal : List.of(commandPath, Journals.engineJournal(root), recordPath)) {
            JournalSpace.requireRoomToCreate(journal, config.journalReserveBytes());
        }
        SessionClaims.claim(config);
        commandJournal = opened(Journals.open(commandPath));
        engineJournal = opened(Journals.open(Journals.engineJournal(root)));
        final ChronicleQueue recordJournal = opened(Journals.open(recordPath));
        store = opened(new JournalSessionStore(recordJournal, config.maxMessageBytes(), sessionStoreReadAhead));
        lastEventId = CommandJournalRecovery.recover(commandJournal, store, recovered);
        // What was just recovered, written down: a restart needs none of this journal before it (./sluice archive).
        store.commandsRecovered(lastEventId);
        store.checkpoint();
        commandSpace = new JournalSpace(commandJournal, config.journalReserveBytes(), config.diskWarningBytes());
        recordSpace = new JournalSpace(recordJournal, config.journalReserveBytes(), config.diskWarningBytes());
        if (!Files.isDirectory(Journals.adminJournal(root))) {
            AdminJournal.open(root, nanoClock).close(); // created owner-only, as its writers create it
        }
        adminJournal = opened(Journals.open(Journals.adminJournal(root)));
        if (config.marketData() != null) {
            marketDataJournal = opened(Journals.open(Journals.marketDataJournal(root)));
        }
        // Without counters: no file, and the sessions keep SessionCounters.NONE, which writes nothing.
        counters = config.counters()
                ? opened(new GatewayCounters(root, id, engineJournal, config.marketData() != null)) : null;
        tls = config.tls() == null ? null : new TlsContext(config.tls().settings(environment));
        if (listenSockets == null) {
            listenSockets = opened(ListenSockets.bind(config.listens()));
        }
    }

    private <T extends AutoCloseable> T opened(final T resource) {
        opened.add(resource);
        return resource;
    }

    /**
     * Gives the gateway its listening sockets bound already (by a gateway started by a standby, while it waited for the
     * promoted root); {@link #conclude()} binds the configured addresses otherwise.
     *
     * @return this context
     */
    public GatewayContext listenSockets(final ListenSockets sockets) {
        this.listenSockets = sockets;
        return this;
    }

    /**
     * Gives the gateway the session store's state read from its own journal before it was its writer (by a gateway
     * started by a standby, while it waited for the promoted root, {@link ReplicaReadAhead}): {@link #conclude()} reads
     * on from there instead of from the journal's start.
     *
     * @param readAhead the state read so far, or null to read the journal from its start
     * @return this context
     */
    public GatewayContext sessionStoreReadAhead(final SessionStoreRecovery readAhead) {
        this.sessionStoreReadAhead = readAhead;
        return this;
    }

    /** @return the gateway's listening sockets, bound */
    ListenSockets listenSockets() {
        requireConcluded();
        return listenSockets;
    }

    /** @return the journal the gateway writes its commands to */
    ChronicleQueue commandJournal() {
        requireConcluded();
        return commandJournal;
    }

    /** @return the engine's journal, which the gateway reads its reports from */
    ChronicleQueue engineJournal() {
        requireConcluded();
        return engineJournal;
    }

    /** @return the session store, recovered from the gateway's own journal */
    JournalSessionStore store() {
        requireConcluded();
        return store;
    }

    /** @return what the command journal says cancel-on-disconnect must know after a restart */
    CancelOnDisconnect.Recovered recovered() {
        requireConcluded();
        return recovered;
    }

    /** @return the eventId of the last command in the command journal: where eventIds continue */
    long lastEventId() {
        requireConcluded();
        return lastEventId;
    }

    /** @return the disk space reserved ahead of the command journal's writer */
    JournalSpace commandSpace() {
        requireConcluded();
        return commandSpace;
    }

    /** @return the disk space reserved ahead of the gateway's own journal's writer */
    JournalSpace recordSpace() {
        requireConcluded();
        return recordSpace;
    }

    /** @return the deployment's admin journal, which the gateway reads operator commands from */
    ChronicleQueue adminJournal() {
        requireConcluded();
        return adminJournal;
    }

    /** @return the market-data journal, which the gateway's FIX market data reads, or null when it serves none */
    ChronicleQueue marketDataJournal() {
        requireConcluded();
        return marketDataJournal;
    }

    /** @return the gateway's counters, or null with {@code counters: false} */
    GatewayCounters counters() {
        requireConcluded();
        return counters;
    }

    /** @return the TLS key material, or null when the gateway serves no TLS address */
    TlsContext tls() {
        requireConcluded();
        return tls;
    }

    private void requireConcluded() {
        if (!concluded) {
            throw new IllegalStateException("gateway context not concluded");
        }
    }

    /** Closes what {@link #conclude()} opened, the journals' writer locks last. */
    @Override
    public void close() {
        final List<AutoCloseable> closing = new ArrayList<>(opened);
        opened.clear();
        Collections.reverse(closing);
        CloseHelper.closeAll(closing);
    }
}
