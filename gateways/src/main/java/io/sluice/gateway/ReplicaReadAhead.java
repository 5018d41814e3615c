package io.sluice.gateway;

import io.sluice.contracts.journal.JournalReader;
import io.sluice.contracts.journal.Journals;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import org.agrona.CloseHelper;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A standby's gateway before the promotion: follows its replica journals read-only, so that the promoted gateway
 * starts with its session store's state read and Chronicle's classes loaded.
 * <p>
 * An Agrona agent, run on a background thread while the gateway waits for the standby's word ({@code GatewayMain},
 * {@code --await-promotion}). Until the gateway's command and deliveries journals and the engine journal are there it
 * only looks for them; then it opens them read-only ({@link Journals#openReadOnly}: nothing under the root is written),
 * moves over the command and engine journals to their ends once ({@link JournalReader#skipToEnd}), and recovers the
 * session store's state from the deliveries journal as a start does ({@link SessionStoreRecovery}), reading on what the
 * receiver appends to it until it is closed. The promoted gateway takes that state over ({@link #sessionStore()}) and,
 * as the journal's writer, reads only what came after it.
 */
final class ReplicaReadAhead implements Agent {
    /** Where the read-ahead is. */
    enum State {
        /** A journal is not there yet. */
        AWAITING_JOURNALS,
        /** Read: reading on what arrives in the deliveries journal. */
        FOLLOWING
    }

    /** How often it looks for the journals while they are not there, and for new records once it follows. */
    private static final long LOOK_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final GatewayConfig config;
    private final NanoClock nanoClock;
    private volatile State state = State.AWAITING_JOURNALS;
    private long nextLookNanos;
    private ChronicleQueue deliveries;
    private SessionStoreRecovery sessionStore;

    ReplicaReadAhead(final GatewayConfig config, final NanoClock nanoClock) {
        this.config = config;
        this.nanoClock = nanoClock;
        nextLookNanos = nanoClock.nanoTime();
    }

    @Override
    public int doWork() {
        final long now = nanoClock.nanoTime();
        if (now - nextLookNanos < 0) {
            return 0;
        }
        nextLookNanos = now + LOOK_INTERVAL_NANOS;
        return switch (state) {
            case AWAITING_JOURNALS -> readFirst(now);
            case FOLLOWING -> {
                sessionStore.readOn(deliveries);
                yield 1;
            }
        };
    }

    private int readFirst(final long now) {
        final Path root = config.journalRoot();
        final Path deliveriesPath = Journals.gatewayDeliveries(root, config.gatewayId());
        final List<Path> others = List.of(Journals.gatewayJournal(root, config.gatewayId()), Journals.engineJournal(root));
        if (!Journals.isCreated(deliveriesPath) || !others.stream().allMatch(Journals::isCreated)) {
            return 0;
        }
        for (final Path journal : others) {
            try (ChronicleQueue queue = Journals.openReadOnly(journal); ExcerptTailer tailer = queue.createTailer()) {
                JournalReader.skipToEnd(queue, tailer);
            }
        }
        deliveries = Journals.openReadOnly(deliveriesPath);
        sessionStore = SessionStoreRecovery.read(deliveries);
        state = State.FOLLOWING;
        System.out.println("gateway " + config.gatewayId() + ": read its replica journals read-only ahead of the"
                + " promotion, in " + TimeUnit.NANOSECONDS.toMillis(nanoClock.nanoTime() - now) + " ms; its session"
                + " store's state follows them");
        System.out.flush();
        return 1;
    }

    /** @return where it is; safe to read from any thread */
    State state() {
        return state;
    }

    /**
     * @return the session store's state read so far, or null if the journals were never there; to be taken only once
     * the agent is closed (its thread joined)
     */
    SessionStoreRecovery sessionStore() {
        return sessionStore;
    }

    @Override
    public void onClose() {
        CloseHelper.quietClose(deliveries);
    }

    @Override
    public String roleName() {
        return "gateway " + config.gatewayId() + " read-ahead";
    }
}
