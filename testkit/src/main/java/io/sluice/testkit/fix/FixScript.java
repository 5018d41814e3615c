package io.sluice.testkit.fix;

import io.sluice.gateway.codec.FixBytes;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One FIX session-level test case as a readable "send this / expect that" file. One step a line ('|' for SOH):
 * <ul>
 *   <li>{@code # ...} a comment; the first one is the case's title;</li>
 *   <li>{@code !session SENDERCOMPID [key: value, ...]} the session the case uses, with any session settings of the
 *       gateway's YAML (a reset policy, say);</li>
 *   <li>{@code !connect}, {@code !disconnect}: the client opens or closes its connection;</li>
 *   <li>{@code I8=FIX.4.4|35=...|} the client sends this message. BodyLength (9) and CheckSum (10) are computed
 *       unless the line gives them; {@code <LEN>} and {@code <SUM>} compute them where the line puts them (for a
 *       garbled message); {@code <NOW>} is the current UTC time, {@code <NOW-5>} five seconds earlier;</li>
 *   <li>{@code E8=FIX.4.4|35=...|} the gateway's next message must have these fields and values; {@code *} matches
 *       any value, {@code <absent>} that the field is not there, BodyLength, CheckSum, SendingTime and
 *       OrigSendingTime are only checked to be there, fields the line does not list are not checked; a tag the line
 *       names more than once is checked occurrence by occurrence (a repeating group's entries);</li>
 *   <li>{@code U8=FIX.4.4|35=...|} as {@code E}, but the gateway's next messages match the {@code U} lines that follow
 *       each other in any order (an ExecutionReport and the market data its order caused come from two journals);</li>
 *   <li>{@code !closed} the gateway closes the connection next, sending nothing more.</li>
 * </ul>
 */
public final class FixScript {
    /** The value an {@code E} line gives a field that must not be in the message. */
    public static final String ABSENT = "<absent>";
    private static final Pattern NOW = Pattern.compile("<NOW(-(\\d+))?>");
    private static final DateTimeFormatter UTC = DateTimeFormatter.ofPattern("yyyyMMdd-HH:mm:ss.SSS")
            .withZone(ZoneOffset.UTC);

    /** One line of the script that does something. */
    public record Step(int line, char kind, String text) {
    }

    private final Path file;
    private final String title;
    private final String senderCompId;
    private final String sessionSettings;
    private final List<Step> steps;

    private FixScript(final Path file, final String title, final String senderCompId, final String sessionSettings,
                      final List<Step> steps) {
        this.file = file;
        this.title = title;
        this.senderCompId = senderCompId;
        this.sessionSettings = sessionSettings;
        this.steps = steps;
    }

    /** Reads a script; a line it cannot read is an error naming the file and line. */
    public static FixScript read(final Path file) throws IOException {
        final List<String> lines = Files.readAllLines(file, StandardCharsets.US_ASCII);
        String title = null;
        String senderCompId = null;
        String settings = "";
        final List<Step> steps = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            final String line = lines.get(i).strip();
            if (line.isEmpty()) {
                continue;
            }
            if (line.startsWith("#")) {
                title = title == null ? line.substring(1).strip() : title;
            } else if (line.startsWith("!session ")) {
                final String[] parts = line.substring("!session ".length()).split(" ", 2);
                senderCompId = parts[0];
                settings = parts.length > 1 ? parts[1] : "";
            } else if (line.equals("!connect") || line.equals("!disconnect") || line.equals("!closed")) {
                steps.add(new Step(i + 1, '!', line.substring(1)));
            } else if ((line.charAt(0) == 'I' || line.charAt(0) == 'E' || line.charAt(0) == 'U')
                    && line.startsWith("8=", 1)) {
                steps.add(new Step(i + 1, line.charAt(0), line.substring(1)));
            } else {
                throw new IllegalArgumentException(file + ":" + (i + 1) + ": not a step: " + line);
            }
        }
        if (senderCompId == null) {
            throw new IllegalArgumentException(file + ": no !session line");
        }
        return new FixScript(file, title == null ? file.getFileName().toString() : title, senderCompId, settings, steps);
    }

    public Path file() {
        return file;
    }

    /** @return the file's name without ".fix": the FIX test case number first, e.g. {@code 14g-header-after-body}. */
    public String name() {
        final String name = file.getFileName().toString();
        return name.endsWith(".fix") ? name.substring(0, name.length() - 4) : name;
    }

    public String title() {
        return title;
    }

    public String senderCompId() {
        return senderCompId;
    }

    /** @return extra settings of the session in the gateway's YAML, e.g. {@code resetOnLogout: true}, or empty. */
    public String sessionSettings() {
        return sessionSettings;
    }

    public List<Step> steps() {
        return steps;
    }

    /**
     * @return an {@code I} line as it goes out ('|' for SOH): placeholders filled, BodyLength and CheckSum computed
     *         unless the line gives them
     */
    public static String frame(final String line, final long nowMillis) {
        final Matcher now = NOW.matcher(line);
        final StringBuilder filled = new StringBuilder();
        while (now.find()) {
            final long seconds = now.group(2) == null ? 0 : Long.parseLong(now.group(2));
            now.appendReplacement(filled, UTC.format(Instant.ofEpochMilli(nowMillis - seconds * 1000)));
        }
        now.appendTail(filled);
        final List<String> fields = new ArrayList<>(List.of(filled.toString().split("\\|")));
        if (fields.size() < 2 || !fields.get(1).startsWith("9=")) {
            fields.add(1, "9=<LEN>");
        }
        if (!fields.getLast().startsWith("10=")) {
            fields.add("10=<SUM>");
        }
        final int lengthField = indexOfPrefix(fields, "9=");
        int bodyLength = 0;
        for (int i = lengthField + 1; i < fields.size() - 1; i++) {
            bodyLength += fields.get(i).length() + 1;
        }
        if (lengthField >= 0 && fields.get(lengthField).equals("9=<LEN>")) {
            fields.set(lengthField, "9=" + bodyLength);
        }
        final StringBuilder message = new StringBuilder();
        for (int i = 0; i < fields.size() - 1; i++) {
            message.append(fields.get(i)).append('|');
        }
        final String checksum = fields.getLast().equals("10=<SUM>")
                ? "10=%03d".formatted(FixBytes.checksum(message.toString())) : fields.getLast();
        return message.append(checksum).append('|').toString();
    }

    private static int indexOfPrefix(final List<String> fields, final String prefix) {
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).startsWith(prefix)) {
                return i;
            }
        }
        return -1;
    }
}
