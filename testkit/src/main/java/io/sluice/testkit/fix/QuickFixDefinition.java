package io.sluice.testkit.fix;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One of QuickFIX/J's acceptance test definitions (a {@code .def} file of its server suite), read as its own suite
 * reads it. So Sluice can be held to the same cases. One step a line, SOH as the field separator:
 * <ul>
 *   <li>{@code # ...} a comment;</li>
 *   <li>{@code iCONNECT}, {@code i2,CONNECT}: client 1 (or the one numbered) connects;</li>
 *   <li>{@code I8=FIX.4.4...}, {@code I2,8=...}: the client sends this; BodyLength and CheckSum are computed unless
 *       given, {@code <TIME>} is now and {@code <TIME-n>} / {@code <TIME+n>} n × 1.1 s off; a line that does not
 *       start with BeginString is sent as written (a garbled message);</li>
 *   <li>{@code E8=FIX.4.4...}, {@code E2,8=...}: the client's next message must have exactly these fields (see
 *       {@link QuickFixDefinitionRunner});</li>
 *   <li>{@code eDISCONNECT}, {@code e2,DISCONNECT}: the gateway closes that client's connection.</li>
 * </ul>
 * The definitions log on as SenderCompID TW to ISLD without a password; Sluice requires one, so every Logon the
 * client sends gets Password (554) added, and {@code TW} is replaced by {@code compId}, so that each definition has a
 * session of its own.
 */
public final class QuickFixDefinition {
    private static final Pattern CLIENT = Pattern.compile("^[IEie](\\d+),");
    private static final String SOH = "\u0001";

    /** One line that does something: its kind ('I', 'E', 'c' connect, 'd' disconnect), client and text. */
    public record Step(int line, char kind, int client, String text) {
    }

    private final Path file;
    private final List<Step> steps;

    private QuickFixDefinition(final Path file, final List<Step> steps) {
        this.file = file;
        this.steps = steps;
    }

    /**
     * Reads a definition, with {@code TW} in SenderCompID (49) of what the client sends and in TargetCompID (56) of
     * what it expects replaced by {@code compId}.
     */
    public static QuickFixDefinition read(final Path file, final String compId) throws IOException {
        final List<String> lines = Files.readAllLines(file, StandardCharsets.ISO_8859_1);
        final List<Step> steps = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            final String line = lines.get(i);
            if (line.isBlank() || line.strip().startsWith("#")) {
                continue;
            }
            final Matcher numbered = CLIENT.matcher(line);
            final boolean hasClient = numbered.find();
            final int client = hasClient ? Integer.parseInt(numbered.group(1)) : 1;
            final String rest = line.substring(hasClient ? numbered.end() : 1);
            switch (line.charAt(0)) {
                case 'I' -> steps.add(new Step(i + 1, 'I', client, rest.replace(SOH + "49=TW" + SOH, SOH + "49=" + compId + SOH)));
                case 'E' -> steps.add(new Step(i + 1, 'E', client, rest.replace(SOH + "56=TW" + SOH, SOH + "56=" + compId + SOH)));
                case 'i' -> steps.add(new Step(i + 1, 'c', client, rest));
                case 'e' -> steps.add(new Step(i + 1, 'd', client, rest));
                default -> throw new IllegalArgumentException(file + ":" + (i + 1) + ": not a step: " + line);
            }
        }
        return new QuickFixDefinition(file, steps);
    }

    public Path file() {
        return file;
    }

    /** @return the file's name without ".def", e.g. {@code 14a_BadField}. */
    public String name() {
        final String name = file.getFileName().toString();
        return name.endsWith(".def") ? name.substring(0, name.length() - 4) : name;
    }

    public List<Step> steps() {
        return steps;
    }

    /**
     * @return true if the definition expects an application message back (an order echoed by QuickFIX/J's test
     *         application, 35=D or 35=d): such a case tests that application, not the session layer
     */
    public boolean expectsApplicationReplies() {
        for (final Step step : steps) {
            if (step.kind() == 'E' && (step.text().contains(SOH + "35=D" + SOH) || step.text().contains(SOH + "35=d" + SOH))) {
                return true;
            }
        }
        return false;
    }
}
