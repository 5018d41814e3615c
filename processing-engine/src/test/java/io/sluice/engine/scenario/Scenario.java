package io.sluice.engine.scenario;

import io.sluice.contracts.AdminCommand;
import io.sluice.contracts.CancelOrder;
import io.sluice.contracts.EngineToGateway;
import io.sluice.contracts.GatewayToEngine;
import io.sluice.contracts.MassCancel;
import io.sluice.contracts.MetaData;
import io.sluice.contracts.NewOrder;
import io.sluice.contracts.ReplaceOrder;
import io.sluice.contracts.journal.Journals;
import io.sluice.engine.Engine;
import io.sluice.engine.EngineInput;
import io.sluice.engine.config.EngineConfig;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.bytes.MethodReader;
import net.openhft.chronicle.wire.Wire;
import net.openhft.chronicle.wire.WireType;

import java.util.HashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A YAML-in / YAML-out engine scenario, our small stand-in for Chronicle's YamlTester. A scenario file
 * holds the commands, as calls on {@link GatewayToEngine} in Chronicle's YAML ({@code newOrder: {...}}
 * documents separated by {@code ...}), then a line {@value #EXPECTED_MARKER}, then the reports the engine
 * must write, as calls on {@link EngineToGateway} in the same YAML.
 * <p>
 * Admin commands ({@code adminCommand: {...}}, {@link io.sluice.contracts.AdminCommands}) may be mixed in: they come
 * from the admin journal's source, 0.
 * Inputs may leave out their MetaData: the source defaults to gateway 1 and the event id counts up per
 * source. Reports are shown in a canonical compact form: fields with default values (0, empty, null,
 * NONE) are left out and the MetaData is one line. That form is still Chronicle YAML and reads back into
 * the same objects; both sides of a comparison go through it.
 */
public final class Scenario {
    /** The line that separates the commands from the expected reports. */
    public static final String EXPECTED_MARKER = "=== expected reports ===";

    private static final Pattern DEFAULT_FIELD =
            Pattern.compile("(?m)^\\s+(?!sourceId:)\\w+: (0|\"\"|!!null \"\"|NONE),?\\n");
    private static final Pattern META_DATA =
            Pattern.compile("metaData: \\{\\s*sourceId: (\\d+),?\\s*eventId: (\\d+),?\\s*}");
    private static final Pattern TRAILING_COMMA = Pattern.compile("(?m),$");

    private final String input;
    private final String expected;

    private Scenario(final String input, final String expected) {
        this.input = input;
        this.expected = expected;
    }

    /** Splits a scenario file's text at {@value #EXPECTED_MARKER}. */
    public static Scenario parse(final String text) {
        final int marker = text.indexOf(EXPECTED_MARKER);
        if (marker < 0) {
            throw new IllegalArgumentException("a scenario needs a line '" + EXPECTED_MARKER + "'");
        }
        return new Scenario(text.substring(0, marker), text.substring(marker + EXPECTED_MARKER.length()));
    }

    public String input() {
        return input;
    }

    /** @return the expected reports in canonical form. */
    public String expected() {
        return canonical(expected);
    }

    /** Runs the commands through a fresh engine built from {@code config}; @return the reports in canonical form. */
    public String run(final EngineConfig config) {
        final Wire reports = WireType.YAML_ONLY.apply(Bytes.allocateElasticOnHeap());
        final Engine engine = new Engine(config, reports.methodWriter(EngineToGateway.class));
        final Wire commands = WireType.YAML_ONLY.apply(Bytes.from(input));
        final MethodReader reader = commands.methodReader(new NumberingInputs(engine));
        while (reader.readOne()) {
            // every document is one command
        }
        return canonical(reports.bytes().toString());
    }

    /** @return the scenario file text with {@code actualReports} as its expected reports. */
    public String withExpected(final String actualReports) {
        return input + EXPECTED_MARKER + "\n" + actualReports;
    }

    static String canonical(final String yaml) {
        String text = yaml.strip().replace("\r\n", "\n") + "\n";
        text = DEFAULT_FIELD.matcher(text).replaceAll("");
        text = TRAILING_COMMA.matcher(text).replaceAll("");
        text = META_DATA.matcher(text).replaceAll("metaData: { sourceId: $1, eventId: $2 }");
        return text.lines().map(String::stripTrailing).filter(line -> !line.isEmpty())
                .reduce(new StringBuilder(), (all, line) -> all.append(line).append('\n'), StringBuilder::append)
                .toString();
    }

    /**
     * Fills in the source (gateway 1) and a per-source event id where an input leaves them out; admin commands always
     * come from the admin journal's source ({@link Journals#ADMIN_SOURCE_ID}).
     */
    static final class NumberingInputs implements EngineInput {
        private final EngineInput engine;
        private final Map<Integer, Long> lastEventIds = new HashMap<>();

        NumberingInputs(final EngineInput engine) {
            this.engine = engine;
        }

        @Override
        public void newOrder(final NewOrder order) {
            number(order.metaData());
            engine.newOrder(order);
        }

        @Override
        public void cancelOrder(final CancelOrder cancel) {
            number(cancel.metaData());
            engine.cancelOrder(cancel);
        }

        @Override
        public void replaceOrder(final ReplaceOrder replace) {
            number(replace.metaData());
            engine.replaceOrder(replace);
        }

        @Override
        public void massCancel(final MassCancel massCancel) {
            number(massCancel.metaData());
            engine.massCancel(massCancel);
        }

        @Override
        public void adminCommand(final AdminCommand command) {
            command.metaData().sourceId(Journals.ADMIN_SOURCE_ID);
            numberWithin(command.metaData());
            engine.adminCommand(command);
        }

        private void number(final MetaData metaData) {
            if (metaData.sourceId() == Journals.ADMIN_SOURCE_ID) {
                metaData.sourceId(1);
            }
            numberWithin(metaData);
        }

        /** Gives the input the next event id of its source, unless it has one. */
        private void numberWithin(final MetaData metaData) {
            final long eventId = metaData.eventId() != 0 ? metaData.eventId()
                    : lastEventIds.getOrDefault(metaData.sourceId(), 0L) + 1;
            metaData.eventId(eventId);
            lastEventIds.put(metaData.sourceId(), eventId);
        }
    }
}
