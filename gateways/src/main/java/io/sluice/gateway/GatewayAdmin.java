package io.sluice.gateway;

import io.sluice.contracts.AdminAction;
import io.sluice.contracts.AdminCommand;
import io.sluice.contracts.AdminCommands;
import io.sluice.contracts.AdminOutcome;
import io.sluice.contracts.AdminRefusal;
import io.sluice.contracts.journal.JournalReader;
import io.sluice.gateway.codec.ShortText;
import io.sluice.gateway.session.FixAcceptor;
import io.sluice.gateway.session.FixSession;
import io.sluice.gateway.session.FixSessionState;
import io.sluice.runtime.admin.AdminJournal;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway's side of the deployment's admin journal ({@link AdminJournal}): it reads every operator command and
 * carries out those a gateway acts on ({@link AdminAction.Actor#GATEWAY}) for the sessions it hosts: DISCONNECT (a
 * Logout with the command's reason in Text (58), then the connection closes) and SET_SEQUENCE (recorded as a sequence
 * reset, so a restart keeps it). Each one it acts on is answered, acknowledged or refused with why, by an
 * {@code adminAnswered} record in the gateway's own journal ({@code gateway-<id>-out}), which {@code ./sluice admin}
 * waits for. A restart carries out only the commands after the last one answered, so none is carried out twice.
 * <p>
 * The gateway polls it at its housekeeping pace, not per message: admin commands are rare, and an idle poll is one
 * read of an empty tailer, allocating nothing.
 */
final class GatewayAdmin implements AdminCommands {
    private static final Logger LOG = LoggerFactory.getLogger(GatewayAdmin.class);
    private static final int COMMANDS_PER_POLL = 16;
    /** The Logout text of an operator's disconnect; the command's reason follows. */
    static final String DISCONNECT_TEXT = "Disconnected by the operator";

    private final int gatewayId;
    private final FixAcceptor acceptor;
    private final JournalSessionStore store;
    private final JournalReader reader;
    private final AdminOutcome outcome = new AdminOutcome();

    /** Reads {@code journal}, the deployment's admin journal, from its start. */
    GatewayAdmin(final int gatewayId, final FixAcceptor acceptor, final JournalSessionStore store,
                 final ChronicleQueue journal) {
        this.gatewayId = gatewayId;
        this.acceptor = acceptor;
        this.store = store;
        final ExcerptTailer tailer = journal.createTailer();
        reader = new JournalReader(journal, tailer, this);
    }

    /** Reads and handles up to 16 new admin commands; @return how many were read. */
    int poll() {
        int read = 0;
        while (read < COMMANDS_PER_POLL && reader.readOne()) {
            read++;
        }
        return read;
    }

    @Override
    public void adminCommand(final AdminCommand command) {
        final AdminAction action = command.action();
        if (action == null || action.actor() != AdminAction.Actor.GATEWAY || command.gatewayId() != gatewayId
                || command.metaData().eventId() <= store.answeredAdminEventId()) {
            return; // the engine's, another gateway's, or answered before a restart
        }
        outcome.answering(command);
        final FixSession session = acceptor.session(command.session());
        if (session == null) {
            refuse(command, AdminRefusal.UNKNOWN_SESSION);
            return;
        }
        switch (action) {
            case DISCONNECT -> disconnect(command, session);
            case SET_SEQUENCE -> setSequence(command, session);
            default -> refuse(command, AdminRefusal.MALFORMED_COMMAND);
        }
    }

    private void disconnect(final AdminCommand command, final FixSession session) {
        if (!session.isLoggedOn()) {
            refuse(command, AdminRefusal.SESSION_NOT_CONNECTED);
            return;
        }
        // Answered first: should the gateway die right after, its restart finds the session disconnected anyway.
        store.adminAnswered(outcome.acknowledged(1));
        final String text = command.reason() == 0 ? DISCONNECT_TEXT
                : DISCONNECT_TEXT + ": " + ShortText.toString(command.reason());
        LOG.info("gateway {}: admin command {} from {}: disconnecting {} ({})", gatewayId,
                command.metaData().eventId(), ShortText.toString(command.user()), session.identity().clientCompId(), text);
        session.logoutAndClose(text);
    }

    private void setSequence(final AdminCommand command, final FixSession session) {
        if (command.nextSenderSeqNum() < 1 || command.nextTargetSeqNum() < 1) {
            refuse(command, AdminRefusal.BAD_SEQUENCE_NUMBER);
            return;
        }
        if (session.isLoggedOn() || session.state() != FixSessionState.DISCONNECTED) {
            refuse(command, AdminRefusal.SESSION_CONNECTED);
            return;
        }
        // Carried out first: its reset record is what a restart keeps; the answer follows it.
        final long renumbered = session.setSequences(command.nextSenderSeqNum(), command.nextTargetSeqNum());
        store.adminAnswered(outcome.acknowledged(renumbered));
        LOG.info("gateway {}: admin command {} from {}: {} next MsgSeqNum out {}, in {}{}", gatewayId,
                command.metaData().eventId(), ShortText.toString(command.user()), session.identity().clientCompId(),
                command.nextSenderSeqNum(), command.nextTargetSeqNum(), renumbered == 0 ? ""
                        : " (" + renumbered + " undelivered messages stored again from " + command.nextSenderSeqNum() + ")");
    }

    private void refuse(final AdminCommand command, final AdminRefusal refusal) {
        store.adminAnswered(outcome.refused(refusal));
        LOG.warn("gateway {}: admin command {} ({} of {}) from {} refused: {}", gatewayId, command.metaData().eventId(),
                command.action(), ShortText.toString(command.session()), ShortText.toString(command.user()),
                refusal.text());
    }

}
