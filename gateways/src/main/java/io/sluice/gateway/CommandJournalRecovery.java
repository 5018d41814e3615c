package io.sluice.gateway;

import io.sluice.contracts.CancelOrder;
import io.sluice.contracts.GatewayToEngine;
import io.sluice.contracts.MassCancel;
import io.sluice.contracts.MassCancelCause;
import io.sluice.contracts.NewOrder;
import io.sluice.contracts.ReplaceOrder;
import io.sluice.contracts.journal.JournalReader;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;

/**
 * Reads a gateway's whole command journal at start: where eventIds continue, and which client messages' progress was lost.
 * <p>
 * Every record's checksum is checked: a damaged record or excerpt header stops the start with a
 * {@link io.sluice.contracts.journal.CorruptJournalException} naming file, excerpt and byte offset
 * ({@link JournalReader#readOneToEnd}). Each command newer than the last recorded session progress came from a client
 * message whose progress was not recorded before a crash, so that session's expected MsgSeqNum moves past it (not the
 * gateway's own cancel-on-disconnect, which no client message caused).
 */
final class CommandJournalRecovery {
    private CommandJournalRecovery() {
    }

    /**
     * Reads {@code commandJournal} to its last excerpt, moving {@code store}'s expected MsgSeqNums past the commands
     * whose progress it did not record, and noting in {@code recovered} per session what cancel-on-disconnect needs.
     *
     * @return the eventId of the last command: where eventIds continue
     */
    static long recover(final ChronicleQueue commandJournal, final JournalSessionStore store,
                        final CancelOnDisconnect.Recovered recovered) {
        final CommandScan scan = new CommandScan();
        try (ExcerptTailer tailer = commandJournal.createTailer();
             JournalReader reader = new JournalReader(commandJournal, tailer, scan)) {
            long lastEventId = 0;
            while (reader.readOneToEnd()) {
                lastEventId = Math.max(lastEventId, scan.eventId);
                if (scan.cancelOnDisconnect) {
                    recovered.cancelOnDisconnect(scan.session, scan.eventId);
                    continue;
                }
                recovered.clientCommand(scan.session, scan.eventId);
                if (scan.eventId > store.recordedEventId()) {
                    store.commandWithoutProgress(scan.session);
                }
            }
            return lastEventId;
        }
    }

    /** Notes the source session and eventId of the command just read, and whether a client sent it. */
    private static final class CommandScan implements GatewayToEngine {
        long eventId;
        long session;
        boolean cancelOnDisconnect;

        @Override
        public void newOrder(final NewOrder order) {
            eventId = order.metaData().eventId();
            session = order.session();
            cancelOnDisconnect = false;
        }

        @Override
        public void cancelOrder(final CancelOrder cancel) {
            eventId = cancel.metaData().eventId();
            session = cancel.session();
            cancelOnDisconnect = false;
        }

        @Override
        public void replaceOrder(final ReplaceOrder replace) {
            eventId = replace.metaData().eventId();
            session = replace.session();
            cancelOnDisconnect = false;
        }

        @Override
        public void massCancel(final MassCancel massCancel) {
            eventId = massCancel.metaData().eventId();
            session = massCancel.session();
            cancelOnDisconnect = massCancel.cause() != MassCancelCause.CLIENT_REQUEST;
        }
    }
}
