package io.sluice.gateway;

import io.sluice.contracts.journal.ExcerptCount;
import io.sluice.gateway.session.FixAcceptor;
import io.sluice.gateway.session.FixConnection;
import io.sluice.gateway.session.FixSession;
import io.sluice.gateway.session.MappedSessionCounters;
import io.sluice.gateway.session.SessionCounters;
import io.sluice.gateway.session.SessionEvents;
import io.sluice.gateway.session.SessionIdentity;
import io.sluice.runtime.counters.CounterLabel;
import io.sluice.runtime.counters.CountersFile;
import net.openhft.chronicle.queue.ChronicleQueue;
import org.agrona.concurrent.status.AtomicCounter;

import java.net.SocketAddress;
import java.nio.file.Path;

/**
 * A gateway process's live counters, in its {@link CountersFile} ({@code <root>/counters/gateway-<id>.counters}):
 * per FIX session ({@link MappedSessionCounters}, labelled {@code session=<SenderCompID>-<TargetCompID>}) and for the
 * gateway as a whole: sessions logged on, open connections, connections refused before a Logon, the eventId of the
 * last command it wrote to its journal (the engine publishes the last it consumed: the difference is the engine's lag
 * behind this gateway), the engine journal's index it reads at (the engine publishes its own last index), and how
 * many engine-journal excerpts it has not read yet ({@link UnreadEngineExcerpts}).
 * <p>
 * Only a gateway with {@code counters: true} (the default) has them: with {@code counters: false} it has no
 * counters file, and its sessions count into {@link SessionCounters#NONE}, which writes nothing.
 * <p>
 * Allocated at start; the I/O thread updates them with single-writer ordered writes. The sampled ones (connections,
 * free send-buffer bytes, each session's state and sequence numbers, the two positions) are set at the gateway's
 * housekeeping pace ({@link #sample}), not per message.
 */
final class GatewayCounters implements AutoCloseable {
    private final CountersFile file;
    private final AtomicCounter loggedOn;
    private final AtomicCounter connections;
    private final AtomicCounter refused;
    private final AtomicCounter lastEventId;
    private final AtomicCounter engineIndex;
    private final AtomicCounter engineExcerptsUnread;
    private final UnreadEngineExcerpts unread;
    private final AtomicCounter marketDataSequence;
    private final AtomicCounter marketDataConflated;
    private final AtomicCounter marketDataCutOff;

    /** Creates the counters file of gateway {@code gatewayId} under {@code root}, with the gateway's own counters. */
    GatewayCounters(final Path root, final int gatewayId, final ChronicleQueue engineJournal,
                    final boolean marketData) {
        file = CountersFile.create(root, processName(gatewayId));
        loggedOn = file.gauge(CounterLabel.of("sluice_gateway_sessions_logged_on"));
        connections = file.gauge(CounterLabel.of("sluice_gateway_connections"));
        refused = file.counter(CounterLabel.of("sluice_gateway_logons_refused_total"));
        lastEventId = file.gauge(CounterLabel.of("sluice_gateway_last_event_id"));
        engineIndex = file.gauge(CounterLabel.of("sluice_gateway_engine_index"));
        engineExcerptsUnread = file.gauge(CounterLabel.of("sluice_gateway_engine_excerpts_unread"));
        marketDataSequence = marketData ? file.gauge(CounterLabel.of("sluice_gateway_market_data_sequence")) : null;
        marketDataConflated = marketData
                ? file.counter(CounterLabel.of("sluice_gateway_market_data_conflated_total")) : null;
        marketDataCutOff = marketData ? file.counter(CounterLabel.of("sluice_gateway_market_data_cut_off_total")) : null;
        unread = new UnreadEngineExcerpts(engineJournal);
    }

    /** @return new counters in the file for the session of {@code identity}, labelled with its CompIDs */
    SessionCounters forSession(final SessionIdentity identity) {
        final String label = identity.clientCompId() + "-" + identity.gatewayCompId();
        return new MappedSessionCounters(new MappedSessionCounters.CounterFactory() {
            @Override
            public AtomicCounter counter(final String metric, final String labelName, final String labelValue) {
                return file.counter(labelName == null ? CounterLabel.of(metric, "session", label)
                        : CounterLabel.of(metric, "session", label, labelName, labelValue));
            }

            @Override
            public AtomicCounter gauge(final String metric) {
                return file.gauge(CounterLabel.of(metric, "session", label));
            }
        });
    }

    /** @return the process name of gateway {@code gatewayId}, as its counters file is named: {@code gateway-<id>} */
    static String processName(final int gatewayId) {
        return "gateway-" + gatewayId;
    }

    /** @return {@code events}, counting logons and disconnects (by reason) on the way */
    SessionEvents counting(final SessionEvents events) {
        return new SessionEvents() {
            @Override
            public void onLogon(final FixSession session, final long nextSenderSeq, final long nextTargetSeq) {
                session.counters().logon();
                loggedOn.incrementRelease();
                events.onLogon(session, nextSenderSeq, nextTargetSeq);
            }

            @Override
            public void onDisconnect(final FixSession session, final CharSequence reason) {
                session.counters().disconnect(reason == null ? SessionCounters.DisconnectReason.CLIENT_LOGOUT
                        // the very constant FixSession passes when the transport lost the connection
                        : reason == FixSession.CONNECTION_LOST ? SessionCounters.DisconnectReason.CONNECTION_LOST
                        : SessionCounters.DisconnectReason.GATEWAY_LOGOUT);
                loggedOn.getAndAddRelease(-1);
                events.onDisconnect(session, reason);
            }

            @Override
            public void onRefused(final SocketAddress from, final CharSequence senderCompId, final CharSequence reason) {
                refused.incrementRelease();
                events.onRefused(from, senderCompId, reason);
            }
        };
    }

    /**
     * Samples the FIX market data: the feed sequence applied last, incrementals dropped for subscribers behind their
     * sockets, sessions logged out for staying behind (only a gateway with {@code marketData} has these).
     */
    void sampleMarketData(final long sequence, final long conflated, final long cutOff) {
        marketDataSequence.setRelease(sequence);
        marketDataConflated.setRelease(conflated);
        marketDataCutOff.setRelease(cutOff);
    }

    /**
     * Samples what is not counted per event: connections, send buffers, each session's state and sequence numbers,
     * the gateway's positions in the journals and the engine-journal excerpts it has not read ({@code engineReadIndex}:
     * the index its tailer reads next).
     */
    void sample(final FixAcceptor sessions, final int connectionCount, final long lastWrittenEventId,
                final long engineReadIndex) {
        connections.setRelease(connectionCount);
        for (int i = 0; i < sessions.sessionCount(); i++) {
            final FixSession session = sessions.session(i);
            final FixConnection connection = session.connection();
            session.counters().sendBufferFree(connection == null ? 0 : connection.writableBytes());
            session.counters().standing(session.state(), session.nextSenderSeq(), session.nextTargetSeq());
        }
        lastEventId.setRelease(lastWrittenEventId);
        engineIndex.setRelease(engineReadIndex);
        final long unreadExcerpts = unread.unread(engineReadIndex);
        if (unreadExcerpts != ExcerptCount.UNKNOWN) { // else the last sample's figure stands until the next
            engineExcerptsUnread.setRelease(unreadExcerpts);
        }
    }

    @Override
    public void close() {
        unread.close();
        file.close();
    }
}
