package io.sluice.gateway;

import io.sluice.contracts.journal.JournalReader;
import io.sluice.contracts.journal.Journals;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.NanoClock;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A standby's gateway before the promotion: reads its replica journals once, read-only, so that the promoted gateway's
 * start finds Chronicle's classes and its own readers loaded.
 * <p>
 * An Agrona agent, run on a background thread while the gateway waits for the standby's word ({@code GatewayMain},
 * {@code --await-promotion}). Until the gateway's command and deliveries journals and the engine journal are there it
 * only looks for them; then it opens them read-only ({@link Journals#openReadOnly}: nothing under the root is written),
 * recovers the session store's state from the deliveries journal as a start does ({@link SessionStoreRecovery#read}),
 * moves over the other two to their ends ({@link JournalReader#skipToEnd}), closes them and is done. What it read is
 * not kept: the promoted gateway reads the journals again, as its own writer.
 */
final class ReplicaReadAhead implements Agent {
    /** Where the read-ahead is. */
    enum State {
        /** A journal is not there yet. */
        AWAITING_JOURNALS,
        /** Read once: nothing more to do. */
        READ
    }

    /** How often it looks for the journals while they are not there. */
    private static final long JOURNAL_LOOK_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final GatewayConfig config;
    private final NanoClock nanoClock;
    private volatile State state = State.AWAITING_JOURNALS;
    private long nextLookNanos;

    ReplicaReadAhead(final GatewayConfig config, final NanoClock nanoClock) {
        this.config = config;
        this.nanoClock = nanoClock;
        nextLookNanos = nanoClock.nanoTime();
    }

    @Override
    public int doWork() {
        final long now = nanoClock.nanoTime();
        if (state == State.READ || now - nextLookNanos < 0) {
            return 0;
        }
        nextLookNanos = now + JOURNAL_LOOK_INTERVAL_NANOS;
        final Path root = config.journalRoot();
        final Path deliveries = Journals.gatewayDeliveries(root, config.gatewayId());
        final List<Path> others = List.of(Journals.gatewayJournal(root, config.gatewayId()), Journals.engineJournal(root));
        if (!Journals.isCreated(deliveries) || !others.stream().allMatch(Journals::isCreated)) {
            return 0;
        }
        try (ChronicleQueue store = Journals.openReadOnly(deliveries)) {
            SessionStoreRecovery.read(store);
        }
        for (final Path journal : others) {
            try (ChronicleQueue queue = Journals.openReadOnly(journal); ExcerptTailer tailer = queue.createTailer()) {
                JournalReader.skipToEnd(queue, tailer);
            }
        }
        state = State.READ;
        System.out.println("gateway " + config.gatewayId() + ": read its replica journals read-only ahead of the"
                + " promotion, in " + TimeUnit.NANOSECONDS.toMillis(nanoClock.nanoTime() - now) + " ms");
        System.out.flush();
        return 1;
    }

    /** @return where it is; safe to read from any thread */
    State state() {
        return state;
    }

    @Override
    public String roleName() {
        return "gateway " + config.gatewayId() + " read-ahead";
    }
}
