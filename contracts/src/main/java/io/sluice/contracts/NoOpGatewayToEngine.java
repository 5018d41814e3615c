package io.sluice.contracts;

/**
 * A {@link GatewayToEngine} that ignores every command. A reader of a gateway's command journal extends it and
 * overrides only the commands it reads; used as is, it reads past every record (a journal check). Method readers
 * dispatch to the overrides of a subclass as to any implementation.
 */
public class NoOpGatewayToEngine implements GatewayToEngine {
    @Override
    public void newOrder(final NewOrder order) {
    }

    @Override
    public void cancelOrder(final CancelOrder cancel) {
    }

    @Override
    public void replaceOrder(final ReplaceOrder replace) {
    }

    @Override
    public void massCancel(final MassCancel massCancel) {
    }
}
