package io.sluice.gateway;

import io.sluice.gateway.codec.ShortText;
import io.sluice.gateway.session.FixAcceptor;
import io.sluice.gateway.session.FixSession;
import org.agrona.collections.Long2ObjectHashMap;

import java.util.Arrays;
import java.util.List;

/**
 * The drop-copy sessions of one gateway by the firm they copy, so that a report is copied with one map look-up.
 * <p>
 * A drop-copy session ({@code dropCopy: <firm>} in the gateway YAML) gets a copy of every ExecutionReport and
 * OrderCancelReject whose {@code firm} the engine set to that firm, whichever gateway owns the order: every gateway
 * tails the one engine journal, so copies come in engine order. A firm's copies go to its drop-copy sessions in the
 * order the configuration lists them. Sessions without a firm have no drop copy.
 */
final class DropCopies {
    private static final FixSession[] NONE = {};

    private final Long2ObjectHashMap<FixSession[]> byFirm = new Long2ObjectHashMap<>();
    private int mostPerFirm;

    /** Collects the drop-copy sessions of {@code sessions}, each found in {@code acceptor} by its SenderCompID. */
    DropCopies(final List<SessionConfig> sessions, final FixAcceptor acceptor) {
        for (final SessionConfig session : sessions) {
            if (session.dropCopy() != null) {
                final long firm = session.dropCopyFirmId();
                final FixSession[] known = byFirm.getOrDefault(firm, NONE);
                final FixSession[] more = Arrays.copyOf(known, known.length + 1);
                more[known.length] = acceptor.session(ShortText.parse(session.senderCompId()));
                byFirm.put(firm, more);
                mostPerFirm = Math.max(mostPerFirm, more.length);
            }
        }
    }

    /** @return the most drop-copy sessions one firm has on this gateway */
    int mostPerFirm() {
        return mostPerFirm;
    }

    /** @return the drop-copy sessions of {@code firm}, in configuration order; none for 0 or a firm without any */
    FixSession[] of(final long firm) {
        final FixSession[] sessions = firm == 0 ? null : byFirm.get(firm);
        return sessions == null ? NONE : sessions;
    }
}
