package io.sluice.replay;

import io.sluice.contracts.AdminAction;
import io.sluice.contracts.AdminCommand;
import io.sluice.contracts.GatewayToEngine;
import io.sluice.contracts.journal.Journals;
import io.sluice.engine.EngineService;
import io.sluice.engine.config.EngineConfig;
import io.sluice.engine.load.MixedOrderFlow;
import io.sluice.engine.snapshot.SnapshotMain;
import io.sluice.runtime.admin.AdminJournal;
import io.sluice.runtime.agent.AgentThread;
import io.sluice.runtime.agent.IdleConfig;
import io.sluice.runtime.process.CpuPinning;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.wire.ShortTextLongConverter;
import org.agrona.concurrent.SystemNanoClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

import static io.sluice.replay.ReplayAssertions.assertReplaysIdentically;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Operators' commands are inputs like any other: a recording in which the engine process's loop consumed the admin
 * journal between the two gateways' commands (halts, the kill switch, cancels, a close with DAY orders expiring and
 * the next open, the shipper's lease lapsing and regained) replays byte for byte, from the start and from a snapshot
 * taken after admin commands changed the engine's trading state, and a shadow engine ({@code replay --follow}) follows it to its end identically.
 */
final class ReplayAdminCommandsTest {
    private static final int ROUNDS = 40;
    private static final int COMMANDS_PER_ROUND = 25;
    /**
     * One admin command per round, in this order, again and again: the shipper's lease lapses in the last round but one
     * (38 % 14), so the last snapshot holds it lapsed.
     */
    private static final String[][] ADMIN = {
            {"HALT", "VOD.L"}, {"KILL_SWITCH_ON", ""}, {"CLOSE_TRADING", ""}, {"KILL_SWITCH_OFF", ""},
            {"OPEN_TRADING", ""}, {"LEASE_REGAINED", ""}, {"RESUME", "VOD.L"}, {"CANCEL_INSTRUMENT", "AZN.L"},
            {"CANCEL_SESSION", "G1S1"}, {"CLOSE_TRADING", "AZN.L"}, {"LEASE_LAPSED", ""}, {"CANCEL_ALL", ""},
            {"OPEN_TRADING", "AZN.L"}, {"DISCONNECT", "G2S0"}};

    @TempDir
    Path dir;

    @Test
    void aRecordingWithAdminCommandsReplaysIdenticallyFromTheStartAndFromASnapshot() throws Exception {
        final Path root = dir.resolve("recorded");
        final EngineConfig config = EngineConfig.parse(RecordedSession.configYaml(root, 1000), "the recording's config")
                .pretouch(false);
        final long inputs = record(root, config, ReplayAdminCommandsTest::command);

        final ReplayResult result = assertReplaysIdentically(root, config);
        assertEquals(inputs, result.inputs());

        // Snapshots after every 7th input: the last one falls after admin commands changed the trading state.
        final SnapshotMain.Summary snapshots = SnapshotMain.run(config, root, 7, false);
        assertTrue(snapshots.written() > 1, snapshots.describe());
        final Replay fromSnapshot = new Replay(root, config).output(dir.resolve("from-snapshot"))
                .fromSnapshot(snapshots.lastEngineIndex());
        final ReplayResult rest = assertReplaysIdentically(fromSnapshot);
        assertEquals(inputs - inputs / 7 * 7, rest.inputs(), rest.summary());

        final ByteArrayOutputStream printed = new ByteArrayOutputStream();
        final ShadowEngine shadow = new ShadowEngine(new Replay(root, config).output(dir.resolve("shadow")),
                new PrintStream(printed, true, StandardCharsets.UTF_8),
                TimeUnit.MILLISECONDS.toNanos(200));
        final AgentThread thread = AgentThread.start(shadow,
                new IdleConfig().newStrategy(), CpuPinning.NONE,
                AgentThread.Priority.NORMAL);
        assertTrue(thread.awaitClosed(120, TimeUnit.SECONDS), "the shadow stops by itself at the end");
        assertEquals(null, thread.failure(), () -> "the shadow failed; it printed " + printed);
        final ReplayResult followed = shadow.result();
        assertTrue(followed.identical(), followed::summary);
        assertEquals(inputs, followed.inputs(), followed.summary());
    }

    /**
     * Writes rounds of gateway commands and one admin command each ({@code commands} gives the round's), the engine
     * loop consuming each round before the next is written. @return how many inputs the engine consumed
     */
    static long record(final Path root, final EngineConfig config, final IntFunction<AdminCommand> commands) {
        long written = 0;
        try (EngineService engine = EngineService.launch(config);
             ChronicleQueue gateway1 = Journals.open(Journals.gatewayJournal(root, 1));
             ChronicleQueue gateway2 = Journals.open(Journals.gatewayJournal(root, 2));
             AdminJournal admin = AdminJournal.open(root, SystemNanoClock.INSTANCE)) {
            final GatewayToEngine writer1 = Journals.methodWriter(gateway1.createAppender(), GatewayToEngine.class);
            final GatewayToEngine writer2 = Journals.methodWriter(gateway2.createAppender(), GatewayToEngine.class);
            final MixedOrderFlow flow1 = new MixedOrderFlow(11, 1, config.instruments(), 3);
            final MixedOrderFlow flow2 = new MixedOrderFlow(12, 2, config.instruments(), 3);
            for (int round = 0; round < ROUNDS; round++) {
                for (int i = 0; i < COMMANDS_PER_ROUND; i++) {
                    flow1.next(writer1);
                    flow2.next(writer2);
                }
                admin.append(commands.apply(round));
                written += 2 * COMMANDS_PER_ROUND + 1;
                while (engine.processed() < written) {
                    engine.poll();
                }
            }
        }
        return written;
    }

    private static AdminCommand command(final int round) {
        final String[] entry = ADMIN[round % ADMIN.length];
        final AdminAction action = AdminAction.valueOf(entry[0]);
        final AdminCommand command = new AdminCommand().action(action).user(text("test"));
        if (action == AdminAction.CANCEL_SESSION || action == AdminAction.DISCONNECT) {
            command.gatewayId(entry[1].charAt(1) - '0').session(text(entry[1]));
        } else if (!entry[1].isEmpty()) {
            command.symbol(text(entry[1]));
        }
        return command;
    }

    static long text(final String text) {
        return ShortTextLongConverter.INSTANCE.parse(text);
    }
}
