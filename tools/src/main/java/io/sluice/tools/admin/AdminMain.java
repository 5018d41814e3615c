package io.sluice.tools.admin;

import io.sluice.contracts.AdminAction;
import io.sluice.contracts.AdminCommand;
import io.sluice.contracts.AdminResult;
import io.sluice.contracts.FirmLimit;
import io.sluice.contracts.time.SluiceClock;
import io.sluice.gateway.codec.ShortText;
import io.sluice.gateway.session.FixSessionState;
import io.sluice.runtime.admin.AdminJournal;
import io.sluice.runtime.counters.CountersDirectory.Liveness;
import io.sluice.runtime.process.LockHeldException;
import io.sluice.tools.demo.DurationConverter;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code ./sluice admin --root DIR <command>}: an operator's commands to a running deployment. {@code sessions} lists
 * every gateway's sessions from the counters files; every other command is appended to the deployment's admin journal
 * ({@link AdminJournal}, as this OS user) and waits for its answer: the engine's for orders, instruments, the kill
 * switch and trading sessions, the hosting gateway's for a session's connection and sequence numbers
 * ({@link AnswerWatch}). It prints {@code acknowledged: ...} (exit 0) or {@code refused: <why>} (exit 1); a session
 * no gateway hosts is refused before anything is written (exit 2); no answer in time exits 3, the command staying in
 * the journal, carried out when its process reads it.
 */
@Command(name = "admin", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Operator commands to a running Sluice deployment, journaled in DIR/admin and answered by the "
                + "engine or the gateway hosting the session.",
        footer = {"", "Exit codes: 0 acknowledged, 1 refused, 2 bad input or unknown session (nothing written), "
                + "3 no answer in time (the command stays journaled and runs when its process reads it)."},
        subcommands = AdminMain.Cancel.class)
public final class AdminMain implements Callable<Integer> {
    /** Exit code: the command was carried out. */
    public static final int EXIT_ACKNOWLEDGED = 0;
    /** Exit code: the engine or gateway refused the command; it said why. */
    public static final int EXIT_REFUSED = 1;
    /** Exit code: bad arguments, an unknown gateway or session, or an admin journal others could write: nothing written. */
    public static final int EXIT_BAD_INPUT = 2;
    /** Exit code: no answer before the deadline; the command stays journaled. */
    public static final int EXIT_NO_ANSWER = 3;

    /** The process's clock: it times the wait for an answer. */
    private final NanoClock clock = SystemNanoClock.INSTANCE;

    @Spec
    private CommandSpec spec;

    @Option(names = "--root", required = true, paramLabel = "DIR", description = "the deployment's journal root")
    private Path root;

    @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "10s", converter = DurationConverter.class,
            description = "how long to wait for the answer (default 10s)")
    private Duration timeout;

    public static void main(final String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** @return the command line, ready to {@code execute} */
    public static CommandLine commandLine() {
        return new CommandLine(new AdminMain()).setCaseInsensitiveEnumValuesAllowed(true);
    }

    @Override
    public Integer call() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a command is missing: sessions, cancel, "
                + "kill-switch, limit, limits, halt, resume, trading, disconnect or set-seq");
    }

    @Command(name = "sessions", description = "Every session of every gateway, with its state and next sequence numbers.")
    int sessions() {
        if (!rootExists()) {
            return EXIT_BAD_INPUT;
        }
        final KnownSessions known = KnownSessions.read(root);
        final PrintWriter out = out();
        if (known.gatewayIds().isEmpty()) {
            out.println("no gateway has run under " + root.toAbsolutePath());
            out.flush();
            return EXIT_ACKNOWLEDGED;
        }
        out.printf("%-20s %-10s %-16s %12s %12s  %s%n", "session", "target", "state", "next out", "next in", "gateway");
        for (final KnownSessions.Session session : known.all()) {
            final Liveness gateway = known.gateway(session.gatewayId());
            // A stopped gateway's file keeps the state it last published; no session of it is connected now.
            out.printf("%-20s %-10s %-16s %12d %12d  %s%n", session.gatewayId() + ":" + session.clientCompId(),
                    session.gatewayCompId(), gateway == Liveness.RUNNING ? session.state() : FixSessionState.DISCONNECTED,
                    session.nextSenderSeq(), session.nextTargetSeq(), gateway.name().toLowerCase(Locale.ROOT));
        }
        out.flush();
        return EXIT_ACKNOWLEDGED;
    }

    @Command(name = "kill-switch", description = "on: cancel every resting order (of one firm or session only, if named) "
            + "and reject new orders; off: accept them again.")
    int killSwitch(@Parameters(paramLabel = "on|off") final OnOff state,
                   @Option(names = "--firm", paramLabel = "FIRM", description = "only this firm's orders, on every "
                           + "gateway (a session without a firm is the firm named by its CompID)") final String firm,
                   @Option(names = "--session", paramLabel = "GW:COMPID", description = "only this session's orders")
                   final String session) {
        final boolean on = state == OnOff.ON;
        if (firm != null && session != null) {
            return badInput("name a firm or a session, not both");
        }
        if (firm != null) {
            final long name = ShortText.parse(firm);
            if (name == ShortText.INVALID) {
                return badInput("'" + firm + "' is not a firm (1 to " + ShortText.MAX_LENGTH + " characters)");
            }
            return submit(new AdminCommand().action(on ? AdminAction.FIRM_KILL_SWITCH_ON : AdminAction.FIRM_KILL_SWITCH_OFF)
                    .firm(name));
        }
        if (session != null) {
            return submitForSession(new AdminCommand().action(on ? AdminAction.SESSION_KILL_SWITCH_ON
                    : AdminAction.SESSION_KILL_SWITCH_OFF), session);
        }
        return submit(new AdminCommand().action(on ? AdminAction.KILL_SWITCH_ON : AdminAction.KILL_SWITCH_OFF));
    }

    @Command(name = "limit", description = "Set one pre-trade limit of one firm, from its next order on (journaled, so "
            + "replay does the same).")
    int limit(@Parameters(index = "0", paramLabel = "FIRM") final String firm,
              @Parameters(index = "1", paramLabel = "LIMIT", description = "maxOpenOrders, maxOpenNotional, maxPosition, "
                      + "maxOrdersPerSecond, priceCollar (basis points), maxOrderNotional or killOnRejectsPerSecond")
              final String limitName,
              @Parameters(index = "2", paramLabel = "VALUE|none", description = "notionals as decimals; none lifts it")
              final String value) {
        final long name = ShortText.parse(firm);
        if (name == ShortText.INVALID) {
            return badInput("'" + firm + "' is not a firm (1 to " + ShortText.MAX_LENGTH + " characters)");
        }
        final FirmLimit limit = FirmLimit.ofConfigName(limitName);
        if (limit == null) {
            return badInput("no limit '" + limitName + "': the limits are " + FirmLimitText.names());
        }
        final long parsed = FirmLimitText.parse(limit, value);
        if (parsed == FirmLimitText.INVALID) {
            return badInput(limit.configName() + " must be a " + FirmLimitText.describeUnit(limit) + " from 0 to "
                    + FirmLimitText.format(limit, limit.maxValue()) + ", or none; got '" + value + "'");
        }
        return submit(new AdminCommand().action(AdminAction.SET_FIRM_LIMIT).firm(name).limit(limit, parsed));
    }

    @Command(name = "limits", description = "One firm's pre-trade limits and what it uses of them, as the engine's "
            + "counters show them now.")
    int limits(@Parameters(paramLabel = "FIRM") final String firm) {
        if (!rootExists()) {
            return EXIT_BAD_INPUT;
        }
        final FirmLimitsReport report = FirmLimitsReport.read(root, firm);
        if (report.text() == null) {
            return badInput(report.problem());
        }
        final PrintWriter out = out();
        out.print(report.text());
        out.flush();
        return EXIT_ACKNOWLEDGED;
    }

    @Command(name = "halt", description = "Halt an instrument: new orders and replaces rejected, cancels accepted.")
    int halt(@Parameters(paramLabel = "SYM") final String symbol) {
        return submitSymbol(AdminAction.HALT, symbol);
    }

    @Command(name = "resume", description = "Resume a halted instrument.")
    int resume(@Parameters(paramLabel = "SYM") final String symbol) {
        return submitSymbol(AdminAction.RESUME, symbol);
    }

    @Command(name = "trading", description = "Open or close the trading session of one instrument, or of all.")
    int trading(@Parameters(index = "0", paramLabel = "open|close") final OpenClose state,
                @Parameters(index = "1", arity = "0..1", paramLabel = "SYM", description = "default: every instrument")
                final String symbol) {
        final AdminAction action = state == OpenClose.OPEN ? AdminAction.OPEN_TRADING : AdminAction.CLOSE_TRADING;
        return symbol == null ? submit(new AdminCommand().action(action)) : submitSymbol(action, symbol);
    }

    @Command(name = "disconnect", description = "Log a session out (its Logout says why) and close its connection.")
    int disconnect(@Parameters(paramLabel = "GW:COMPID") final String session,
                   @Option(names = "--reason", paramLabel = "TEXT", description = "up to 10 characters, sent in the Logout's Text (58)")
                   final String reason) {
        final AdminCommand command = new AdminCommand().action(AdminAction.DISCONNECT);
        if (reason != null) {
            final long text = ShortText.parse(reason);
            if (text == ShortText.INVALID) {
                return badInput("--reason '" + reason + "' must be 1 to " + ShortText.MAX_LENGTH
                        + " letters, digits or punctuation, not starting with a space");
            }
            command.reason(text);
        }
        return submitForSession(command, session);
    }

    @Command(name = "set-seq", description = "Set a disconnected session's next sequence numbers (34), kept across restarts.")
    int setSeq(@Parameters(paramLabel = "GW:COMPID") final String session,
               @Option(names = "--sender", required = true, paramLabel = "N", description = "MsgSeqNum of the gateway's next message to the client")
               final long sender,
               @Option(names = "--target", required = true, paramLabel = "N", description = "MsgSeqNum expected on the client's next message")
               final long target) {
        return submitForSession(new AdminCommand().action(AdminAction.SET_SEQUENCE).sequence(sender, target), session);
    }

    /** {@code cancel --session GW:COMPID | --instrument SYM | --all}. */
    @Command(name = "cancel", mixinStandardHelpOptions = true,
            description = "Cancel every resting order of a session, of an instrument, or all of them.")
    static final class Cancel implements Callable<Integer> {
        @ParentCommand
        private AdminMain admin;

        @ArgGroup(exclusive = true, multiplicity = "1")
        private Scope scope;

        /** Exactly one of the three. */
        static final class Scope {
            @Option(names = "--session", paramLabel = "GW:COMPID", description = "that session's orders")
            private String session;
            @Option(names = "--instrument", paramLabel = "SYM", description = "that instrument's orders, whoever owns them")
            private String instrument;
            @Option(names = "--all", description = "every resting order")
            private boolean all;
        }

        @Override
        public Integer call() {
            if (scope.session != null) {
                return admin.submitForSession(new AdminCommand().action(AdminAction.CANCEL_SESSION), scope.session);
            }
            if (scope.instrument != null) {
                return admin.submitSymbol(AdminAction.CANCEL_INSTRUMENT, scope.instrument);
            }
            return admin.submit(new AdminCommand().action(AdminAction.CANCEL_ALL));
        }
    }

    /** on|off. */
    enum OnOff {
        ON,
        OFF
    }

    /** open|close. */
    enum OpenClose {
        OPEN,
        CLOSE
    }

    private int submitSymbol(final AdminAction action, final String symbol) {
        final long sym = ShortText.parse(symbol);
        if (sym == ShortText.INVALID) {
            return badInput("'" + symbol + "' is not an instrument symbol (1 to " + ShortText.MAX_LENGTH + " characters)");
        }
        return submit(new AdminCommand().action(action).symbol(sym));
    }

    /** Checks that a gateway hosts the session named {@code GW:COMPID}, then submits {@code command} for it. */
    private int submitForSession(final AdminCommand command, final String session) {
        if (!rootExists()) {
            return EXIT_BAD_INPUT;
        }
        final int colon = session.indexOf(':');
        final int gatewayId;
        try {
            gatewayId = colon > 0 ? Integer.parseInt(session.substring(0, colon)) : -1;
        } catch (final NumberFormatException e) {
            return badInput("'" + session + "' is not GW:COMPID (a gateway id, a colon, the client's SenderCompID)");
        }
        final String compId = colon > 0 ? session.substring(colon + 1) : "";
        if (gatewayId <= 0 || ShortText.parse(compId) == ShortText.INVALID) {
            return badInput("'" + session + "' is not GW:COMPID (a gateway id, a colon, the client's SenderCompID)");
        }
        final KnownSessions known = KnownSessions.read(root);
        if (known.gateway(gatewayId) == null) {
            return badInput("no gateway " + gatewayId + " has run under " + root.toAbsolutePath() + " (gateways: "
                    + (known.gatewayIds().isEmpty() ? "none" : known.gatewayIds()) + ")");
        }
        if (known.find(gatewayId, compId).isEmpty()) {
            return badInput("gateway " + gatewayId + " has no session " + compId + " (its sessions: "
                    + String.join(", ", known.sessionsOf(gatewayId)) + ")");
        }
        return submit(command.gatewayId(gatewayId).session(ShortText.parse(compId)));
    }

    /** Appends {@code command} to the admin journal as this OS user, waits for its answer and prints it. */
    private int submit(final AdminCommand command) {
        if (!rootExists()) {
            return EXIT_BAD_INPUT;
        }
        command.user(user());
        command.metaData().clearTimestamps().commandWriting(SluiceClock.nowTicks()); // when, for the audit trail
        final AdminAction action = command.action();
        final boolean gatewayAction = action.actor() == AdminAction.Actor.GATEWAY;
        final long eventId;
        try (AnswerWatch watch = new AnswerWatch(root, gatewayAction ? command.gatewayId() : 0, clock)) {
            try (AdminJournal journal = AdminJournal.open(root, clock)) {
                eventId = journal.append(command);
            } catch (final IllegalStateException othersCouldWrite) {
                return badInput(othersCouldWrite.getMessage());
            } catch (final LockHeldException written) { // a receiver rebuilds this root's admin journal
                return badInput("cannot append to the admin journal: " + written.getMessage());
            }
            watch.await(eventId, timeout.toNanos());
            final AnswerWatch.Answer answer = gatewayAction && watch.gatewayAnswer() != null ? watch.gatewayAnswer()
                    : watch.engineAnswer();
            if (answer == null || answer.result() == AdminResult.PASSED_TO_GATEWAY) {
                return noAnswer(command, eventId);
            }
            final PrintWriter out = out();
            if (answer.result() == AdminResult.REFUSED) {
                out.println("refused: " + answer.refusal().text());
                out.flush();
                return EXIT_REFUSED;
            }
            out.println("acknowledged: " + OutcomeText.acknowledged(command, answer.affected()));
            out.flush();
            return EXIT_ACKNOWLEDGED;
        }
    }

    private int noAnswer(final AdminCommand command, final long eventId) {
        final KnownSessions known = KnownSessions.read(root);
        final boolean gatewayAction = command.action().actor() == AdminAction.Actor.GATEWAY;
        final String who = gatewayAction ? "gateway " + command.gatewayId() : "the engine";
        final Liveness liveness = gatewayAction ? known.gateway(command.gatewayId()) : known.engine();
        final String state = liveness == null ? who + " has never run under this root"
                : liveness == Liveness.RUNNING ? who + " runs but has not answered yet (busy or behind)"
                : who + " is not running";
        final PrintWriter err = err();
        err.println("no answer from " + who + " within " + timeout.toMillis() / 1000.0 + " s: " + state + ". The command "
                + "stays in the admin journal (event " + eventId + ") and is carried out when " + who + " reads it.");
        err.flush();
        return EXIT_NO_ANSWER;
    }

    private boolean rootExists() {
        if (!Files.isDirectory(root)) {
            badInput("no such directory: " + root.toAbsolutePath());
            return false;
        }
        return true;
    }

    private int badInput(final String message) {
        final PrintWriter err = err();
        err.println("admin: " + message);
        err.flush();
        return EXIT_BAD_INPUT;
    }

    /** @return this OS user, as the journal keeps it (its first 10 characters) */
    private static long user() {
        final String name = System.getProperty("user.name", "?");
        final long user = ShortText.parse(name.length() > ShortText.MAX_LENGTH ? name.substring(0, ShortText.MAX_LENGTH) : name);
        return user == ShortText.INVALID ? ShortText.parse("?") : user;
    }

    private PrintWriter out() {
        return spec.commandLine().getOut();
    }

    private PrintWriter err() {
        return spec.commandLine().getErr();
    }
}
