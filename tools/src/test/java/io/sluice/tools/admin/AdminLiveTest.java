package io.sluice.tools.admin;

import io.sluice.contracts.AdminCommands;
import io.sluice.contracts.journal.Journals;
import io.sluice.runtime.process.JavaProcess;
import io.sluice.runtime.process.PollUntil;
import io.sluice.tools.fix.FixClientSession;
import io.sluice.tools.fix.FixTransport;
import io.sluice.tools.fix.SessionIdentity;
import io.sluice.tools.fix.SluiceDeployment;
import io.sluice.tools.fix.SluiceIdle;
import io.sluice.tools.fix.Watchdog;
import net.openhft.chronicle.bytes.MethodReader;
import net.openhft.chronicle.queue.ChronicleQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ./sluice admin} against a real engine and gateway (child processes) and a FIX client: {@code sessions} lists
 * what the gateway publishes, for every gateway running under the root; a disconnect logs the connected client out with the reason; set-seq shows in
 * {@code sessions}; the gateway's refusals (not connected, bad sequence number) are printed with exit 1; an unknown
 * gateway or session, and an admin journal others could write, are refused before anything is written (exit 2). The
 * command line runs in this JVM (its output captured), and once as a process of its own, as {@code ./sluice} runs it.
 */
class AdminLiveTest {
    static final String PASSWORD = "secret";
    static final Duration TIMEOUT = Duration.ofSeconds(120);

    @TempDir
    Path dir;

    @Test
    void sessionCommandsAreCarriedOutByTheGatewayAndBadOnesRefused() throws Exception {
        final SessionIdentity trader = SessionIdentity.ofSluiceClient("TRADER", PASSWORD);
        final SessionIdentity seeder = SessionIdentity.ofSluiceClient("SEEDER", PASSWORD);
        try (SluiceDeployment sluice = SluiceDeployment.start(dir.resolve("sluice"), List.of(
                new SluiceDeployment.GatewaySpec(1, FixTransport.TCP, List.of(trader, seeder))),
                SluiceIdle.BACKOFF, SluiceDeployment.ProcessSettings.defaults());
             FixClientSession traderSession = new FixClientSession(sluice.endpoint(1), trader);
             Watchdog ignored = Watchdog.closeAfter(TIMEOUT, traderSession)) {
            final Path root = sluice.journals();
            traderSession.logon(TIMEOUT);
            final Pattern traderActive = Pattern.compile("1:TRADER +SLUICE +ACTIVE +2 +2  running");
            awaitSessions(root, traderActive);
            assertTrue(admin(root, "sessions").out.contains("1:SEEDER"));

            final Run unknownSession = admin(root, "disconnect", "1:NOBODY");
            assertEquals(AdminMain.EXIT_BAD_INPUT, unknownSession.exit, unknownSession::toString);
            assertEquals("admin: gateway 1 has no session NOBODY (its sessions: 1:SEEDER, 1:TRADER)\n", unknownSession.err);
            final Run unknownGateway = admin(root, "cancel", "--session", "7:TRADER");
            assertEquals(AdminMain.EXIT_BAD_INPUT, unknownGateway.exit, unknownGateway::toString);
            assertTrue(unknownGateway.err.contains("no gateway 7 has run under"), unknownGateway::toString);
            assertEquals(0, adminCommands(root), "nothing was written for an unknown session");

            final Run disconnect = admin(root, "disconnect", "1:TRADER", "--reason", "maint");
            assertEquals(new Run(0, "acknowledged: 1:TRADER logged out and disconnected\n", ""), disconnect);
            final IOException loggedOut = assertThrows(IOException.class, () -> {
                while (traderSession.poll((report, nanos) -> { })) {
                    // until the Logout
                }
            });
            assertTrue(loggedOut.getMessage().contains("Disconnected by the operator: maint"), loggedOut::getMessage);

            final Run again = admin(root, "disconnect", "1:TRADER");
            assertEquals(new Run(AdminMain.EXIT_REFUSED, "refused: the session is not connected\n", ""), again);
            final Run badSeq = admin(root, "set-seq", "1:TRADER", "--sender", "0", "--target", "5");
            assertEquals(new Run(AdminMain.EXIT_REFUSED, "refused: sequence numbers must be at least 1\n", ""), badSeq);
            final Run setSeq = admin(root, "set-seq", "1:TRADER", "--sender", "40", "--target", "60");
            assertEquals(new Run(0, "acknowledged: 1:TRADER next MsgSeqNum out 40, in 60\n", ""), setSeq);
            awaitSessions(root, Pattern.compile("1:TRADER +SLUICE +DISCONNECTED +40 +60  running"));

            final Path adminDir = Journals.adminJournal(root);
            Files.setPosixFilePermissions(adminDir, PosixFilePermissions.fromString("rwxr-x---"));
            final Run wider = admin(root, "kill-switch", "on");
            Files.setPosixFilePermissions(adminDir, PosixFilePermissions.fromString("rwx------"));
            assertEquals(AdminMain.EXIT_BAD_INPUT, wider.exit, wider::toString);
            assertTrue(wider.err.contains("admin journal " + adminDir.toAbsolutePath()) && wider.err.contains("rwxr-x---"),
                    wider::toString);
            assertEquals(4, adminCommands(root), "the journal holds the 4 commands written, and no more");

            // As ./sluice runs it: a process of its own, its exit code the answer.
            try (JavaProcess process = JavaProcess.start("admin", dir.resolve("admin.log"), List.of(), AdminMain.class,
                    "--root", root.toString(), "disconnect", "1:SEEDER")) {
                assertEquals(AdminMain.EXIT_REFUSED, process.waitFor(TIMEOUT.toSeconds()), process.logText());
                assertTrue(process.logText().contains("refused: the session is not connected"), process::logText);
            }
        }
    }

    @Test
    void sessionsListsTheSessionsOfEveryGatewayRunningUnderTheRoot() throws Exception {
        final SessionIdentity first = SessionIdentity.ofSluiceClient("TRADER1", PASSWORD);
        final SessionIdentity second = SessionIdentity.ofSluiceClient("TRADER2", PASSWORD);
        final SessionIdentity idle = SessionIdentity.ofSluiceClient("IDLE2", PASSWORD);
        try (SluiceDeployment sluice = SluiceDeployment.start(dir.resolve("sluice"), List.of(
                new SluiceDeployment.GatewaySpec(1, FixTransport.TCP, List.of(first)),
                new SluiceDeployment.GatewaySpec(2, FixTransport.TCP, List.of(second, idle))),
                SluiceIdle.BACKOFF, SluiceDeployment.ProcessSettings.defaults());
             FixClientSession onFirst = new FixClientSession(sluice.endpoint(1), first);
             FixClientSession onSecond = new FixClientSession(sluice.endpoint(2), second);
             Watchdog firstWatched = Watchdog.closeAfter(TIMEOUT, onFirst);
             Watchdog secondWatched = Watchdog.closeAfter(TIMEOUT, onSecond)) {
            final Path root = sluice.journals();
            onFirst.logon(TIMEOUT);
            onSecond.logon(TIMEOUT);
            awaitSessions(root, Pattern.compile("(?s)1:TRADER1 +SLUICE +ACTIVE +2 +2  running\\n"
                    + "2:IDLE2 +SLUICE +DISCONNECTED +1 +1  running\\n"
                    + "2:TRADER2 +SLUICE +ACTIVE +2 +2  running\\n$"));
        }
    }

    /** What one run of the command line printed and returned. */
    record Run(int exit, String out, String err) {
    }

    /** Runs {@code ./sluice admin --root ROOT args...} in this JVM. */
    static Run admin(final Path root, final String... args) {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final CommandLine command = AdminMain.commandLine();
        command.setOut(new PrintWriter(out));
        command.setErr(new PrintWriter(err));
        final List<String> all = new ArrayList<>(List.of("--root", root.toString()));
        all.addAll(List.of(args));
        final int exit = command.execute(all.toArray(new String[0]));
        return new Run(exit, out.toString(), err.toString());
    }

    /** Runs {@code sessions} until its output has a line matching {@code line} (the gateway samples every 100 ms). */
    static void awaitSessions(final Path root, final Pattern line) {
        final AtomicReference<String> last = new AtomicReference<>();
        PollUntil.await(() -> {
            last.set(admin(root, "sessions").out);
            return line.matcher(last.get()).find();
        }, TIMEOUT, () -> "sessions to show " + line + ":\n" + last.get());
    }

    /** @return how many commands the admin journal holds */
    static int adminCommands(final Path root) {
        final int[] count = {0};
        try (ChronicleQueue queue = Journals.openReadOnly(Journals.adminJournal(root))) {
            final MethodReader reader = queue.createTailer().methodReader((AdminCommands) command -> count[0]++);
            while (reader.readOne()) {
                // counting
            }
        }
        return count[0];
    }
}
