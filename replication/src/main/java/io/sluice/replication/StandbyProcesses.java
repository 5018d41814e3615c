package io.sluice.replication;

import io.sluice.runtime.process.AwaitPromotion;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The engine and gateways of a standby, started warm when it starts and told when its root is promoted.
 * <p>
 * Each command of the standby's {@code start} list runs with {@value AwaitPromotion#OPTION} appended, its standard
 * input a pipe from the standby and its output the standby's: the JVM starts, the config is checked, and the process
 * follows the standby's words ({@link AwaitPromotion}): a gateway listens while the standby takes over, and each opens
 * its journals once told {@code PROMOTED}. A takeover is then left with only what needs the promoted root: opening the
 * journals, recovering, serving. The standby's own state says what they are told ({@link #tell}) and which check
 * applies: {@link #requireAwaiting()} before its takeover, {@link #reportExits()} after it.
 */
final class StandbyProcesses implements AutoCloseable {
    private static final long STOP_SECONDS = 10;

    private final List<Child> children = new ArrayList<>();
    /** What the processes were told last; nothing yet is as good as standing by. */
    private AwaitPromotion.Word told = AwaitPromotion.Word.STANDING_BY;

    /** Starts each of {@code start}, awaiting the standby's word; @return a line saying what was started */
    String start(final List<List<String>> start) {
        for (final List<String> command : start) {
            final List<String> awaiting = new ArrayList<>(command);
            awaiting.add(AwaitPromotion.OPTION);
            try {
                final Process process = new ProcessBuilder(awaiting).redirectInput(ProcessBuilder.Redirect.PIPE)
                        .redirectOutput(ProcessBuilder.Redirect.INHERIT).redirectError(ProcessBuilder.Redirect.INHERIT)
                        .start();
                children.add(new Child(process, String.join(" ", awaiting)));
            } catch (final IOException e) {
                throw new UncheckedIOException(Standby.ROLE + ": cannot start " + String.join(" ", awaiting), e);
            }
        }
        final StringBuilder started = new StringBuilder();
        for (final Child child : children) {
            started.append(started.isEmpty() ? "" : "; ").append(child.command).append(" (pid ")
                    .append(child.process.pid()).append(')');
        }
        return started.toString();
    }

    /**
     * Before the takeover: every process must still be waiting for the standby's word.
     *
     * @throws ReplicationRefusedException naming a process that exited: the standby could not take over with it
     */
    void requireAwaiting() {
        for (final Child child : children) {
            final Process process = child.process;
            if (!process.isAlive()) {
                throw new ReplicationRefusedException(Standby.ROLE + ": stopped: pid " + process.pid() + " ("
                        + child.command + ") exited with " + process.exitValue() + " while awaiting the takeover"
                        + " (its lines above say why): a takeover needs every process of the start list");
            }
        }
    }

    /**
     * Tells every process {@code word} if it is news to them; once {@link AwaitPromotion.Word#PROMOTED} they are told no
     * more, and each opens its journals, recovers and serves.
     *
     * @throws ReplicationRefusedException if one can no longer be told (it exited meanwhile)
     */
    void tell(final AwaitPromotion.Word word) {
        if (word == told) {
            return;
        }
        told = word;
        for (final Child child : children) {
            try {
                AwaitPromotion.tell(child.process.getOutputStream(), word);
                if (word == AwaitPromotion.Word.PROMOTED) {
                    child.process.getOutputStream().close();
                }
            } catch (final IOException e) {
                throw new ReplicationRefusedException(Standby.ROLE + ": stopped: pid " + child.process.pid() + " ("
                        + child.command + ") cannot be told " + word + " (" + e.getMessage() + ")" + (word
                        == AwaitPromotion.Word.PROMOTED ? ": started again, the standby resumes as the primary on its"
                        + " promoted root" : ""));
            }
        }
    }

    /** After the takeover: says which processes exited, once each. */
    void reportExits() {
        children.removeIf(child -> {
            final Process process = child.process;
            if (process.isAlive()) {
                return false;
            }
            System.out.println(Standby.ROLE + ": pid " + process.pid() + " exited with " + process.exitValue());
            return true;
        });
    }

    @Override
    public void close() {
        for (final Child child : children) {
            child.process.destroy();
        }
        for (final Child child : children) {
            final Process process = child.process;
            try {
                if (!process.waitFor(STOP_SECONDS, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
                System.out.println(Standby.ROLE + ": pid " + process.pid() + " stopped");
            } catch (final InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
        children.clear();
    }

    /** A process of the start list, with the command line it was started with. */
    private record Child(Process process, String command) {
    }
}
