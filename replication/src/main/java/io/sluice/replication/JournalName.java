package io.sluice.replication;

import io.sluice.contracts.journal.Journals;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One journal of a deployment as replication knows it. Its directory name under the root ({@link Journals}'s naming),
 * what kind of journal that is, and for a gateway's journals the gateway id. The kind decides what an
 * excerpt must wait for before it is shipped ({@link CausalGate}).
 *
 * @param name      the directory name, e.g. {@code gateway-1-out}
 * @param kind      what the journal holds
 * @param gatewayId the gateway of a gateway journal, 0 for the engine's, the admin and the market-data journal
 */
public record JournalName(String name, Kind kind, int gatewayId) {
    /** What a journal holds. */
    public enum Kind {
        /** {@code gateway-N}: gateway N's commands to the engine. */
        GATEWAY_COMMANDS,
        /** {@code engine}: the engine's reports, one excerpt per input it consumed. */
        ENGINE,
        /** {@code gateway-N-out}: gateway N's own records: messages sent, deliveries, session state. */
        GATEWAY_OUT,
        /** {@code admin}: operators' and the scheduler's commands, an input of the engine (source 0) like a gateway's. */
        ADMIN,
        /** {@code marketdata}: the feed's messages in batches, each derived from one engine excerpt it names. */
        MARKET_DATA
    }

    private static final Pattern GATEWAY = Pattern.compile(Pattern.quote(Journals.GATEWAY_PREFIX) + "([1-9][0-9]{0,8})("
            + Pattern.quote(Journals.OUT_SUFFIX) + ")?");

    /** @return true for a journal of commands the engine consumes: a gateway's, or the admin journal */
    public boolean holdsEngineInputs() {
        return kind == Kind.GATEWAY_COMMANDS || kind == Kind.ADMIN;
    }

    /** @return true for a journal of method-writer calls with their MetaData; the market-data journal holds batches */
    public boolean holdsCalls() {
        return kind != Kind.MARKET_DATA;
    }

    /** @return the journal named {@code name}, or null if that is no journal name of a Sluice deployment */
    public static JournalName parse(final String name) {
        if (Journals.ENGINE.equals(name)) {
            return new JournalName(name, Kind.ENGINE, 0);
        }
        if (Journals.ADMIN.equals(name)) {
            return new JournalName(name, Kind.ADMIN, 0);
        }
        if (Journals.MARKET_DATA.equals(name)) {
            return new JournalName(name, Kind.MARKET_DATA, 0);
        }
        final Matcher matcher = GATEWAY.matcher(name);
        if (!matcher.matches()) {
            return null;
        }
        return new JournalName(name, matcher.group(2) == null ? Kind.GATEWAY_COMMANDS : Kind.GATEWAY_OUT,
                Integer.parseInt(matcher.group(1)));
    }

    @Override
    public String toString() {
        return name;
    }
}
