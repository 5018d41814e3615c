package io.sluice.gateway.transport;

import org.agrona.collections.Long2LongHashMap;

import java.util.Arrays;

/**
 * Counts open connections, per gateway and per source address, and refuses one that would exceed either
 * limit. Source addresses are {@link RemoteAddress#key keys} (TCP: the IP address; every Unix domain socket
 * peer is local, and the per-address limit does not apply to them). The table has room for as many
 * addresses as the gateway may hold connections, so it never grows. Refusals are counted per reason for a
 * log line per burst, never one per attempt.
 */
final class ConnectionLimits {
    private final int maxConnections;
    private final int maxPerAddress;
    private final Long2LongHashMap perAddress;
    private final int[] refused = new int[ConnectionRefusal.values().length];
    private int open;

    ConnectionLimits(final int maxConnections, final int maxPerAddress) {
        this.maxConnections = maxConnections;
        this.maxPerAddress = maxPerAddress;
        this.perAddress = new Long2LongHashMap(2 * maxConnections, 0.65f, 0);
    }

    /**
     * Counts a connection from {@code addressKey} in if both limits allow it.
     *
     * @return null if it was counted, otherwise why it is refused (also counted for the log)
     */
    ConnectionRefusal open(final long addressKey) {
        ConnectionRefusal refusal = null;
        if (open >= maxConnections) {
            refusal = ConnectionRefusal.GATEWAY_LIMIT;
        } else if (addressKey != RemoteAddress.LOCAL && perAddress.get(addressKey) >= maxPerAddress) {
            refusal = ConnectionRefusal.ADDRESS_LIMIT;
        }
        if (refusal != null) {
            refused(refusal);
            return refusal;
        }
        open++;
        if (addressKey != RemoteAddress.LOCAL) {
            perAddress.put(addressKey, perAddress.get(addressKey) + 1);
        }
        return null;
    }

    /** Counts a connection that {@link #open} counted in out again. */
    void close(final long addressKey) {
        open--;
        if (addressKey != RemoteAddress.LOCAL) {
            final long count = perAddress.get(addressKey) - 1;
            if (count <= 0) {
                perAddress.remove(addressKey);
            } else {
                perAddress.put(addressKey, count);
            }
        }
    }

    void refused(final ConnectionRefusal refusal) {
        refused[refusal.ordinal()]++;
    }

    /** @return connections refused for {@code refusal} since the last {@link #clearRefused()}. */
    int refusedCount(final ConnectionRefusal refusal) {
        return refused[refusal.ordinal()];
    }

    /** @return connections refused for any reason since the last {@link #clearRefused()}. */
    int refusedCount() {
        int total = 0;
        for (final int count : refused) {
            total += count;
        }
        return total;
    }

    void clearRefused() {
        Arrays.fill(refused, 0);
    }

    int maxConnections() {
        return maxConnections;
    }

    int maxPerAddress() {
        return maxPerAddress;
    }
}
