package io.sluice.engine.process;

import io.sluice.contracts.AdminAction;
import io.sluice.contracts.AdminCommand;
import io.sluice.engine.config.TwoInstrumentMarket;
import io.sluice.runtime.admin.AdminJournal;
import net.openhft.chronicle.wire.ShortTextLongConverter;
import org.agrona.concurrent.SystemNanoClock;

import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;

/**
 * An operator stand-in as a child process: {@code AdminWriterMain <root> <count> <pauseMicros>} appends {@code count}
 * admin commands to the admin journal. It writes through {@link AdminJournal}, pausing {@code pauseMicros} after each,
 * cycling through {@link #CYCLE}: every engine action (cancels, the kill switch, halt and resume, closing and opening
 * the trading session, with the refusals the cycle's order brings) and a gateway action, over the instruments and
 * sessions of {@link TwoInstrumentMarket} and {@link GatewayJournalWriter}.
 */
public final class AdminWriterMain {
    /** The commands, in the order they are appended, again and again. */
    private static final String[][] CYCLE = {
            {"HALT", "VOD.L"}, {"CANCEL_INSTRUMENT", "BARC.L"}, {"HALT", "VOD.L"}, {"RESUME", "VOD.L"},
            {"KILL_SWITCH_ON", ""}, {"KILL_SWITCH_OFF", ""}, {"CLOSE_TRADING", ""}, {"OPEN_TRADING", "BARC.L"},
            {"OPEN_TRADING", ""}, {"CANCEL_SESSION", "G1S0"}, {"CANCEL_ALL", ""}, {"DISCONNECT", "G2S1"},
            {"CLOSE_TRADING", "VOD.L"}, {"OPEN_TRADING", "VOD.L"}};
    /** How many commands make up the cycle. */
    public static final int CYCLE_LENGTH = CYCLE.length;

    private AdminWriterMain() {
    }

    public static void main(final String[] args) {
        final Path root = Path.of(args[0]);
        final long count = Long.parseLong(args[1]);
        final long pauseNanos = Long.parseLong(args[2]) * 1_000;
        try (AdminJournal journal = AdminJournal.open(root, SystemNanoClock.INSTANCE)) {
            for (long i = 0; i < count; i++) {
                journal.append(command(i));
                LockSupport.parkNanos(pauseNanos); // pacing a load, not waiting for anything
            }
        }
        System.out.println("admin writer: wrote " + count);
    }

    /** @return the {@code i}-th command of the cycle */
    static AdminCommand command(final long i) {
        final String[] entry = CYCLE[(int) (i % CYCLE.length)];
        final AdminAction action = AdminAction.valueOf(entry[0]);
        final AdminCommand command = new AdminCommand().action(action).user(text("test"));
        if (action == AdminAction.CANCEL_SESSION || action == AdminAction.DISCONNECT) {
            command.gatewayId(entry[1].charAt(1) - '0').session(text(entry[1]));
        } else if (!entry[1].isEmpty()) {
            command.symbol(text(entry[1]));
        }
        return command;
    }

    private static long text(final String text) {
        return ShortTextLongConverter.INSTANCE.parse(text);
    }
}
