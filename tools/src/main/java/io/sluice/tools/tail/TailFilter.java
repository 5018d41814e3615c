package io.sluice.tools.tail;

import org.agrona.collections.IntHashSet;
import org.agrona.collections.LongHashSet;

/**
 * Which messages the tail's figures cover: a window of FIX receive times (the start of every path, so all
 * hops of one message fall in or out together), and optionally some gateways and sessions. A command is
 * judged by its own gateway and session, a report or delivery by the gateway and session it goes to.
 */
final class TailFilter {
    private final IntHashSet gateways = new IntHashSet();
    private final LongHashSet sessions = new LongHashSet();
    private long sinceTicks;
    private final long untilTicks;

    TailFilter(final int[] gateways, final long[] sessions, final long sinceTicks, final long untilTicks) {
        for (final int gateway : gateways) {
            this.gateways.add(gateway);
        }
        for (final long session : sessions) {
            this.sessions.add(session);
        }
        this.sinceTicks = sinceTicks;
        this.untilTicks = untilTicks;
    }

    /** Narrows the window to messages whose FIX bytes arrived at or after {@code ticks}. */
    void notBefore(final long ticks) {
        sinceTicks = Math.max(sinceTicks, ticks);
    }

    /** @return whether a message whose FIX bytes arrived at {@code fixReceived} is in the time window. */
    boolean inWindow(final long fixReceived) {
        return fixReceived >= sinceTicks && fixReceived < untilTicks;
    }

    /** @return whether messages of {@code gateway} and {@code session} are followed. */
    boolean accepts(final int gateway, final long session) {
        return acceptsGateway(gateway) && (sessions.isEmpty() || sessions.contains(session));
    }

    /** @return whether {@code gateway} is followed. */
    boolean acceptsGateway(final int gateway) {
        return gateways.isEmpty() || gateways.contains(gateway);
    }
}
