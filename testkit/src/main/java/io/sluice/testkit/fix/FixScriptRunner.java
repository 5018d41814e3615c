package io.sluice.testkit.fix;

import io.sluice.gateway.codec.FixTags;
import org.agrona.concurrent.EpochClock;

import java.io.IOException;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Plays a {@link FixScript} against a gateway over a real socket, through {@link TestFixClient}. It sends its {@code I}
 * lines and checks the gateway's messages against its {@code E} lines, in order, each wait with a deadline.
 * A failure names the script's file and line, what was expected and what came.
 */
public final class FixScriptRunner {
    private final SocketAddress gateway;
    private final EpochClock clock;
    private TestFixClient client;

    /** @param clock the sending times of what it sends and the deadlines of its waits */
    public FixScriptRunner(final SocketAddress gateway, final EpochClock clock) {
        this.gateway = gateway;
        this.clock = clock;
    }

    /** Runs every step; throws {@link AssertionError} at the first that does not hold. */
    public void run(final FixScript script) throws IOException {
        try {
            for (final FixScript.Step step : script.steps()) {
                final String where = script.file().getFileName() + ":" + step.line() + ": ";
                try {
                    step(script, step);
                } catch (final AssertionError failed) {
                    throw new AssertionError(where + step.kind() + step.text() + "\n  " + failed.getMessage(), failed);
                }
            }
        } finally {
            disconnect();
        }
    }

    private void step(final FixScript script, final FixScript.Step step) throws IOException {
        switch (step.kind()) {
            case 'I' -> connected().sendRaw(FixScript.frame(step.text(), clock.time()));
            case 'E' -> expect(step.text(), connected().receive());
            case 'U' -> expectUnordered(script, step);
            default -> {
                switch (step.text()) {
                    case "connect" -> {
                        disconnect();
                        client = new TestFixClient(gateway, null, script.senderCompId(), "SLUICE", 1, clock);
                    }
                    case "disconnect" -> disconnect();
                    case "closed" -> connected().expectClosed();
                    default -> throw new AssertionError("unknown step !" + step.text());
                }
            }
        }
    }

    /**
     * The fields of {@code line} must be in {@code received} with the same values; {@code *}, SendingTime and
     * OrigSendingTime only need to be there, {@code <absent>} must not be there, BeginString, BodyLength and CheckSum
     * were checked by the framing.
     */
    private static void expect(final String line, final FixFields received) {
        final String[] fields = line.split("\\|");
        final Map<Integer, Integer> named = new HashMap<>();
        for (final String field : fields) {
            named.merge(Integer.parseInt(field.substring(0, field.indexOf('='))), 1, Integer::sum);
        }
        final Map<Integer, Integer> seen = new HashMap<>();
        for (final String field : fields) {
            final int equals = field.indexOf('=');
            final int tag = Integer.parseInt(field.substring(0, equals));
            final String value = field.substring(equals + 1);
            if (named.get(tag) > 1) {
                // A tag the line names more than once: its nth value must be the message's nth (a repeating group).
                final int nth = seen.merge(tag, 1, Integer::sum) - 1;
                final List<String> values = received.all(tag);
                if (nth >= values.size() || !value.equals("*") && !value.equals(values.get(nth))) {
                    throw new AssertionError(tag + " (occurrence " + (nth + 1) + ") is " + (nth < values.size()
                            ? values.get(nth) : "missing") + " in " + received);
                }
                continue;
            }
            if (tag == FixTags.BEGIN_STRING || tag == FixTags.BODY_LENGTH || tag == FixTags.CHECK_SUM) {
                continue;
            }
            if (value.equals(FixScript.ABSENT)) {
                if (received.has(tag)) {
                    throw new AssertionError("tag " + tag + " must not be in " + received);
                }
                continue;
            }
            if (!received.has(tag)) {
                throw new AssertionError("tag " + tag + " is missing from " + received);
            }
            final boolean loose = value.equals("*") || tag == FixTags.SENDING_TIME || tag == FixTags.ORIG_SENDING_TIME;
            if (!loose && !value.equals(received.get(tag))) {
                throw new AssertionError(tag + "=" + received.get(tag) + " in " + received);
            }
        }
    }

    /**
     * Checks the gateway's next message against one of the {@code U} lines that follow each other from {@code step}
     * on: as many messages as lines, matched in any order (messages of two journals, such as an ExecutionReport and a
     * MarketDataIncrementalRefresh that follow from one order). The first line of a run does the whole run.
     */
    private void expectUnordered(final FixScript script, final FixScript.Step step) throws IOException {
        final List<FixScript.Step> steps = script.steps();
        final int at = steps.indexOf(step);
        if (at > 0 && steps.get(at - 1).kind() == 'U') {
            return;
        }
        final List<String> open = new ArrayList<>();
        for (int i = at; i < steps.size() && steps.get(i).kind() == 'U'; i++) {
            open.add(steps.get(i).text());
        }
        final int count = open.size();
        for (int n = 0; n < count; n++) {
            final FixFields received = connected().receive();
            String matched = null;
            for (final String line : open) {
                try {
                    expect(line, received);
                    matched = line;
                    break;
                } catch (final AssertionError notThis) {
                    // try the next line
                }
            }
            if (matched == null) {
                throw new AssertionError("none of " + open + " matches " + received);
            }
            open.remove(matched);
        }
    }

    private TestFixClient connected() {
        if (client == null) {
            throw new AssertionError("not connected (no !connect before)");
        }
        return client;
    }

    private void disconnect() throws IOException {
        if (client != null) {
            client.close();
            client = null;
        }
    }
}
