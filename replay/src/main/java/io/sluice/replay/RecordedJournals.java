package io.sluice.replay;

import io.sluice.contracts.AdminCommand;
import io.sluice.contracts.CancelOrder;
import io.sluice.contracts.MassCancel;
import io.sluice.contracts.NewOrder;
import io.sluice.contracts.ReplaceOrder;
import io.sluice.contracts.journal.Journals;
import io.sluice.engine.EngineInput;
import io.sluice.engine.recovery.InputSource;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The recorded journals of one session under one directory (laid out as {@link Journals} says), opened
 * read-only only: a replay never writes to them. Checks, before anything is replayed, that each journal is
 * there and was written in this Sluice's journal format ({@link Journals#FORMAT_VERSION}, recorded in each
 * journal's {@code metadata.cq4t}); every failure names the file.
 */
final class RecordedJournals {
    private final Path root;

    RecordedJournals(final Path root) {
        this.root = root;
    }

    /** @return the directory holding the journals */
    Path root() {
        return root;
    }

    /**
     * For journals still arriving (a replica root filled journal by journal): a journal is there once
     * {@link Journals#isCreated} says so.
     *
     * @return the directory names of the engine journal and of {@code gatewayIds}' journals that are not there yet
     */
    List<String> notThere(final int[] gatewayIds) {
        final List<String> missing = new ArrayList<>();
        if (!Journals.isCreated(Journals.engineJournal(root))) {
            missing.add(Journals.ENGINE);
        }
        for (final int gatewayId : gatewayIds) {
            final Path dir = Journals.gatewayJournal(root, gatewayId);
            if (!Journals.isCreated(dir)) {
                missing.add(dir.getFileName().toString());
            }
        }
        return missing;
    }

    /** @return the recorded engine journal, opened read-only and checked; the caller closes it. */
    ChronicleQueue openEngineJournal() {
        return openChecked(Journals.engineJournal(root), "engine journal");
    }

    /** @return the error for a recorded engine journal in which no input was answered. */
    ReplayException noRecordedInputs() {
        return new ReplayException("the recorded engine journal " + Journals.engineJournal(root).toAbsolutePath()
                + " holds no reports (its .cq4 cycle files are missing or empty): nothing to replay against");
    }

    /** @return how many excerpts {@code queue} holds, over all its cycle files; 0 if that cannot be counted. */
    static long excerpts(final ChronicleQueue queue) {
        if (queue.firstIndex() == Long.MAX_VALUE) {
            return 0;
        }
        try {
            return ((SingleChronicleQueue) queue).entryCount();
        } catch (final RuntimeException cycleFileMissing) {
            return 0;
        }
    }

    /** Checks that gateway {@code gatewayId}'s command journal is there and in this journal format. */
    void checkGatewayJournal(final int gatewayId) {
        openChecked(Journals.gatewayJournal(root, gatewayId), "gateway " + gatewayId + "'s journal").close();
    }

    private static ChronicleQueue openChecked(final Path dir, final String what) {
        final ChronicleQueue queue;
        try {
            queue = Journals.openReadOnly(dir);
        } catch (final IllegalArgumentException e) {
            throw new ReplayException("recorded " + what + " is missing: " + e.getMessage(), e);
        } catch (final RuntimeException e) {
            throw new ReplayException("recorded " + what + " at " + dir.toAbsolutePath() + " cannot be opened: " + e, e);
        }
        final long format = Journals.formatOf(queue);
        if (format != Journals.FORMAT_VERSION) {
            queue.close();
            final Path file = dir.resolve("metadata.cq4t").toAbsolutePath();
            throw new ReplayException(format == Long.MIN_VALUE
                    ? "recorded " + what + " " + file + " records no Sluice journal format: written by a Sluice older"
                    + " than journal format " + Journals.FORMAT_VERSION + ", or not by Sluice"
                    : "recorded " + what + " " + file + " was written in Sluice journal format " + format
                    + "; this Sluice reads format " + Journals.FORMAT_VERSION + ": replay it with the Sluice version that recorded it");
        }
        return queue;
    }

    /**
     * @return input {@code eventId} of gateway {@code gatewayId} as YAML, read afresh from its journal: for the
     * message of a divergence, so the replay loop need not keep a copy of every input
     */
    String inputYaml(final int gatewayId, final long eventId) {
        final boolean admin = gatewayId == Journals.ADMIN_SOURCE_ID;
        final String[] found = {"(input " + eventId + " not found in " + (admin ? "the admin journal"
                : "gateway " + gatewayId + "'s journal") + ")"};
        final EngineInput finder = new EngineInput() {
            @Override
            public void newOrder(final NewOrder order) {
                keep(order.metaData().eventId(), order);
            }

            @Override
            public void cancelOrder(final CancelOrder cancel) {
                keep(cancel.metaData().eventId(), cancel);
            }

            @Override
            public void replaceOrder(final ReplaceOrder replace) {
                keep(replace.metaData().eventId(), replace);
            }

            @Override
            public void massCancel(final MassCancel massCancel) {
                keep(massCancel.metaData().eventId(), massCancel);
            }

            @Override
            public void adminCommand(final AdminCommand command) {
                keep(command.metaData().eventId(), command);
            }

            private void keep(final long id, final Object command) {
                if (id == eventId) {
                    found[0] = command.toString();
                }
            }
        };
        try (InputSource source = admin ? InputSource.admin(root, true) : new InputSource(root, gatewayId, true)) {
            while (source.lastEventId() < eventId && source.poll(finder)) {
                // reads on up to the input
            }
        }
        return found[0];
    }
}
