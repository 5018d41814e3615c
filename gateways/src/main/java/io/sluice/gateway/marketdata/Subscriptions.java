package io.sluice.gateway.marketdata;

import io.sluice.gateway.session.FixConnection;
import io.sluice.gateway.session.FixSession;
import org.agrona.DirectBuffer;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;

/**
 * Every session's market-data subscriptions in one table allocated at start. Each session owns a fixed range of
 * slots (its {@code maxSubscriptions}), and a slot holds one symbol of one MarketDataRequest: its MDReqID, depth (how
 * many of the best levels of each side its client holds), entry types, the connection it was made on, its
 * {@link SubscriptionState} and, while FILLING, the worst price its client holds on each side. A subscription lives as
 * long as the connection it was made on: a slot whose session has another connection, or none, is free again.
 * Single-threaded (the gateway's).
 */
public final class Subscriptions {
    /** The longest MDReqID kept. */
    public static final int MAX_REQ_ID = 64;
    /** Entry-type bits: MDEntryType 0 (bid), 1 (offer), 2 (trade). */
    public static final int BID = 1;
    public static final int OFFER = 2;
    public static final int TRADE = 4;
    /** The depth of a full-book subscription (MarketDepth 0): every level of each side. */
    public static final int FULL_BOOK = Integer.MAX_VALUE;
    private static final long NONE = -1;

    private final Long2LongHashMap sessionIndex = new Long2LongHashMap(NONE);
    private final int[] firstSlot;
    private final int[] slotCount;
    private final boolean[][] entitled;
    private final SubscriptionState[] states;
    private final FixSession[] owners;
    private final FixConnection[] connections;
    private final int[] instruments;
    private final int[] depths;
    private final int[] entryTypes;
    private final UnsafeBuffer reqIds;
    private final int[] reqIdLengths;
    private final long[] incompleteSinceMillis;
    private final long[] worstBidHeld;
    private final long[] worstOfferHeld;
    private int incomplete;

    /**
     * @param sessionIds       the sessions' ids ({@link FixSession#id()}), in the gateway's order
     * @param maxSubscriptions per session, the most it may hold
     * @param entitled         per session, per instrument of the books, whether it may subscribe
     */
    public Subscriptions(final long[] sessionIds, final int[] maxSubscriptions, final boolean[][] entitled) {
        firstSlot = new int[sessionIds.length];
        slotCount = maxSubscriptions.clone();
        this.entitled = entitled;
        int slots = 0;
        for (int i = 0; i < sessionIds.length; i++) {
            sessionIndex.put(sessionIds[i], i);
            firstSlot[i] = slots;
            slots += maxSubscriptions[i];
        }
        states = new SubscriptionState[slots];
        Arrays.fill(states, SubscriptionState.FREE);
        owners = new FixSession[slots];
        connections = new FixConnection[slots];
        instruments = new int[slots];
        depths = new int[slots];
        entryTypes = new int[slots];
        reqIds = new UnsafeBuffer(new byte[Math.max(1, slots * MAX_REQ_ID)]);
        reqIdLengths = new int[slots];
        incompleteSinceMillis = new long[slots];
        worstBidHeld = new long[slots];
        worstOfferHeld = new long[slots];
    }

    /**
     * @return the worst price of a side that stands for all the levels its depth asks for, as the worst price a client
     *         holds
     */
    public static long wholeSide(final boolean bid) {
        return bid ? Long.MIN_VALUE : Long.MAX_VALUE;
    }

    /** @return the worst price of a side that stands for none of its levels */
    public static long noneOfSide(final boolean bid) {
        return bid ? Long.MAX_VALUE : Long.MIN_VALUE;
    }

    /** @return the session's index in this table, or -1 if it has none */
    public int sessionOf(final FixSession session) {
        return (int) sessionIndex.get(session.id());
    }

    /** @return how many subscriptions session {@code session} may hold */
    public int maxSubscriptions(final int session) {
        return slotCount[session];
    }

    /** @return whether session {@code session} may subscribe to {@code instrument} */
    public boolean entitled(final int session, final int instrument) {
        return entitled[session][instrument];
    }

    /** @return how many slots the table has, all sessions together */
    public int capacity() {
        return states.length;
    }

    /** @return how many subscriptions are BEHIND or FILLING: their clients lack some of their current book */
    public int incompleteCount() {
        return incomplete;
    }

    public SubscriptionState state(final int slot) {
        return states[slot];
    }

    public FixSession owner(final int slot) {
        return owners[slot];
    }

    public int instrument(final int slot) {
        return instruments[slot];
    }

    /** @return how many of the best levels of each side its client holds: its MarketDepth, or {@link #FULL_BOOK} */
    public int depth(final int slot) {
        return depths[slot];
    }

    /** @return the entry-type bits the subscription asked for */
    public int entryTypes(final int slot) {
        return entryTypes[slot];
    }

    /** @return whether the subscription asked for any of the entry-type bits {@code types} */
    public boolean wants(final int slot, final int types) {
        return (entryTypes[slot] & types) != 0;
    }

    public DirectBuffer reqIds() {
        return reqIds;
    }

    public int reqIdOffset(final int slot) {
        return slot * MAX_REQ_ID;
    }

    public int reqIdLength(final int slot) {
        return reqIdLengths[slot];
    }

    /** @return since when a BEHIND or FILLING subscription's client has lacked some of its book */
    public long incompleteSinceMillis(final int slot) {
        return incompleteSinceMillis[slot];
    }

    /** @return the worst price a FILLING subscription's client holds on the side ({@link #wholeSide} for all) */
    public long worstHeld(final int slot, final boolean bid) {
        return bid ? worstBidHeld[slot] : worstOfferHeld[slot];
    }

    /**
     * @return true if the slot holds a LIVE or FILLING subscription to {@code instrument} on its session's current
     *         connection: one whose client takes incrementals
     */
    public boolean updatedFor(final int slot, final int instrument) {
        final SubscriptionState state = states[slot];
        return (state == SubscriptionState.LIVE || state == SubscriptionState.FILLING) && instruments[slot] == instrument
                && current(slot);
    }

    /**
     * @return whether the subscription's client holds the side's level at {@code price} and {@code rank} (0 is the
     *         best), were there one: it is within its depth and, while FILLING, no worse than the worst price it holds
     */
    public boolean holdsLevel(final int slot, final boolean bid, final long price, final int rank) {
        if (rank >= depths[slot]) {
            return false;
        }
        if (states[slot] != SubscriptionState.FILLING) {
            return true;
        }
        return bid ? price >= worstBidHeld[slot] : price <= worstOfferHeld[slot];
    }

    /**
     * @return true if the slot is in use and its subscription's connection is still its session's; a slot whose
     *         connection is gone is freed
     */
    public boolean current(final int slot) {
        if (states[slot] == SubscriptionState.FREE) {
            return false;
        }
        final FixSession owner = owners[slot];
        if (owner.connection() == connections[slot] && owner.isLoggedOn()) {
            return true;
        }
        free(slot);
        return false;
    }

    /** @return how many subscriptions session {@code session} holds on its current connection */
    public int held(final int session) {
        int held = 0;
        for (int slot = firstSlot[session], end = slot + slotCount[session]; slot < end; slot++) {
            if (current(slot)) {
                held++;
            }
        }
        return held;
    }

    /** @return whether session {@code session} holds a subscription with this MDReqID */
    public boolean holds(final int session, final DirectBuffer buffer, final int offset, final int length) {
        for (int slot = firstSlot[session], end = slot + slotCount[session]; slot < end; slot++) {
            if (current(slot) && sameReqId(slot, buffer, offset, length)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Takes a free slot of session {@code session} for a subscription made on its current connection.
     *
     * @param depth how many of the best levels of each side its client holds: 1 or more, {@link #FULL_BOOK} for all
     * @return the slot, LIVE, or -1 if the session has none free
     */
    public int add(final int session, final FixSession owner, final int instrument, final int depth,
                   final int types, final DirectBuffer buffer, final int offset, final int length) {
        for (int slot = firstSlot[session], end = slot + slotCount[session]; slot < end; slot++) {
            if (!current(slot)) {
                states[slot] = SubscriptionState.LIVE;
                owners[slot] = owner;
                connections[slot] = owner.connection();
                instruments[slot] = instrument;
                depths[slot] = depth;
                entryTypes[slot] = types;
                worstBidHeld[slot] = wholeSide(true);
                worstOfferHeld[slot] = wholeSide(false);
                reqIds.putBytes(reqIdOffset(slot), buffer, offset, length);
                reqIdLengths[slot] = length;
                return slot;
            }
        }
        return -1;
    }

    /** Ends every subscription of session {@code session} with this MDReqID; @return how many */
    public int remove(final int session, final DirectBuffer buffer, final int offset, final int length) {
        int removed = 0;
        for (int slot = firstSlot[session], end = slot + slotCount[session]; slot < end; slot++) {
            if (current(slot) && sameReqId(slot, buffer, offset, length)) {
                free(slot);
                removed++;
            }
        }
        return removed;
    }

    /** Ends every subscription of session {@code session}. */
    public void removeAll(final int session) {
        for (int slot = firstSlot[session], end = slot + slotCount[session]; slot < end; slot++) {
            if (states[slot] != SubscriptionState.FREE) {
                free(slot);
            }
        }
    }

    /**
     * The subscription's socket could not take its latest update: it is behind from {@code nowMillis}, or from when
     * its client started filling its book.
     */
    public void fallBehind(final int slot, final long nowMillis) {
        if (states[slot] == SubscriptionState.LIVE) {
            incompleteSinceMillis[slot] = nowMillis;
            incomplete++;
        }
        if (states[slot] == SubscriptionState.LIVE || states[slot] == SubscriptionState.FILLING) {
            states[slot] = SubscriptionState.BEHIND;
        }
    }

    /**
     * The subscription's client was sent its book down to the worst prices given per side ({@link #wholeSide} if it
     * has all its depth asks for): LIVE if that is all of it, otherwise FILLING from {@code nowMillis}.
     */
    public void snapshotSent(final int slot, final long worstBid, final long worstOffer, final long nowMillis) {
        final boolean wasIncomplete = states[slot] == SubscriptionState.BEHIND
                || states[slot] == SubscriptionState.FILLING;
        worstBidHeld[slot] = worstBid;
        worstOfferHeld[slot] = worstOffer;
        if (holdsItsDepth(slot)) {
            states[slot] = SubscriptionState.LIVE;
            incomplete -= wasIncomplete ? 1 : 0;
        } else {
            states[slot] = SubscriptionState.FILLING;
            incompleteSinceMillis[slot] = nowMillis;
            incomplete += wasIncomplete ? 0 : 1;
        }
    }

    /** A FILLING subscription's client was sent deeper levels, down to the worst prices given: LIVE once it has all. */
    public void filledTo(final int slot, final long worstBid, final long worstOffer) {
        worstBidHeld[slot] = worstBid;
        worstOfferHeld[slot] = worstOffer;
        if (holdsItsDepth(slot)) {
            states[slot] = SubscriptionState.LIVE;
            incomplete--;
        }
    }

    /** @return whether the subscription's client holds every level its depth asks for, on both sides */
    private boolean holdsItsDepth(final int slot) {
        return worstBidHeld[slot] == wholeSide(true) && worstOfferHeld[slot] == wholeSide(false);
    }

    private void free(final int slot) {
        if (states[slot] == SubscriptionState.BEHIND || states[slot] == SubscriptionState.FILLING) {
            incomplete--;
        }
        states[slot] = SubscriptionState.FREE;
        owners[slot] = null;
        connections[slot] = null;
    }

    private boolean sameReqId(final int slot, final DirectBuffer buffer, final int offset, final int length) {
        if (reqIdLengths[slot] != length) {
            return false;
        }
        final int at = reqIdOffset(slot);
        for (int i = 0; i < length; i++) {
            if (reqIds.getByte(at + i) != buffer.getByte(offset + i)) {
                return false;
            }
        }
        return true;
    }
}
