package io.sluice.testkit.fix;

import org.agrona.concurrent.EpochClock;

import java.io.IOException;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Plays a {@link QuickFixDefinition} against a gateway over real sockets, one {@link TestFixClient} per client number.
 * It judges each expected message as QuickFIX/J's own acceptance suite does: the MsgType must match; every field
 * received must be expected with the same value, except SendingTime, TransactTime, OrigSendingTime, BodyLength and
 * CheckSum; every field expected must be there. BodyLength is not compared, as QuickFIX/J's build runs its suite
 * ({@code atest.heartbeat} set). Not judged either is what FIX leaves to the sender, which QuickFIX/J's suite
 * compares with QuickFIX/J's own choices: Text (58), its wording and whether there is one, and the TestReqID (112) of
 * a TestRequest the gateway sends. Waiting for a disconnect skips what arrives before it. A failure names the
 * definition's file and line, what was expected and what came.
 */
public final class QuickFixDefinitionRunner {
    private static final Pattern MESSAGE = Pattern.compile("(8=FIXT?\\.\\d\\.\\d\u0001)(.*?\u0001)(10=.*|)$");
    private static final Pattern TIME = Pattern.compile("<TIME([+-](\\d+))*>");
    private static final DateTimeFormatter UTC = DateTimeFormatter.ofPattern("yyyyMMdd-HH:mm:ss.SSS")
            .withZone(ZoneOffset.UTC);
    private static final Set<String> TIME_FIELDS = Set.of("52", "60", "122");
    private static final String SOH = "\u0001";

    private final SocketAddress gateway;
    private final String password;
    private final EpochClock clock;
    private final Map<Integer, TestFixClient> clients = new HashMap<>();

    /**
     * @param password what every Logon the definition sends gets as Password (554)
     * @param clock    the sending times of what it sends and the deadlines of its waits
     */
    public QuickFixDefinitionRunner(final SocketAddress gateway, final String password, final EpochClock clock) {
        this.gateway = gateway;
        this.password = password;
        this.clock = clock;
    }

    /** Runs every step; throws {@link AssertionError} at the first that does not hold. */
    public void run(final QuickFixDefinition definition) throws IOException {
        try {
            for (final QuickFixDefinition.Step step : definition.steps()) {
                try {
                    step(step);
                } catch (final AssertionError failed) {
                    throw new AssertionError(definition.file().getFileName() + ":" + step.line() + ": "
                            + step.text().replace(SOH, "|") + "\n  " + failed.getMessage(), failed);
                }
            }
        } finally {
            for (final TestFixClient client : clients.values()) {
                client.close();
            }
            clients.clear();
        }
    }

    private void step(final QuickFixDefinition.Step step) throws IOException {
        switch (step.kind()) {
            case 'c' -> {
                final TestFixClient previous = clients.remove(step.client());
                if (previous != null) {
                    previous.close();
                }
                clients.put(step.client(), new TestFixClient(gateway, null, "TW", "ISLD", 1, clock));
            }
            case 'd' -> client(step).awaitClosedSkippingMessages();
            case 'I' -> client(step).sendRaw(frame(step.text(), password, clock.time()));
            case 'E' -> expect(step.text(), client(step).receive());
            default -> throw new AssertionError("unknown step " + step.kind());
        }
    }

    private TestFixClient client(final QuickFixDefinition.Step step) {
        final TestFixClient client = clients.get(step.client());
        if (client == null) {
            throw new AssertionError("client " + step.client() + " is not connected");
        }
        return client;
    }

    /**
     * @return the message an {@code I} line sends, as QuickFIX/J's suite frames it: times filled in, BodyLength and
     *         CheckSum computed unless the line gives them, and here Password (554) added to a Logon
     */
    static String frame(final String line, final String password, final long nowMillis) {
        final Matcher structure = MESSAGE.matcher(line);
        String message = line;
        if (structure.matches()) {
            String tail = times(structure.group(2), nowMillis);
            if ((SOH + tail).contains(SOH + "35=A" + SOH)) {
                tail = tail + "554=" + password + SOH;
            }
            final String checksum = structure.group(3).equals("10=0" + SOH) ? "10=000" + SOH : structure.group(3);
            message = structure.group(1) + (tail.startsWith("9=") ? "" : "9=" + tail.length() + SOH) + tail + checksum;
        }
        if (!message.contains(SOH + "10=")) {
            int sum = 0;
            for (final byte b : message.getBytes(StandardCharsets.ISO_8859_1)) {
                sum += b & 0xFF;
            }
            message = message + "10=" + "%03d".formatted(sum & 0xFF) + SOH;
        }
        return message;
    }

    private static String times(final String text, final long nowMillis) {
        final Matcher time = TIME.matcher(text);
        final StringBuilder filled = new StringBuilder();
        while (time.find()) {
            long offset = time.group(2) == null ? 0 : Long.parseLong(time.group(2)) * 1100L;
            if (time.group(1) != null && time.group(1).startsWith("-")) {
                offset = -offset;
            }
            time.appendReplacement(filled, UTC.format(Instant.ofEpochMilli(nowMillis + offset)));
        }
        time.appendTail(filled);
        return filled.toString();
    }

    private static void expect(final String line, final FixFields received) {
        final Map<String, String> expected = fields(line);
        final Map<String, String> actual = fields(received.toString().replace('|', '\u0001'));
        final String got = "\n  received: " + received;
        if (!expected.get("35").equals(actual.get("35"))) {
            throw new AssertionError("wrong MsgType " + actual.get("35") + got);
        }
        final Set<String> free = freeFields(expected.get("35"));
        for (final Map.Entry<String, String> field : actual.entrySet()) {
            final String tag = field.getKey();
            if (TIME_FIELDS.contains(tag) || tag.equals("10") || tag.equals("9") || free.contains(tag)) {
                continue;
            }
            final String want = expected.get(tag);
            if (want == null) {
                throw new AssertionError("unexpected field " + tag + "=" + field.getValue() + got);
            }
            if (!field.getValue().equals(want)) {
                throw new AssertionError("field " + tag + " is " + field.getValue() + ", expected " + want + got);
            }
        }
        for (final String tag : expected.keySet()) {
            if (!actual.containsKey(tag) && !free.contains(tag)) {
                throw new AssertionError("missing expected field " + tag + got);
            }
        }
    }

    /**
     * @return the fields whose presence and value FIX leaves to the sender, not judged here: the wording of Text (58),
     *         and whether there is one; the TestReqID (112) of a TestRequest the gateway sends
     */
    private static Set<String> freeFields(final String msgType) {
        return msgType.equals("1") ? Set.of("58", "112") : Set.of("58");
    }

    /** @return tag to value, as QuickFIX/J's suite reads them (empty values skipped, the last of a tag kept). */
    private static Map<String, String> fields(final String message) {
        final Map<String, String> fields = new HashMap<>();
        for (final String field : message.split(SOH)) {
            final int equals = field.indexOf('=');
            if (equals > 0 && equals < field.length() - 1 && field.chars().limit(equals).allMatch(Character::isDigit)) {
                fields.put(field.substring(0, equals), field.substring(equals + 1));
            }
        }
        return fields;
    }
}
