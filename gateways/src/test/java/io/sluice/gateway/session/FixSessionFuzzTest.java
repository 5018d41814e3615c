package io.sluice.gateway.session;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.sluice.gateway.codec.FuzzedMessages;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fuzzes a logged-on session with FIX-shaped messages (right and wrong sequence numbers, CompIDs, types,
 * fields and framing). Properties: nothing throws; everything the session sends is a well-formed FIX 4.4
 * message (checked by {@link MemoryConnection}); sequence numbers never go backwards.
 */
class FixSessionFuzzTest {
    @TempDir
    static Path journal;

    private static SessionTestBench bench;

    @BeforeAll
    static void open() {
        bench = new SessionTestBench(journal, (session, message) -> session.businessReject(message, 3, "fuzz"));
    }

    @AfterAll
    static void close() {
        bench.close();
    }

    @FuzzTest(maxDuration = "60s")
    void anythingIsAnsweredWithWellFormedFixAndSequencesNeverGoBack(final FuzzedDataProvider data) {
        if (bench.session.state() == FixSessionState.DISCONNECTED) {
            bench.reconnect();
            bench.clientSeq = bench.session.nextTargetSeq();
            bench.logon(30);
        }
        final int messages = data.consumeInt(1, 5);
        for (int i = 0; i < messages && !bench.connection.isClosed(); i++) {
            final long senderBefore = bench.session.nextSenderSeq();
            final long targetBefore = bench.session.nextTargetSeq();
            final long seq = bench.session.nextTargetSeq() + (data.consumeInt(0, 3) == 0 ? data.consumeInt(-2, 2) : 0);
            final byte[] frame = FuzzedMessages.frame(data, FuzzedMessages.body(data,
                    data.consumeInt(0, 7) == 0 ? "CLIENT2" : "CLIENT1", seq, "20261122-10:00:00.000"));
            bench.acceptor.onData(bench.connection, new UnsafeBuffer(frame), 0, frame.length, 0);
            bench.session.onTimer();
            assertTrue(bench.session.nextSenderSeq() >= senderBefore, "outgoing sequence went back");
            assertTrue(bench.session.nextTargetSeq() >= targetBefore, "incoming sequence went back");
            bench.connection.clear();
        }
    }
}
