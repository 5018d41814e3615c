package io.sluice.bench.tail;

import io.sluice.contracts.CancelOrder;
import io.sluice.contracts.GatewayToEngine;
import io.sluice.contracts.NewOrder;
import io.sluice.contracts.ReplaceOrder;

import java.nio.file.Path;

/** A gateway's command journal, read as {@link GatewayToEngine} calls and handed to the {@link LatencyJoin}. */
final class CommandStream extends JournalStream implements GatewayToEngine {
    private final int gatewayId;
    private final LatencyJoin join;

    CommandStream(final Path dir, final int gatewayId, final boolean fromStart, final LatencyJoin join) {
        super(dir, fromStart);
        this.gatewayId = gatewayId;
        this.join = join;
        readInto(this);
    }

    int gatewayId() {
        return gatewayId;
    }

    @Override
    public void newOrder(final NewOrder order) {
        join.onCommand(gatewayId, order.metaData(), order.session());
    }

    @Override
    public void cancelOrder(final CancelOrder cancel) {
        join.onCommand(gatewayId, cancel.metaData(), cancel.session());
    }

    @Override
    public void replaceOrder(final ReplaceOrder replace) {
        join.onCommand(gatewayId, replace.metaData(), replace.session());
    }
}
