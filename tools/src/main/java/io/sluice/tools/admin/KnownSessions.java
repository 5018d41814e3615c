package io.sluice.tools.admin;

import io.sluice.gateway.session.FixSessionState;
import io.sluice.gateway.session.SessionCounters;
import io.sluice.runtime.counters.CountersDirectory;
import io.sluice.runtime.counters.CountersDirectory.Liveness;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Every session of every gateway under a deployment's root, as the gateways' counters files show them: a gateway
 * publishes each of its sessions' state and next sequence numbers ({@link SessionCounters}), so {@code ./sluice admin}
 * lists them, and refuses a session no gateway hosts, without writing anything. A gateway that never ran here has
 * no counters file and is unknown.
 */
final class KnownSessions {
    private static final String GATEWAY_PROCESS_PREFIX = "gateway-";
    private static final String ENGINE_PROCESS = "engine";

    /** One session as its gateway last published it. */
    record Session(int gatewayId, String clientCompId, String gatewayCompId, FixSessionState state, long nextSenderSeq,
                   long nextTargetSeq) {
    }

    private final List<Session> sessions;
    private final Map<Integer, Liveness> gateways;
    private final Liveness engine;

    private KnownSessions(final List<Session> sessions, final Map<Integer, Liveness> gateways, final Liveness engine) {
        this.sessions = sessions;
        this.gateways = gateways;
        this.engine = engine;
    }

    /** @return what the counters files under {@code root} show now */
    static KnownSessions read(final Path root) {
        final List<Session> sessions = new ArrayList<>();
        final Map<Integer, Liveness> gateways = new TreeMap<>();
        Liveness engine = null;
        for (final CountersDirectory.ProcessCounters process : new CountersDirectory(root).read()) {
            if (ENGINE_PROCESS.equals(process.process())) {
                engine = process.liveness();
                continue;
            }
            final int gatewayId = gatewayId(process.process());
            if (gatewayId <= 0) {
                continue;
            }
            gateways.put(gatewayId, process.liveness());
            final Map<String, long[]> standing = new TreeMap<>();
            for (final CountersDirectory.Counter counter : process.counters()) {
                final String label = counter.label().labels().get("session");
                final int slot = switch (counter.label().metric()) {
                    case SessionCounters.STATE_METRIC -> 0;
                    case SessionCounters.NEXT_SENDER_SEQ_METRIC -> 1;
                    case SessionCounters.NEXT_TARGET_SEQ_METRIC -> 2;
                    default -> -1;
                };
                if (label != null && slot >= 0) {
                    standing.computeIfAbsent(label, l -> new long[3])[slot] = counter.value();
                }
            }
            standing.forEach((label, values) -> {
                final int dash = label.indexOf('-');
                final FixSessionState[] states = FixSessionState.values();
                sessions.add(new Session(gatewayId, dash < 0 ? label : label.substring(0, dash),
                        dash < 0 ? "" : label.substring(dash + 1),
                        values[0] >= 0 && values[0] < states.length ? states[(int) values[0]] : FixSessionState.DISCONNECTED,
                        values[1], values[2]));
            });
        }
        sessions.sort(Comparator.comparingInt(Session::gatewayId).thenComparing(Session::clientCompId));
        return new KnownSessions(List.copyOf(sessions), gateways, engine);
    }

    /** @return the gateway id of a counters file's process name ({@code gateway-<id>}), or 0 if it names no gateway */
    private static int gatewayId(final String process) {
        if (!process.startsWith(GATEWAY_PROCESS_PREFIX)) {
            return 0;
        }
        try {
            return Integer.parseInt(process.substring(GATEWAY_PROCESS_PREFIX.length()));
        } catch (final NumberFormatException e) {
            return 0;
        }
    }

    /** @return every session, by gateway then SenderCompID */
    List<Session> all() {
        return sessions;
    }

    /** @return the session {@code clientCompId} of gateway {@code gatewayId}, if that gateway hosts it */
    Optional<Session> find(final int gatewayId, final String clientCompId) {
        return sessions.stream().filter(s -> s.gatewayId() == gatewayId && s.clientCompId().equals(clientCompId))
                .findFirst();
    }

    /** @return the sessions of gateway {@code gatewayId}, as {@code GW:COMPID} texts, for an error message */
    List<String> sessionsOf(final int gatewayId) {
        return sessions.stream().filter(s -> s.gatewayId() == gatewayId).map(s -> gatewayId + ":" + s.clientCompId())
                .toList();
    }

    /** @return whether gateway {@code gatewayId}'s process runs; null if it never ran under this root */
    Liveness gateway(final int gatewayId) {
        return gateways.get(gatewayId);
    }

    /** @return the ids of the gateways that ever ran under this root */
    List<Integer> gatewayIds() {
        return List.copyOf(gateways.keySet());
    }

    /** @return whether the engine's process runs; null if it never ran under this root */
    Liveness engine() {
        return engine;
    }
}
