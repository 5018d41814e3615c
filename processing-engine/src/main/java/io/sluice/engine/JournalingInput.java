package io.sluice.engine;

import io.sluice.contracts.AdminCommand;
import io.sluice.contracts.CancelOrder;
import io.sluice.contracts.MassCancel;
import io.sluice.contracts.MetaData;
import io.sluice.contracts.NewOrder;
import io.sluice.contracts.ReplaceOrder;
import io.sluice.contracts.time.SluiceClock;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.wire.DocumentContext;
import net.openhft.chronicle.wire.MarshallableOut;

/**
 * Runs one live input through the {@link Engine} inside one open excerpt of the engine journal. So all the reports it
 * causes are committed together, or (if the engine dies first) not at all: the engine journal is the commit point.
 * Stamps {@code engineRead} on the input first. An optional {@link Inspector} sees
 * each excerpt's bytes just before they are committed (replay compares them there, in place).
 */
public final class JournalingInput implements EngineInput {
    private final MarshallableOut appender;
    private final EngineInput engine;
    private final Inspector inspector;
    private long excerptStart;

    /** Sees the bytes of an excerpt of reports in the appender's mapped memory, before its commit. */
    @FunctionalInterface
    public interface Inspector {
        /**
         * @param address where the excerpt's content (its first report) starts in memory
         * @param length  the content's length in bytes
         */
        void inspect(long address, long length);
    }

    /**
     * @param appender the engine journal's appender, or, for recovery, {@link JournalOutput#recoveryWire()}
     * @param engine   an engine whose output is a {@link JournalOutput} writing to {@code appender}
     */
    public JournalingInput(final MarshallableOut appender, final EngineInput engine) {
        this(appender, engine, null);
    }

    /**
     * @param engine    an engine whose output is a {@link JournalOutput} on {@code appender}
     * @param inspector shown every excerpt the engine completes, before it is committed; null for none
     */
    public JournalingInput(final MarshallableOut appender, final EngineInput engine, final Inspector inspector) {
        this.appender = appender;
        this.engine = engine;
        this.inspector = inspector;
    }

    @Override
    public void newOrder(final NewOrder order) {
        final DocumentContext dc = begin(order.metaData());
        boolean processed = false;
        try {
            engine.newOrder(order);
            processed = true;
        } finally {
            end(dc, processed);
        }
    }

    @Override
    public void cancelOrder(final CancelOrder cancel) {
        final DocumentContext dc = begin(cancel.metaData());
        boolean processed = false;
        try {
            engine.cancelOrder(cancel);
            processed = true;
        } finally {
            end(dc, processed);
        }
    }

    @Override
    public void replaceOrder(final ReplaceOrder replace) {
        final DocumentContext dc = begin(replace.metaData());
        boolean processed = false;
        try {
            engine.replaceOrder(replace);
            processed = true;
        } finally {
            end(dc, processed);
        }
    }

    @Override
    public void massCancel(final MassCancel massCancel) {
        final DocumentContext dc = begin(massCancel.metaData());
        boolean processed = false;
        try {
            engine.massCancel(massCancel);
            processed = true;
        } finally {
            end(dc, processed);
        }
    }

    @Override
    public void adminCommand(final AdminCommand command) {
        final DocumentContext dc = begin(command.metaData());
        boolean processed = false;
        try {
            engine.adminCommand(command);
            processed = true;
        } finally {
            end(dc, processed);
        }
    }

    private DocumentContext begin(final MetaData metaData) {
        metaData.engineRead(SluiceClock.nowTicks());
        final DocumentContext dc = appender.writingDocument();
        if (inspector != null) {
            excerptStart = dc.wire().bytes().writePosition();
        }
        return dc;
    }

    /** Commits the excerpt, unless the engine failed part way: then nothing of it is written. */
    private void end(final DocumentContext dc, final boolean processed) {
        if (!processed) {
            dc.rollbackOnClose();
        } else if (inspector != null) {
            final Bytes<?> bytes = dc.wire().bytes();
            final long length = bytes.writePosition() - excerptStart;
            inspector.inspect(bytes.addressForRead(excerptStart, (int) length), length);
        }
        dc.close();
    }
}
