package io.sluice.gateway;

import io.sluice.contracts.GatewayToEngine;
import io.sluice.contracts.journal.CorruptJournalException;
import io.sluice.contracts.journal.JournalReader;
import io.sluice.contracts.journal.Journals;
import io.sluice.gateway.codec.ShortText;
import io.sluice.gateway.session.FixAcceptor;
import io.sluice.gateway.session.FixApplication;
import io.sluice.gateway.session.FixSession;
import io.sluice.gateway.session.LogonThrottle;
import io.sluice.gateway.transport.ConnectionHandler;
import io.sluice.gateway.transport.NioConnection;
import io.sluice.gateway.transport.NioTransport;
import io.sluice.runtime.counters.AcknowledgementWaiters;
import io.sluice.runtime.journal.JournalDiskFullException;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.NanoClock;

import java.net.SocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One gateway process's work on one thread, an Agrona {@link Agent} wired from a concluded {@link GatewayContext}.
 * <p>
 * It accepts FIX sessions ({@link NioTransport}, {@link FixAcceptor}), writes their orders as commands to the gateway
 * journal ({@link OrderEntry}), tails the engine journal and delivers this gateway's reports and the drop copies of
 * its drop-copy sessions ({@link ReportDelivery}),
 * keeps session state in the gateway's own journal ({@link JournalSessionStore}), and carries out the operator's
 * commands for its sessions ({@link GatewayAdmin}, read from the admin journal at the housekeeping pace). Its context
 * has recovered everything from the journals: sequence numbers, the resend store, the next command eventId, and the
 * engine-journal position delivered up to. The thread that launches a gateway must be the one that runs it (Chronicle
 * appenders and tailers are single-threaded): a {@link GatewayAgent} launches it on its own thread. Disk space is kept
 * reserved ahead of both journal writers ({@link GatewaySpace}): on a full disk new orders are refused, and
 * {@link #doWork()} stops with a {@link JournalDiskFullException} before the reserve is used up.
 * <p>
 * Errors: a failure while processing a client's message is confined to that client: its session is logged out
 * ({@value #INTERNAL_ERROR_TEXT}) and the error logged with the session and the journals' positions, and the gateway
 * serves the others on. Any other failure (reading reports, the journals, the selector) escapes {@link #doWork()}
 * and stops the gateway: its process exits with a code and a message.
 */
public final class Gateway implements Agent, AutoCloseable {
    /** The Logout text a client gets when the gateway failed on one of its messages. */
    public static final String INTERNAL_ERROR_TEXT = "Internal error";
    /** The most fields a client message may have. */
    public static final int MAX_FIELDS = 256;
    private static final int REPORTS_PER_POLL = 64;
    private static final int CLOSE_RESERVE = 1024;
    private static final long HOUSEKEEPING_INTERVAL_NANOS = 100_000_000L;
    private static final long REFUSAL_LOG_INTERVAL_NANOS = 1_000_000_000L;

    private final GatewayContext context;
    private final GatewayConfig config;
    private final ChronicleQueue commandJournal;
    private final ChronicleQueue engineJournal;
    private final JournalSessionStore store;
    private final GatewaySpace space;
    private final OrderEntry orderEntry;
    private final FixAcceptor acceptor;
    private final ExcerptTailer engineTailer;
    private final JournalReader engineReader;
    private final NioTransport transport;
    private final long logonTimeoutNanos;
    private final GatewayLog log;
    private final GatewayCounters counters;
    private final AcknowledgedSends acknowledgedSends;
    private final CancelOnDisconnect cancelOnDisconnect;
    private final GatewayAdmin admin;
    private final FixMarketData marketData;
    private final NanoClock nanoClock;
    private long nextHousekeepingNanos;
    private long lastRefusalLogNanos;

    /**
     * Concludes {@code context} ({@link GatewayContext#conclude()}) and wires a gateway from it, on the calling thread,
     * which must be the one that runs it. If wiring fails, the context is closed again.
     */
    public static Gateway launch(final GatewayContext context) {
        context.conclude();
        try {
            return new Gateway(context);
        } catch (final RuntimeException | Error e) {
            context.close();
            throw e;
        }
    }

    private Gateway(final GatewayContext context) {
        this.context = context;
        this.config = context.config();
        this.nanoClock = context.nanoClock();
        final EpochClock clock = context.epochClock();
        final int id = config.gatewayId();
        final Path root = config.journalRoot();
        commandJournal = context.commandJournal();
        engineJournal = context.engineJournal();
        store = context.store();
        counters = context.counters();
        final ExcerptAppender commandAppender = commandJournal.createAppender();
        final GatewayToEngine commands = Journals.methodWriter(commandAppender, GatewayToEngine.class);
        space = new GatewaySpace(id, context.commandSpace(), commandAppender, context.recordSpace(), store.appender(),
                nanoClock);
        NioTransport bound = null;
        try {
            orderEntry = new OrderEntry(id, config.sessions(), commands, space,
                    new GatewayExecIds(id, config.publicIds(), store), context.lastEventId());
            marketData = config.marketData() == null ? null
                    : FixMarketData.wire(config, context.marketDataJournal(), clock, orderEntry);
            final FixApplication application = marketData == null ? orderEntry : marketData.requests();
            final FixApplication dropCopyRefusals = new DropCopyRefusals(orderEntry);
            final List<FixSession> sessions = new ArrayList<>();
            for (final SessionConfig sessionConfig : config.sessions()) {
                final FixSession session = new FixSession(sessionConfig.identity(), store, InboundThrottle.wrap(
                        sessionConfig.dropCopy() == null ? application : dropCopyRefusals, sessionConfig), clock,
                        config.maxMessageBytes(), config.sendingTimeToleranceMillis(), config.logoutTimeoutMillis(),
                        config.minHeartBtIntSeconds(sessionConfig)).resets(sessionConfig.resetPolicy());
                session.restore(store.nextSenderSeq(session.id()), store.nextTargetSeq(session.id()));
                if (counters != null) {
                    session.counters(counters.forSession(sessionConfig.identity()));
                }
                sessions.add(session);
            }
            log = new GatewayLog(id);
            cancelOnDisconnect = new CancelOnDisconnect(sessions, config.sessions(), orderEntry, clock, log);
            cancelOnDisconnect.armAfterRestart(context.recovered(), store);
            acceptor = new FixAcceptor(sessions, clock, config.maxMessageBytes(), MAX_FIELDS,
                    cancelOnDisconnect.watching(counters == null ? log : counters.counting(log)),
                    new LogonThrottle(config.logonFailuresAllowed(), config.logonBackoffMillis(),
                            config.logonBackoffMaxMillis()), ClientCertificates.of(config.sessions()),
                    config.validation());
            admin = new GatewayAdmin(id, acceptor, store, context.adminJournal());

            engineTailer = engineJournal.createTailer();
            // Start again at the excerpt of the last report delivered: if the gateway stopped part way through it,
            // its other reports are still to be delivered.
            final long lastExcerpt = store.deliveredEngineIndex();
            final long alreadyDelivered = lastExcerpt != 0 && engineTailer.moveToIndex(lastExcerpt)
                    ? store.reportsDeliveredFromExcerpt() : 0;
            final ReportDelivery delivery = new ReportDelivery(id, acceptor, new DropCopies(config.sessions(), acceptor),
                    store, engineTailer, alreadyDelivered);
            engineReader = new JournalReader(engineJournal, engineTailer, delivery);
            bound = new NioTransport(context.listenSockets(), context.tls(), new Connections(acceptor, this, delivery, log),
                    2 * config.maxMessageBytes() + 64, config.sendBufferBytes(), CLOSE_RESERVE,
                    config.socketSendBufferBytes(), config.logoutTimeoutMillis(),
                    new NioTransport.Admission(config.maxConnections(), config.maxConnectionsPerAddress(),
                            config.preLogonBuffers(), config.preLogonBuffersPerAddress()), config.tcpKeepalive(),
                    config.marketData() == null ? 0 : config.marketData().writeIntervalNanos(),
                    config.marketData() == null ? 0 : config.marketData().maxWritesPerSecond(), nanoClock);
            transport = bound;
            for (final FixSession session : sessions) {
                transport.reserveSessionBuffers(session.id());
            }
            final String deliveries = Journals.gatewayDeliveries(root, id).getFileName().toString();
            if (config.replication() == GatewayReplication.ACKNOWLEDGED) {
                acknowledgedSends = new AcknowledgedSends(id, root, deliveries, store, nanoClock);
                transport.holdSendsFor(acknowledgedSends);
            } else {
                acknowledgedSends = null;
                AcknowledgementWaiters.withdraw(root, deliveries); // an earlier run's, in acknowledged mode
            }
        } catch (final RuntimeException | Error e) {
            CloseHelper.closeAll(bound, space);
            throw e;
        }
        logonTimeoutNanos = config.logonTimeoutMillis() * 1_000_000L;
        lastRefusalLogNanos = nanoClock.nanoTime();
    }

    /**
     * One round of work: socket events, up to 64 engine reports (written out at once when market data is served), up
     * to 16 market-data batches fanned out to their subscribers, session timers, one write per connection for
     * everything they queued, and every 100 ms closing connections that did not log on in time, carrying out new
     * admin commands, and (at most once a second) logging connections refused by the admission limits; @return work
     * done.
     *
     * @throws JournalDiskFullException when a journal's disk reserve is used up and no more can be had: every client
     *                                  has been sent a Logout, and the gateway stops before writing into space it
     *                                  does not have
     */
    @Override
    public int doWork() {
        int work = transport.poll();
        for (int i = 0; i < REPORTS_PER_POLL && engineReader.readOne(); i++) {
            work++;
        }
        if (marketData != null) {
            work += transport.flushQueued();
            work += marketData.poll();
        }
        work += acceptor.onTimer();
        work += cancelOnDisconnect.onTimer();
        work += transport.flush();
        work += transport.releaseHeld();
        final long now = nanoClock.nanoTime();
        if (now - nextHousekeepingNanos >= 0) {
            nextHousekeepingNanos = now + HOUSEKEEPING_INTERVAL_NANOS;
            if (acknowledgedSends != null) {
                acknowledgedSends.check(now);
            }
            work += transport.closeUnboundOlderThan(logonTimeoutNanos);
            work += admin.poll();
            store.checkpointOnNewDay();
            if (counters != null) {
                counters.sample(acceptor, transport.connectionCount(), orderEntry.lastEventId(), engineTailer.index());
                if (marketData != null) {
                    marketData.sample(counters);
                }
            }
            if ((transport.refused() > 0 || transport.evicted() > 0)
                    && now - lastRefusalLogNanos >= REFUSAL_LOG_INTERVAL_NANOS) {
                logAdmission((now - lastRefusalLogNanos) / 1_000_000L);
                lastRefusalLogNanos = now;
            }
        }
        if (work > 0) {
            space.follow();
        }
        if (space.exhausted()) {
            logOutEverySession(DiskFullRejects.TEXT);
            throw new JournalDiskFullException("gateway " + config.gatewayId()
                    + " stopped, journal disk full: " + space.describeShortage());
        }
        return work;
    }

    @Override
    public void onClose() {
        close();
    }

    @Override
    public String roleName() {
        return "gateway " + config.gatewayId();
    }

    /** Logs the connections refused, and those evicted while waiting for their Logon, in the last {@code sinceMillis}. */
    private void logAdmission(final long sinceMillis) {
        if (transport.refused() > 0) {
            log.onConnectionsRefused(transport, sinceMillis);
            transport.clearRefused();
        }
        if (transport.evicted() > 0) {
            log.onConnectionsEvicted(transport, sinceMillis);
            transport.clearEvicted();
        }
    }

    /** Sends every logged-on client a Logout saying why, into what is left of the reserve, and flushes it. */
    private void logOutEverySession(final String text) {
        for (int i = 0; i < acceptor.sessionCount(); i++) {
            final FixSession session = acceptor.session(i);
            if (session.isLoggedOn()) {
                session.logout(text);
            }
        }
        transport.flush();
    }

    /** @return where the gateway listens first (the actual port if the configuration gave 0). */
    public SocketAddress localAddress() {
        return transport.localAddress();
    }

    /** @return the {@code index}th address the gateway listens on ({@code listen}, then {@code alsoListen}). */
    public SocketAddress localAddress(final int index) {
        return transport.localAddress(index);
    }

    /** @return every address the gateway listens on, as bound, in the configuration's form. */
    public List<String> describeListening() {
        return transport.describeListening();
    }

    /** @return the session of a client SenderCompID, or null. */
    public FixSession session(final String senderCompId) {
        return acceptor.session(ShortText.parse(senderCompId));
    }

    /** @return the eventId of the last command written to the gateway journal. */
    public long lastEventId() {
        return orderEntry.lastEventId();
    }

    /** Closes the gateway's listeners, connections and threads, then its context: journals, files and locks. */
    @Override
    public void close() {
        CloseHelper.closeAll(acknowledgedSends, space, transport, context);
    }

    /**
     * Logs out the session (or closes the connection not yet logged on) whose message processing failed, and logs the
     * failure with the session and the journals' positions: one client's message never stops the gateway.
     */
    private void onMessageFailed(final NioConnection connection, final RuntimeException failure) {
        final FixSession session = connection.session();
        log.onMessageFailed(session, connection.remoteAddress(), "command journal "
                + commandJournal.fileAbsolutePath() + " last written index " + hexIndex(commandJournal.lastIndex())
                + ", engine journal " + engineJournal.fileAbsolutePath()
                + " read up to index " + hexIndex(engineTailer.index()), failure);
        try {
            if (session != null) {
                session.onProcessingFailed(INTERNAL_ERROR_TEXT);
            }
        } finally {
            if (!connection.isClosed()) {
                connection.close();
            }
        }
    }

    private static String hexIndex(final long index) {
        return index < 0 ? "none" : "0x" + Long.toHexString(index);
    }

    /**
     * Connects the transport's connection events to the acceptor, confining a failure to its connection, and its
     * socket writes to the report delivery.
     */
    private static final class Connections implements ConnectionHandler {
        private final FixAcceptor acceptor;
        private final Gateway gateway;
        private final ReportDelivery delivery;
        private final GatewayLog log;

        Connections(final FixAcceptor acceptor, final Gateway gateway, final ReportDelivery delivery,
                    final GatewayLog log) {
            this.acceptor = acceptor;
            this.gateway = gateway;
            this.delivery = delivery;
            this.log = log;
        }

        @Override
        public void onHandshakeDone(final NioConnection connection, final String protocolAndCipherSuite) {
            log.onHandshakeDone(connection.remoteAddress(), protocolAndCipherSuite);
        }

        @Override
        public void onHandshakeFailed(final NioConnection connection, final String reason) {
            log.onHandshakeFailed(connection.remoteAddress(), reason);
            acceptor.onConnectionFailed(connection);
        }

        @Override
        public void onLogonTimeout(final NioConnection connection, final long waitedNanos) {
            log.onLogonTimeout(connection.remoteAddress(), waitedNanos / 1_000_000L);
        }

        @Override
        public void onWritten(final NioConnection connection, final long writtenBytes) {
            delivery.onWritten(connection, writtenBytes);
        }

        @Override
        public int onData(final NioConnection connection, final DirectBuffer buffer, final int offset, final int length,
                          final long receivedTicks) {
            try {
                return acceptor.onData(connection, buffer, offset, length, receivedTicks);
            } catch (final JournalDiskFullException | CorruptJournalException e) {
                throw e; // the journals, not this client: the gateway stops
            } catch (final RuntimeException e) {
                gateway.onMessageFailed(connection, e);
                return -1;
            }
        }

        @Override
        public void onDisconnected(final NioConnection connection) {
            acceptor.onDisconnected(connection);
            delivery.onClosed(connection);
        }
    }
}
