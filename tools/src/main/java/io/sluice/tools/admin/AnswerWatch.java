package io.sluice.tools.admin;

import io.sluice.contracts.AdminOutcome;
import io.sluice.contracts.AdminRefusal;
import io.sluice.contracts.AdminResult;
import io.sluice.contracts.NoOpEngineToGateway;
import io.sluice.contracts.NoOpGatewayRecords;
import io.sluice.contracts.journal.JournalReader;
import io.sluice.contracts.journal.Journals;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import org.agrona.concurrent.NanoClock;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;

/**
 * Waits for the answers to one admin command: the engine's {@code adminOutcome} in the engine journal and, for a
 * command a gateway carries out, that gateway's {@code adminAnswered} in its own journal ({@code gateway-<id>-out}).
 * Both carry the command's MetaData (sourceId {@code ADMIN_SOURCE_ID}, the admin journal's eventId). Opened before
 * the command is appended, it reads each journal from where it ended then, so it never reads a day's journal from
 * the start; a journal that does not exist yet (its process never started) is read from its start once it appears.
 */
final class AnswerWatch implements AutoCloseable {
    private static final long POLL_NANOS = 5_000_000L;

    /** One answer, copied out of its journal. */
    record Answer(AdminResult result, AdminRefusal refusal, long affected) {
        static Answer of(final AdminOutcome outcome) {
            return new Answer(outcome.result(), outcome.refusal(), outcome.affected());
        }
    }

    private final Tail engine;
    private final Tail gateway;
    private final NanoClock clock;
    private long eventId;
    private Answer engineAnswer;
    private Answer gatewayAnswer;

    /**
     * @param gatewayId the gateway whose answer to wait for as well, or 0 for an engine action
     * @param clock     times the wait
     */
    AnswerWatch(final Path root, final int gatewayId, final NanoClock clock) {
        this.clock = clock;
        engine = new Tail(Journals.engineJournal(root), new EngineAnswers());
        gateway = gatewayId > 0 ? new Tail(Journals.gatewayDeliveries(root, gatewayId), new GatewayAnswers()) : null;
    }

    /**
     * Waits until the engine has answered command {@code commandEventId} (an engine action) or the gateway has (a
     * gateway action; or the engine refused it), or {@code timeoutNanos} have passed.
     */
    void await(final long commandEventId, final long timeoutNanos) {
        eventId = commandEventId;
        final long deadlineNanos = clock.nanoTime() + timeoutNanos;
        while (!answered() && clock.nanoTime() - deadlineNanos < 0) {
            int read = engine.poll();
            if (gateway != null) {
                read += gateway.poll();
            }
            if (read == 0) {
                LockSupport.parkNanos(POLL_NANOS);
            }
        }
    }

    private boolean answered() {
        if (gateway == null) {
            return engineAnswer != null;
        }
        return gatewayAnswer != null || engineAnswer != null && engineAnswer.result() == AdminResult.REFUSED;
    }

    /** @return the engine's answer, or null if it gave none in time */
    Answer engineAnswer() {
        return engineAnswer;
    }

    /** @return the gateway's answer, or null if it gave none in time (or the command was the engine's) */
    Answer gatewayAnswer() {
        return gatewayAnswer;
    }

    @Override
    public void close() {
        engine.close();
        if (gateway != null) {
            gateway.close();
        }
    }

    private void onEngineOutcome(final AdminOutcome outcome) {
        if (isOurs(outcome)) {
            engineAnswer = Answer.of(outcome);
        }
    }

    private void onGatewayOutcome(final AdminOutcome outcome) {
        if (isOurs(outcome)) {
            gatewayAnswer = Answer.of(outcome);
        }
    }

    private boolean isOurs(final AdminOutcome outcome) {
        return outcome.metaData().sourceId() == Journals.ADMIN_SOURCE_ID && outcome.metaData().eventId() == eventId;
    }

    /** One journal, read forward from its end at opening (or from its start, if it did not exist then). */
    private static final class Tail {
        private final Path dir;
        private final Object handler;
        private ChronicleQueue queue;
        private JournalReader reader;

        Tail(final Path dir, final Object handler) {
            this.dir = dir;
            this.handler = handler;
            open(true);
        }

        private void open(final boolean atEnd) {
            if (!Files.exists(dir.resolve("metadata.cq4t"))) {
                return;
            }
            try {
                queue = Journals.openReadOnly(dir);
                final ExcerptTailer tailer = queue.createTailer();
                if (atEnd) {
                    tailer.toEnd();
                }
                reader = new JournalReader(queue, tailer, handler);
            } catch (final RuntimeException notReadableYet) {
                // just created by its writer, its table store not complete: tried again at the next poll
                close();
            }
        }

        int poll() {
            if (reader == null) {
                open(false);
                if (reader == null) {
                    return 0;
                }
            }
            int read = 0;
            while (read < 1024 && reader.readOne()) {
                read++;
            }
            return read;
        }

        void close() {
            if (reader != null) {
                reader.close();
                reader = null;
            }
            if (queue != null) {
                queue.close();
                queue = null;
            }
        }
    }

    /** The engine journal's records: only its admin outcomes matter here. */
    private final class EngineAnswers extends NoOpEngineToGateway {
        @Override
        public void adminOutcome(final AdminOutcome outcome) {
            onEngineOutcome(outcome);
        }
    }

    /** A gateway's own journal's records: only its admin answers matter here. */
    private final class GatewayAnswers extends NoOpGatewayRecords {
        @Override
        public void adminAnswered(final AdminOutcome outcome) {
            onGatewayOutcome(outcome);
        }
    }
}
