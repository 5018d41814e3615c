package io.sluice.gateway.transport;

import org.agrona.collections.Long2LongHashMap;

/**
 * The buffer pairs of connections that have not logged on yet, allocated at start and shared fairly between
 * source addresses.
 * <p>
 * A new connection borrows a pair and gives it back when it closes or when its Logon binds it to a session (which has
 * its own pair), so the memory taken by connections that have not logged on is bounded by configuration, never by
 * what clients do. A new connection is never refused for want of a pair: when its source address already holds its
 * share ({@code perAddress} pairs), that address's oldest waiting connection makes way for it; when every pair is
 * lent, the oldest waiting connection of the address holding the most makes way. So whoever holds the pool from a
 * few addresses, however fast they reopen what is evicted, evicts only their own connections while a client from
 * another address logs on; it takes as many addresses as the pool has pairs to push a newcomer out. Every Unix
 * domain socket peer is one address ({@link RemoteAddress#LOCAL}) with no share of its own: only the pool bounds it.
 * Choosing whom to evict scans the lent pairs (at most the pool's size); nothing is allocated.
 */
final class ConnectionBufferPool {
    private final ConnectionBuffers[] pairs;
    private final ConnectionBuffers[] free;
    private final int perAddress;
    private final Long2LongHashMap lentPerAddress;
    private int freeCount;

    /**
     * @param size         how many connections may wait for their Logon at once
     * @param perAddress   how many of them one TCP source address may hold
     * @param receiveBytes each pair's receive buffer
     * @param sendBytes    each pair's send buffer (room for the Logout that refuses a connection)
     * @param tlsBytes     each pair's TLS record buffers, 0 without TLS
     */
    ConnectionBufferPool(final int size, final int perAddress, final int receiveBytes, final int sendBytes,
                         final int tlsBytes) {
        pairs = new ConnectionBuffers[size];
        free = new ConnectionBuffers[size];
        for (int i = 0; i < size; i++) {
            pairs[i] = new ConnectionBuffers(receiveBytes, sendBytes, tlsBytes, true);
            free[i] = pairs[i];
        }
        freeCount = size;
        this.perAddress = Math.min(perAddress, size);
        lentPerAddress = new Long2LongHashMap(2 * size, 0.65f, 0);
    }

    /**
     * @return the waiting connection that must make way (be closed, giving its pair back) before a new connection
     *         from {@code addressKey} can {@link #borrow}, or null if a pair is free for it
     */
    NioConnection evictionFor(final long addressKey) {
        if (addressKey != RemoteAddress.LOCAL && lentPerAddress.get(addressKey) >= perAddress) {
            return oldestWaiting(addressKey);
        }
        return freeCount > 0 ? null : oldestWaitingOfTheAddressHoldingMost();
    }

    /** @return a pair now held by {@code connection}, or null if all are lent out (see {@link #evictionFor}). */
    ConnectionBuffers borrow(final NioConnection connection) {
        if (freeCount == 0) {
            return null;
        }
        final ConnectionBuffers buffers = free[--freeCount];
        free[freeCount] = null;
        buffers.lendTo(connection);
        final long addressKey = connection.remoteAddressKey();
        lentPerAddress.put(addressKey, lentPerAddress.get(addressKey) + 1);
        return buffers;
    }

    /** Takes back a pair {@code connection} borrowed; does nothing if it no longer holds it. */
    void giveBack(final ConnectionBuffers buffers, final NioConnection connection) {
        if (buffers.returnFrom(connection)) {
            free[freeCount++] = buffers;
            final long addressKey = connection.remoteAddressKey();
            final long lent = lentPerAddress.get(addressKey) - 1;
            if (lent <= 0) {
                lentPerAddress.remove(addressKey);
            } else {
                lentPerAddress.put(addressKey, lent);
            }
        }
    }

    int perAddress() {
        return perAddress;
    }

    private NioConnection oldestWaiting(final long addressKey) {
        NioConnection oldest = null;
        for (final ConnectionBuffers pair : pairs) {
            final NioConnection holder = pair.holder();
            if (holder != null && holder.remoteAddressKey() == addressKey
                    && (oldest == null || holder.acceptedNanos() - oldest.acceptedNanos() < 0)) {
                oldest = holder;
            }
        }
        return oldest;
    }

    private NioConnection oldestWaitingOfTheAddressHoldingMost() {
        NioConnection chosen = null;
        long chosenLent = 0;
        for (final ConnectionBuffers pair : pairs) {
            final NioConnection holder = pair.holder();
            if (holder == null) {
                continue;
            }
            final long lent = lentPerAddress.get(holder.remoteAddressKey());
            if (chosen == null || lent > chosenLent
                    || lent == chosenLent && holder.acceptedNanos() - chosen.acceptedNanos() < 0) {
                chosen = holder;
                chosenLent = lent;
            }
        }
        return chosen;
    }
}
