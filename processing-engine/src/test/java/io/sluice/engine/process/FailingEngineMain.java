package io.sluice.engine.process;

import io.sluice.contracts.AdminCommand;
import io.sluice.contracts.CancelOrder;
import io.sluice.contracts.MassCancel;
import io.sluice.contracts.MetaData;
import io.sluice.contracts.NewOrder;
import io.sluice.contracts.ReplaceOrder;
import io.sluice.engine.EngineContext;
import io.sluice.engine.EngineInput;
import io.sluice.engine.EngineMain;
import io.sluice.engine.config.EngineConfig;

import java.nio.file.Path;

/**
 * The engine process with a bug planted for tests. Its logic throws on the command with event id {@code args[1]} (of
 * any gateway), part way through, after the real engine has processed the command. Run as
 * {@code FailingEngineMain <config.yaml> <eventId>}; exits as {@link EngineMain} does.
 */
public final class FailingEngineMain {
    private FailingEngineMain() {
    }

    public static void main(final String[] args) throws Exception {
        final EngineConfig config = EngineConfig.load(Path.of(args[0]));
        final long failOn = Long.parseLong(args[1]);
        System.exit(EngineMain.run(new EngineContext().config(config).wrapEngine(engine -> new FailingOn(engine, failOn))));
    }

    /** The engine, throwing once it has processed the command with one event id. */
    private record FailingOn(EngineInput engine, long eventId) implements EngineInput {
        @Override
        public void newOrder(final NewOrder order) {
            engine.newOrder(order);
            check(order.metaData());
        }

        @Override
        public void cancelOrder(final CancelOrder cancel) {
            engine.cancelOrder(cancel);
            check(cancel.metaData());
        }

        @Override
        public void replaceOrder(final ReplaceOrder replace) {
            engine.replaceOrder(replace);
            check(replace.metaData());
        }

        @Override
        public void massCancel(final MassCancel massCancel) {
            engine.massCancel(massCancel);
            check(massCancel.metaData());
        }

        @Override
        public void adminCommand(final AdminCommand command) {
            engine.adminCommand(command);
            check(command.metaData());
        }

        private void check(final MetaData metaData) {
            if (metaData.eventId() == eventId) {
                throw new IllegalStateException("planted bug: fails on event id " + eventId);
            }
        }
    }
}
