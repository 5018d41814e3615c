package io.sluice.gateway.session;

import io.sluice.gateway.codec.FixEncoder;
import io.sluice.gateway.codec.FixTags;
import io.sluice.gateway.codec.MsgTypes;
import io.sluice.testkit.fix.FixFields;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Refused logons, as an attacker sees them: every refusal reads the same, and guessing passwords meets a
 * back-off per (CompID, source address) and per source address (3 failures allowed, then 1 s, doubling, at most
 * 60 s) that holds even for the right password, and never for the CompID from another address. Time is the bench's
 * hand-moved clock.
 */
class LogonRefusalTest {
    private static final long ATTACKER = 11;
    private static final long ELSEWHERE = 12;

    @TempDir
    Path dir;
    SessionTestBench bench;

    @BeforeEach
    void setUp() {
        bench = new SessionTestBench(dir.resolve("store"), (session, message) -> { });
    }

    @AfterEach
    void tearDown() {
        bench.close();
    }

    @Nested
    class EveryRefusedLogonReadsTheSame {
        @Test
        void anUnknownCompId() {
            assertRejected(connect(ATTACKER), "NOBODY", "SLUICE", 1, password("secret"));
        }

        @Test
        void aWrongPassword() {
            assertRejected(connect(ATTACKER), "CLIENT1", "SLUICE", 1, password("guess"));
        }

        @Test
        void aWrongTargetCompId() {
            assertRejected(connect(ATTACKER), "CLIENT1", "OTHER", 1, password("secret"));
        }

        @Test
        void aSessionAlreadyLoggedOn() {
            bench.logon(30);
            assertRejected(connect(ELSEWHERE), "CLIENT1", "SLUICE", 1, password("secret"));
            assertEquals(FixSessionState.ACTIVE, bench.session.state(), "the session logged on is untouched");
        }

        @Test
        void aCompIdBlockedFromThisAddress() {
            guessWrong(3, ATTACKER);
            assertRejected(connect(ATTACKER), "CLIENT1", "SLUICE", 1, password("secret"));
        }

        @Test
        void anUnknownCompIdBlockedFromThisAddress() {
            for (int i = 0; i < 3; i++) {
                assertRejected(connect(ATTACKER), "NOBODY", "SLUICE", 1, password("guess" + i));
            }
            assertRejected(connect(ATTACKER), "NOBODY", "SLUICE", 1, password("secret"));
        }

        @Test
        void aMsgSeqNumBelowTheExpectedOne() {
            bench.logon(30);
            bench.send(MsgTypes.LOGOUT, logout -> { });
            assertRejected(connect(ATTACKER), "CLIENT1", "SLUICE", 1, password("secret"));
        }

        @Test
        void aHeartBtIntOutOfRange() {
            assertRejected(connect(ATTACKER), "CLIENT1", "SLUICE", 1,
                    logon -> logon.textField(FixTags.PASSWORD, "secret").longField(FixTags.HEART_BT_INT, 1_000_000));
        }
    }

    @Nested
    class PasswordGuessing {
        @Test
        void afterThreeWrongPasswordsTheRightOneIsRefusedUntilTheBackOffEnds() {
            guessWrong(3, ATTACKER);
            assertRejected(connect(ATTACKER), "CLIENT1", "SLUICE", 1, password("secret"));
            bench.advance(999);
            assertRejected(connect(ATTACKER), "CLIENT1", "SLUICE", 1, password("secret"));
            bench.advance(1);
            assertLogsOn(connect(ATTACKER));
        }

        @Test
        void eachFurtherFailureDoublesTheBackOff() {
            guessWrong(3, ATTACKER);
            bench.advance(1_000);
            guessWrong(1, ATTACKER);
            bench.advance(1_999);
            assertRejected(connect(ATTACKER), "CLIENT1", "SLUICE", 1, password("secret"));
            bench.advance(1);
            assertLogsOn(connect(ATTACKER));
        }

        @Test
        void theBackOffIsCappedAtSixtySeconds() {
            for (int i = 0; i < 20; i++) {
                guessWrong(1, ATTACKER);
                bench.advance(60_000);
            }
            guessWrong(1, ATTACKER);
            bench.advance(59_999);
            assertRejected(connect(ATTACKER), "CLIENT1", "SLUICE", 1, password("secret"));
            bench.advance(1);
            assertLogsOn(connect(ATTACKER));
        }

        @Test
        void attemptsWhileBlockedDoNotExtendTheBlock() {
            guessWrong(3, ATTACKER);
            for (int i = 0; i < 30; i++) {
                assertRejected(connect(ATTACKER), "CLIENT1", "SLUICE", 1, password("guess"));
            }
            bench.advance(1_000);
            assertLogsOn(connect(ATTACKER));
        }

        @Test
        void failuresFromOneAddressNeverBlockTheCompIdFromAnother() {
            for (int i = 0; i < 20; i++) {
                guessWrong(1, ATTACKER);
                bench.advance(1_000);
            }
            assertRejected(connect(ATTACKER), "CLIENT1", "SLUICE", 1, password("secret"));
            assertLogsOn(connect(ELSEWHERE));
        }

        @Test
        void theOwnersLogonDoesNotClearTheAttackersCount() {
            guessWrong(2, ATTACKER);
            assertLogsOn(connect(ELSEWHERE));
            bench.send(MsgTypes.LOGOUT, logout -> { });
            guessWrong(1, ATTACKER);
            assertRejected(connect(ATTACKER), "CLIENT1", "SLUICE", 1, password("secret"));
        }

        @Test
        void anAddressGuessingCompIdsIsBlockedForEveryCompId() {
            for (int i = 0; i < 3; i++) {
                assertRejected(connect(ATTACKER), "GUESS" + i, "SLUICE", 1, password("secret"));
            }
            assertRejected(connect(ATTACKER), "CLIENT1", "SLUICE", 1, password("secret"));
            assertLogsOn(connect(ELSEWHERE));
        }

        @Test
        void aSuccessfulLogonForgetsEarlierFailures() {
            guessWrong(2, ATTACKER);
            assertLogsOn(connect(ATTACKER));
            bench.send(MsgTypes.LOGOUT, logout -> { });
            guessWrong(2, ATTACKER);
            assertLogsOn(connect(ATTACKER));
        }
    }

    private MemoryConnection connect(final long address) {
        bench.connection = new MemoryConnection().from(address);
        return bench.connection;
    }

    private void guessWrong(final int times, final long address) {
        for (int i = 0; i < times; i++) {
            assertRejected(connect(address), "CLIENT1", "SLUICE", 1, password("guess" + i));
        }
    }

    private static Consumer<FixEncoder> password(final String password) {
        return logon -> logon.textField(FixTags.PASSWORD, password).longField(FixTags.HEART_BT_INT, 30);
    }

    private void assertRejected(final MemoryConnection connection, final String sender, final String target,
                                final long seq, final Consumer<FixEncoder> fields) {
        bench.client.start(MsgTypes.LOGON).header(sender.getBytes(), target.getBytes(), seq, bench.clock.time())
                .longField(FixTags.ENCRYPT_METHOD, 0);
        fields.accept(bench.client);
        bench.client.finish();
        bench.acceptor.onData(connection, bench.client.buffer(), bench.client.messageOffset(),
                bench.client.messageLength(), 0);
        final FixFields logout = connection.next("5");
        assertEquals(FixAcceptor.LOGON_REJECTED, logout.get(FixTags.TEXT));
        assertTrue(connection.isClosed());
    }

    private void assertLogsOn(final MemoryConnection connection) {
        bench.logon(30);
        assertEquals("A", connection.next("A").msgType());
        assertEquals(bench.session, connection.session());
        assertEquals(FixSessionState.ACTIVE, bench.session.state());
    }
}
