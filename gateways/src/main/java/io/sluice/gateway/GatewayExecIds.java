package io.sluice.gateway;

import io.sluice.contracts.PublicIds;
import io.sluice.gateway.codec.FixEncoder;
import io.sluice.gateway.codec.FixTags;

import java.nio.charset.StandardCharsets;

/**
 * The ExecIDs (17) of the reports a gateway makes itself (an order refused for want of disk space, which never reaches
 * the engine), so that a client deduplicating by ExecID, as FIX lets it, keeps every one. Each is {@code G}, the
 * gateway's id, a dash, and a number: a permutation ({@link PublicIds#gatewayExecId}, with the gateway's
 * {@code idKey}) of one more than the index of the last record in the gateway's own journal ({@link
 * JournalSessionStore#lastSentIndex}). That index only grows, and every such report is stored there before the next
 * is made, so the numbers never repeat, a restart on the same journals goes on past them, and a resend sends the
 * stored bytes again; the prefix keeps them apart from the engine's ExecIDs, which are digits only, and from other
 * gateways'. The number tells a client nothing of the gateway's traffic.
 */
final class GatewayExecIds {
    private final byte[] prefix;
    private final PublicIds ids;
    private final JournalSessionStore store;

    GatewayExecIds(final int gatewayId, final PublicIds ids, final JournalSessionStore store) {
        this.prefix = ("G" + gatewayId + "-").getBytes(StandardCharsets.US_ASCII);
        this.ids = ids;
        this.store = store;
    }

    /** Writes the next ExecID, for a report that is stored before another is made. */
    void write(final FixEncoder encoder) {
        encoder.prefixedLongField(FixTags.EXEC_ID, prefix, ids.gatewayExecId(store.lastSentIndex() + 1));
    }
}
