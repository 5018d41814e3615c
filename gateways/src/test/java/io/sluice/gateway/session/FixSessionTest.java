package io.sluice.gateway.session;

import io.sluice.contracts.journal.Journals;
import io.sluice.gateway.JournalSessionStore;
import io.sluice.gateway.codec.FixBytes;
import io.sluice.gateway.codec.FixEncoder;
import io.sluice.gateway.codec.FixMessage;
import io.sluice.gateway.codec.FixTags;
import io.sluice.gateway.codec.MsgTypes;
import io.sluice.testkit.fix.FixFields;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The FIX 4.4 session protocol, rule by rule, as the acceptor side applies it. */
class FixSessionTest {
    @TempDir
    Path journal;

    private SessionTestBench bench;

    /**
     * The application under the session: business-rejects everything except a ListStatusRequest ("M", {@link #ECHO})
     * it echoes as an "8" (with the M's Text, or "echo").
     */
    private void onApplication(final FixSession session, final FixMessage message) {
        if (message.msgType() == ECHO) {
            final int text = message.indexOf(FixTags.TEXT);
            final FixEncoder echo = session.startApplicationMessage(MsgTypes.EXECUTION_REPORT);
            if (text >= 0) {
                echo.field(FixTags.TEXT, message.buffer(), message.valueOffset(text), message.valueLength(text));
            } else {
                echo.textField(FixTags.TEXT, "echo");
            }
            session.sendApplicationMessage(0);
        } else {
            session.businessReject(message, SessionRejectReason.BUSINESS_UNSUPPORTED_MESSAGE_TYPE, "Unsupported MsgType");
        }
    }

    /** ListStatusRequest: an application message FIX 4.4 defines with one required field, ListID (66), and Text. */
    private static final int ECHO = 'M';
    private static final int LIST_ID = 66;

    /** Sends the application message the test application echoes; {@code body} adds fields before its ListID. */
    private void echo(final Consumer<FixEncoder> body) {
        bench.send(ECHO, message -> {
            body.accept(message);
            message.textField(LIST_ID, "L1");
        });
    }

    private void echoWithSeq(final long seq, final Consumer<FixEncoder> body) {
        bench.sendWithSeq(ECHO, seq, message -> {
            body.accept(message);
            message.textField(LIST_ID, "L1");
        });
    }

    @BeforeEach
    void start() {
        bench = new SessionTestBench(journal, this::onApplication);
    }

    @AfterEach
    void stop() {
        bench.close();
    }

    @Nested
    class Logon {
        @Test
        void aValidLogonIsAnsweredWithLogonEchoingHeartBtInt() {
            bench.logon(30);
            final FixFields reply = bench.connection.next("A");
            assertEquals("30", reply.get(FixTags.HEART_BT_INT));
            assertEquals("0", reply.get(FixTags.ENCRYPT_METHOD));
            assertEquals("SLUICE", reply.get(FixTags.SENDER_COMP_ID));
            assertEquals("CLIENT1", reply.get(FixTags.TARGET_COMP_ID));
            assertEquals(1, reply.seqNum());
            assertEquals(FixSessionState.ACTIVE, bench.session.state());
            assertEquals(2, bench.session.nextTargetSeq());
        }

        @Test
        void aWrongPasswordIsLoggedOutAndClosed() {
            bench.send(MsgTypes.LOGON, logon -> logon.longField(FixTags.ENCRYPT_METHOD, 0)
                    .longField(FixTags.HEART_BT_INT, 30).textField(FixTags.PASSWORD, "guess"));
            final FixFields logout = bench.connection.next("5");
            assertEquals(FixAcceptor.LOGON_REJECTED, logout.get(FixTags.TEXT));
            assertTrue(bench.connection.isClosed());
            assertEquals(FixSessionState.DISCONNECTED, bench.session.state());
            assertEquals(1, bench.session.nextSenderSeq(), "a refused Logon is answered outside the session");
        }

        @Test
        void anUnknownSenderCompIdIsLoggedOut() {
            bench.client.start(MsgTypes.LOGON).header("NOBODY".getBytes(), SessionTestBench.GATEWAY, 1, bench.clock.time())
                    .longField(FixTags.ENCRYPT_METHOD, 0).longField(FixTags.HEART_BT_INT, 30).finish();
            bench.acceptor.onData(bench.connection, bench.client.buffer(), bench.client.messageOffset(),
                    bench.client.messageLength(), 0);
            final FixFields logout = bench.connection.next("5");
            assertEquals(FixAcceptor.LOGON_REJECTED, logout.get(FixTags.TEXT));
            assertEquals("NOBODY", logout.get(FixTags.TARGET_COMP_ID));
            assertTrue(bench.connection.isClosed());
        }

        @Test
        void aWrongTargetCompIdIsLoggedOut() {
            bench.client.start(MsgTypes.LOGON).header(SessionTestBench.CLIENT, "OTHER".getBytes(), 1, bench.clock.time())
                    .longField(FixTags.ENCRYPT_METHOD, 0).longField(FixTags.HEART_BT_INT, 30)
                    .textField(FixTags.PASSWORD, "secret").finish();
            bench.acceptor.onData(bench.connection, bench.client.buffer(), bench.client.messageOffset(),
                    bench.client.messageLength(), 0);
            assertEquals(FixAcceptor.LOGON_REJECTED, bench.connection.next("5").get(FixTags.TEXT));
        }

        @Test
        void theFirstMessageMustBeALogon() {
            bench.send(MsgTypes.HEARTBEAT, heartbeat -> { });
            assertEquals("First message must be a Logon (35=A)", bench.connection.next("5").get(FixTags.TEXT));
            assertTrue(bench.connection.isClosed());
        }

        @Test
        void aSecondConnectionForALoggedOnSessionIsRefused() {
            bench.logon(30);
            final MemoryConnection first = bench.connection;
            bench.reconnect();
            bench.logon(30);
            assertEquals(FixAcceptor.LOGON_REJECTED, bench.connection.next("5").get(FixTags.TEXT));
            assertFalse(first.isClosed());
            assertEquals(FixSessionState.ACTIVE, bench.session.state());
        }

        @Test
        void aHeartBtIntOfZeroIsRefusedWithTheMinimum() {
            bench.logon(0);
            assertEquals(FixAcceptor.LOGON_REJECTED, bench.connection.next("5").get(FixTags.TEXT));
            assertEquals(List.of("HeartBtInt (108) must be 1 to 3600 seconds"), bench.refusals, "the log names the range");
            assertTrue(bench.connection.isClosed());
            assertEquals(FixSessionState.DISCONNECTED, bench.session.state());
            assertEquals(1, bench.session.nextSenderSeq(), "a refused Logon is answered outside the session");
            assertEquals(1, bench.session.nextTargetSeq());
        }

        @Test
        void aHeartBtIntBelowTheSessionsMinimumIsRefusedAndTheMinimumAccepted() {
            bench.close();
            bench = new SessionTestBench(journal, FixSessionTest.this::onApplication, 5);
            bench.logon(4);
            assertEquals(FixAcceptor.LOGON_REJECTED, bench.connection.next("5").get(FixTags.TEXT));
            assertEquals(List.of("HeartBtInt (108) must be 5 to 3600 seconds"), bench.refusals, "the log names the range");
            assertTrue(bench.connection.isClosed());
            bench.reconnect();
            bench.clientSeq = 1;
            bench.logon(5);
            assertEquals("5", bench.connection.next("A").get(FixTags.HEART_BT_INT));
            assertEquals(FixSessionState.ACTIVE, bench.session.state());
        }

        @Test
        void resetSeqNumFlagStartsBothSequencesAgainAtOne() {
            bench.logon(30);
            bench.send(MsgTypes.HEARTBEAT, heartbeat -> { });
            bench.send(MsgTypes.LOGOUT, logout -> { });
            bench.reconnect();
            bench.clientSeq = 1;
            bench.send(MsgTypes.LOGON, logon -> logon.longField(FixTags.ENCRYPT_METHOD, 0)
                    .longField(FixTags.HEART_BT_INT, 30).textField(FixTags.PASSWORD, "secret")
                    .booleanField(FixTags.RESET_SEQ_NUM_FLAG, true));
            final FixFields reply = bench.connection.next("A");
            assertEquals(1, reply.seqNum());
            assertEquals("Y", reply.get(FixTags.RESET_SEQ_NUM_FLAG));
            assertEquals(2, bench.session.nextTargetSeq());
        }
    }

    @Nested
    class Heartbeats {
        @BeforeEach
        void logon() {
            bench.logon(30);
            bench.connection.next("A");
        }

        @Test
        void aHeartbeatIsSentAfterHeartBtIntWithoutSending() {
            bench.advance(29_999);
            bench.session.onTimer();
            assertTrue(bench.connection.nothingSent());
            bench.advance(1);
            bench.session.onTimer();
            bench.connection.next("0");
        }

        @Test
        void aTestRequestIsAnsweredWithAHeartbeatCarryingItsId() {
            bench.send(MsgTypes.TEST_REQUEST, request -> request.textField(FixTags.TEST_REQ_ID, "PING-7"));
            assertEquals("PING-7", bench.connection.next("0").get(FixTags.TEST_REQ_ID));
        }
    }

    /** A peer that goes silent (dead host, hung process, pulled cable) is found out and its session freed. */
    @Nested
    class DeadPeer {
        @BeforeEach
        void logonAtTheMinimumHeartBtInt() {
            bench.logon(1);
            bench.connection.next("A");
        }

        @Test
        void aSilentClientGetsATestRequestThenIsLoggedOutAndItsSessionIsFree() {
            bench.advance(1_000);
            bench.session.onTimer();
            bench.connection.next("0");
            bench.advance(200);
            bench.session.onTimer();
            assertTrue(bench.connection.next("1").has(FixTags.TEST_REQ_ID), "after HeartBtInt + 20 %");
            bench.advance(999);
            bench.session.onTimer();
            assertTrue(bench.connection.nothingSent());
            bench.advance(1);
            bench.session.onTimer();
            assertEquals("No message for 2 s, TestRequest unanswered", bench.connection.next("5").get(FixTags.TEXT));
            assertTrue(bench.connection.isClosed());
            assertEquals(FixSessionState.DISCONNECTED, bench.session.state());
            bench.reconnect();
            bench.logon(1);
            bench.connection.next("A");
            assertEquals(FixSessionState.ACTIVE, bench.session.state());
        }

        @Test
        void aGatewayThreadLateForBothLimitsSendsTheTestRequestBeforeAnyLogout() {
            bench.advance(3_000);
            bench.session.onTimer();
            assertTrue(bench.connection.next("1").has(FixTags.TEST_REQ_ID), "a TestRequest, not a Logout");
            assertTrue(bench.connection.nothingSent());
            assertEquals(FixSessionState.ACTIVE, bench.session.state());
            bench.advance(1_000);
            bench.session.onTimer();
            assertEquals("No message for 4 s, TestRequest unanswered", bench.connection.next("5").get(FixTags.TEXT));
        }

        @Test
        void aSilentClientIsLoggedOutEvenWhileAResendToItIsPaused() {
            echo(echo -> { });
            echo(echo -> { });
            bench.connection.next("8");
            bench.connection.next("8");
            bench.connection.takeOnly(1);
            bench.send(MsgTypes.RESEND_REQUEST, request -> request.longField(FixTags.BEGIN_SEQ_NO, 2)
                    .longField(FixTags.END_SEQ_NO, 0));
            assertEquals(2, bench.connection.next("8").seqNum());
            assertTrue(bench.connection.nothingSent(), "the resend waits for room: 3 is still to go");
            bench.advance(1_200);
            bench.session.onTimer();
            assertTrue(bench.connection.nothingSent(), "no TestRequest cuts into a resend");
            bench.advance(1_000);
            bench.session.onTimer();
            assertEquals("No message for 2 s", bench.connection.next("5").get(FixTags.TEXT));
            assertTrue(bench.connection.isClosed());
            assertEquals(FixSessionState.DISCONNECTED, bench.session.state());
        }
    }

    @Nested
    class Sequencing {
        @BeforeEach
        void logon() {
            bench.logon(30);
            bench.connection.next("A");
        }

        @Test
        void aMsgSeqNumTooHighIsAnsweredWithAResendRequestAndTheGapFilled() {
            bench.sendWithSeq(MsgTypes.HEARTBEAT, 5, heartbeat -> { });
            final FixFields request = bench.connection.next("2");
            assertEquals("2", request.get(FixTags.BEGIN_SEQ_NO));
            assertEquals("0", request.get(FixTags.END_SEQ_NO));
            assertEquals(FixSessionState.RESEND_REQUESTED, bench.session.state());
            bench.sendWithSeq(MsgTypes.SEQUENCE_RESET, 2, gapFill -> gapFill.booleanField(FixTags.POSS_DUP_FLAG, true)
                    .timestampField(FixTags.ORIG_SENDING_TIME, bench.clock.time())
                    .booleanField(FixTags.GAP_FILL_FLAG, true).longField(FixTags.NEW_SEQ_NO, 6));
            assertEquals(6, bench.session.nextTargetSeq());
            assertEquals(FixSessionState.ACTIVE, bench.session.state());
            assertTrue(bench.connection.nothingSent());
        }

        @Test
        void messagesAfterAGapAreHeldAndHandledInOrderOnceTheResendFillsIt() {
            echoWithSeq(3, echo -> echo.textField(FixTags.TEXT, "third"));
            echoWithSeq(4, echo -> echo.textField(FixTags.TEXT, "fourth"));
            assertEquals("2", bench.connection.next("2").get(FixTags.BEGIN_SEQ_NO));
            assertTrue(bench.connection.nothingSent(), "one ResendRequest; 3 and 4 wait for 2");
            echoWithSeq(2, echo -> echo.booleanField(FixTags.POSS_DUP_FLAG, true)
                    .timestampField(FixTags.ORIG_SENDING_TIME, bench.clock.time()).textField(FixTags.TEXT, "second"));
            assertEquals("second", bench.connection.next("8").get(FixTags.TEXT));
            assertEquals("third", bench.connection.next("8").get(FixTags.TEXT));
            assertEquals("fourth", bench.connection.next("8").get(FixTags.TEXT));
            assertEquals(5, bench.session.nextTargetSeq());
            assertEquals(FixSessionState.ACTIVE, bench.session.state());
            echoWithSeq(3, echo -> echo.booleanField(FixTags.POSS_DUP_FLAG, true)
                    .timestampField(FixTags.ORIG_SENDING_TIME, bench.clock.time()).textField(FixTags.TEXT, "third"));
            assertTrue(bench.connection.nothingSent(), "the client's resend of a held message is a duplicate");
        }

        @Test
        void heldMessagesAGapFillSkipsOverAreDropped() {
            echoWithSeq(3, echo -> echo.textField(FixTags.TEXT, "third"));
            echoWithSeq(5, echo -> echo.textField(FixTags.TEXT, "fifth"));
            bench.connection.next("2");
            bench.sendWithSeq(MsgTypes.SEQUENCE_RESET, 2, gapFill -> gapFill.booleanField(FixTags.POSS_DUP_FLAG, true)
                    .timestampField(FixTags.ORIG_SENDING_TIME, bench.clock.time())
                    .booleanField(FixTags.GAP_FILL_FLAG, true).longField(FixTags.NEW_SEQ_NO, 4));
            assertEquals(4, bench.session.nextTargetSeq(), "3 was filled over; 5 waits for 4");
            assertTrue(bench.connection.nothingSent());
            echoWithSeq(4, echo -> echo.booleanField(FixTags.POSS_DUP_FLAG, true)
                    .timestampField(FixTags.ORIG_SENDING_TIME, bench.clock.time()).textField(FixTags.TEXT, "fourth"));
            assertEquals("fourth", bench.connection.next("8").get(FixTags.TEXT));
            assertEquals("fifth", bench.connection.next("8").get(FixTags.TEXT));
            assertEquals(6, bench.session.nextTargetSeq());
        }

        @Test
        void aMsgSeqNumTooLowWithoutPossDupIsLoggedOut() {
            bench.sendWithSeq(MsgTypes.HEARTBEAT, 1, heartbeat -> { });
            assertEquals("MsgSeqNum too low, expecting 2 but received 1", bench.connection.next("5").get(FixTags.TEXT));
            assertTrue(bench.connection.isClosed());
        }

        @Test
        void aMsgSeqNumTooLowWithPossDupIsIgnored() {
            bench.sendWithSeq(MsgTypes.HEARTBEAT, 1, heartbeat -> heartbeat.booleanField(FixTags.POSS_DUP_FLAG, true)
                    .timestampField(FixTags.ORIG_SENDING_TIME, bench.clock.time() - 1000));
            assertTrue(bench.connection.nothingSent());
            assertFalse(bench.connection.isClosed());
            assertEquals(2, bench.session.nextTargetSeq());
        }

        @Test
        void sequenceResetInResetModeMovesTheExpectedNumberRegardlessOfMsgSeqNum() {
            bench.sendWithSeq(MsgTypes.SEQUENCE_RESET, 99, reset -> reset.longField(FixTags.NEW_SEQ_NO, 10));
            assertEquals(10, bench.session.nextTargetSeq());
            assertTrue(bench.connection.nothingSent());
        }

        @Test
        void sequenceResetMayNotLowerTheExpectedNumber() {
            bench.clientSeq = 5;
            bench.sendWithSeq(MsgTypes.SEQUENCE_RESET, 1, reset -> reset.longField(FixTags.NEW_SEQ_NO, 1));
            final FixFields reject = bench.connection.next("3");
            assertEquals("5", reject.get(FixTags.SESSION_REJECT_REASON));
            assertEquals("36", reject.get(FixTags.REF_TAG_ID));
            assertEquals("1", reject.get(FixTags.REF_SEQ_NUM));
            assertEquals("4", reject.get(FixTags.REF_MSG_TYPE));
            assertEquals(2, bench.session.nextTargetSeq(), "the expected number stays");
            assertFalse(bench.connection.isClosed());
        }

        @Test
        void sequenceResetInResetModeWithMsgSeqNumZeroMovesTheExpectedNumber() {
            // client: 35=4 34=0 36=10 (no 123)  ->  gateway: nothing, expects 10 next
            bench.sendWithSeq(MsgTypes.SEQUENCE_RESET, 0, reset -> reset.longField(FixTags.NEW_SEQ_NO, 10));
            assertTrue(bench.connection.nothingSent());
            assertFalse(bench.connection.isClosed());
            assertEquals(10, bench.session.nextTargetSeq());
            echoWithSeq(10, echo -> echo.textField(FixTags.TEXT, "tenth"));
            assertEquals("tenth", bench.connection.next("8").get(FixTags.TEXT));
        }

        @Test
        void sequenceResetInResetModeWithoutMsgSeqNumMovesTheExpectedNumber() {
            // client: 35=4 (no 34) 36=7  ->  gateway: nothing, expects 7 next
            bench.sendWithoutSeq(MsgTypes.SEQUENCE_RESET, reset -> reset.longField(FixTags.NEW_SEQ_NO, 7));
            assertTrue(bench.connection.nothingSent());
            assertFalse(bench.connection.isClosed());
            assertEquals(7, bench.session.nextTargetSeq());
        }

        @Test
        void sequenceResetToTheExpectedNumberChangesNothing() {
            bench.sendWithSeq(MsgTypes.SEQUENCE_RESET, 0, reset -> reset.longField(FixTags.NEW_SEQ_NO, 2));
            assertTrue(bench.connection.nothingSent());
            assertEquals(2, bench.session.nextTargetSeq());
        }

        @Test
        void sequenceResetLoweringTheNumberWithoutMsgSeqNumIsRejectedWithRefSeqNumZero() {
            // client: 35=4 (no 34) 36=1 while 2 is expected  ->  gateway: 35=3 45=0 373=5 371=36 372=4 (45 is required)
            bench.sendWithoutSeq(MsgTypes.SEQUENCE_RESET, reset -> reset.longField(FixTags.NEW_SEQ_NO, 1));
            final FixFields reject = bench.connection.next("3");
            assertEquals("5", reject.get(FixTags.SESSION_REJECT_REASON));
            assertEquals("36", reject.get(FixTags.REF_TAG_ID));
            assertEquals("4", reject.get(FixTags.REF_MSG_TYPE));
            assertEquals("0", reject.get(FixTags.REF_SEQ_NUM));
            assertEquals(2, bench.session.nextTargetSeq());
            assertFalse(bench.connection.isClosed());
        }

        @Test
        void sequenceResetThatMovesPastAGapReleasesTheSessionFromResending() {
            echoWithSeq(5, echo -> echo.textField(FixTags.TEXT, "fifth"));
            bench.connection.next("2");
            bench.sendWithSeq(MsgTypes.SEQUENCE_RESET, 0, reset -> reset.longField(FixTags.NEW_SEQ_NO, 6));
            assertEquals(6, bench.session.nextTargetSeq());
            assertEquals(FixSessionState.ACTIVE, bench.session.state());
            assertTrue(bench.connection.nothingSent(), "the held 5 was reset over, not handled");
        }

        @Test
        void possDupWithoutOrigSendingTimeIsRejected() {
            bench.send(MsgTypes.HEARTBEAT, heartbeat -> heartbeat.booleanField(FixTags.POSS_DUP_FLAG, true));
            final FixFields reject = bench.connection.next("3");
            assertEquals("1", reject.get(FixTags.SESSION_REJECT_REASON));
            assertEquals("122", reject.get(FixTags.REF_TAG_ID));
            assertEquals(3, bench.session.nextTargetSeq(), "a rejected message still uses its MsgSeqNum");
        }
    }

    /** A Logon with ResetSeqNumFlag (141) Y on a session that is already logged on: a counterparty's daily reset. */
    @Nested
    class ResetMidSession {
        @BeforeEach
        void logonAndExchange() {
            bench.logon(30);
            bench.connection.next("A");
            echo(echo -> echo.textField(FixTags.TEXT, "before"));
            bench.connection.next("8");
            bench.send(MsgTypes.HEARTBEAT, heartbeat -> { });
            assertEquals(4, bench.session.nextTargetSeq());
            assertEquals(3, bench.session.nextSenderSeq());
        }

        @Test
        void bothSequencesStartAgainAtOneAndTheSessionStaysLoggedOn() {
            // client: 35=A 34=1 141=Y  ->  gateway: 35=A 34=1 141=Y 108=30, still logged on
            bench.logonWithReset(1);
            final FixFields reply = bench.connection.next("A");
            assertEquals(1, reply.seqNum());
            assertEquals("Y", reply.get(FixTags.RESET_SEQ_NUM_FLAG));
            assertEquals("30", reply.get(FixTags.HEART_BT_INT));
            assertTrue(bench.connection.nothingSent());
            assertFalse(bench.connection.isClosed());
            assertEquals(FixSessionState.ACTIVE, bench.session.state());
            assertEquals(2, bench.session.nextTargetSeq());
            assertEquals(2, bench.session.nextSenderSeq());
            // client: 35=M 34=2  ->  gateway: 35=8 34=2
            echo(echo -> echo.textField(FixTags.TEXT, "after"));
            final FixFields echo = bench.connection.next("8");
            assertEquals(2, echo.seqNum());
            assertEquals("after", echo.get(FixTags.TEXT));
        }

        @Test
        void aResetLogonWithAMsgSeqNumOtherThanOneIsLoggedOut() {
            bench.logonWithReset(2);
            assertEquals("ResetSeqNumFlag (141) requires MsgSeqNum 1", bench.connection.next("5").get(FixTags.TEXT));
            assertTrue(bench.connection.isClosed());
        }

        @Test
        void aResetWhileAGapIsOpenDropsTheHeldMessagesOfTheEndedSequence() {
            echoWithSeq(9, echo -> echo.textField(FixTags.TEXT, "ninth"));
            bench.connection.next("2");
            assertEquals(FixSessionState.RESEND_REQUESTED, bench.session.state());
            bench.logonWithReset(1);
            assertEquals(1, bench.connection.next("A").seqNum());
            assertTrue(bench.connection.nothingSent(), "the held 9 of the old sequence is not handled");
            assertEquals(FixSessionState.ACTIVE, bench.session.state());
            echo(echo -> echo.textField(FixTags.TEXT, "second"));
            assertEquals(2, bench.connection.next("8").seqNum());
        }

        @Test
        void theReportsAPausedResendHadNotSentYetAreSentAgainWithNewNumbers() {
            bench.connection.takeOnly(0);
            bench.send(MsgTypes.RESEND_REQUEST, request -> request.longField(FixTags.BEGIN_SEQ_NO, 2)
                    .longField(FixTags.END_SEQ_NO, 0));
            bench.session.startApplicationMessage(MsgTypes.EXECUTION_REPORT).longField(FixTags.EXEC_ID, 99);
            bench.session.sendApplicationMessage(0);
            assertTrue(bench.connection.nothingSent(), "the resend of 2 is paused; report 3 waits behind it");
            bench.connection.unlimited();
            bench.logonWithReset(1);
            assertEquals(1, bench.connection.next("A").seqNum());
            final FixFields before = bench.connection.next("8");
            assertEquals(2, before.seqNum());
            assertEquals("before", before.get(FixTags.TEXT));
            final FixFields report = bench.connection.next("8");
            assertEquals(3, report.seqNum());
            assertEquals("99", report.get(FixTags.EXEC_ID));
            assertTrue(bench.connection.nothingSent());
            assertEquals(4, bench.session.nextSenderSeq());
        }

        @Test
        void aRestartedGatewayContinuesFromTheResetNumbers() {
            bench.logonWithReset(1);
            bench.connection.next("A");
            echo(echo -> echo.textField(FixTags.TEXT, "after"));
            bench.connection.next("8");
            bench.send(MsgTypes.LOGOUT, logout -> { });
            bench.connection.next("5");
            bench.close();
            bench = new SessionTestBench(journal, FixSessionTest.this::onApplication);
            assertEquals(4, bench.session.nextSenderSeq(), "Logon 1, report 2, Logout 3 of the new sequence");
            assertEquals(4, bench.session.nextTargetSeq(), "Logon 1, B 2, Logout 3 of the new sequence");
            bench.clientSeq = 4;
            bench.logon(30);
            assertEquals(4, bench.connection.next("A").seqNum());
            bench.send(MsgTypes.RESEND_REQUEST, request -> request.longField(FixTags.BEGIN_SEQ_NO, 2)
                    .longField(FixTags.END_SEQ_NO, 2));
            final FixFields resent = bench.connection.next("8");
            assertEquals(2, resent.seqNum());
            assertEquals("after", resent.get(FixTags.TEXT), "the report of the new sequence, not the one before");
        }
    }

    @Nested
    class Resend {
        @BeforeEach
        void logonAndExchange() {
            bench.logon(30);
            bench.connection.next("A");
            echo(echo -> { });
            bench.connection.next("8");
            bench.send(MsgTypes.TEST_REQUEST, request -> request.textField(FixTags.TEST_REQ_ID, "T"));
            bench.connection.next("0");
            echo(echo -> { });
            bench.connection.next("8");
        }

        @Test
        void applicationMessagesAreResentWithPossDupAndAdminMessagesGapFilled() {
            bench.send(MsgTypes.RESEND_REQUEST, request -> request.longField(FixTags.BEGIN_SEQ_NO, 1)
                    .longField(FixTags.END_SEQ_NO, 0));
            final FixFields logonGap = bench.connection.next("4");
            assertEquals(1, logonGap.seqNum());
            assertEquals("Y", logonGap.get(FixTags.GAP_FILL_FLAG));
            assertEquals("2", logonGap.get(FixTags.NEW_SEQ_NO));
            final FixFields first = bench.connection.next("8");
            assertEquals(2, first.seqNum());
            assertEquals("Y", first.get(FixTags.POSS_DUP_FLAG));
            assertTrue(first.has(FixTags.ORIG_SENDING_TIME));
            assertEquals("echo", first.get(FixTags.TEXT));
            final FixFields heartbeatGap = bench.connection.next("4");
            assertEquals(3, heartbeatGap.seqNum());
            assertEquals("4", heartbeatGap.get(FixTags.NEW_SEQ_NO));
            assertEquals(4, bench.connection.next("8").seqNum());
            assertTrue(bench.connection.nothingSent());
            assertEquals(5, bench.session.nextSenderSeq(), "resends do not use new sequence numbers");
        }

        @Test
        void aBoundedRangeIsResentExactly() {
            bench.send(MsgTypes.RESEND_REQUEST, request -> request.longField(FixTags.BEGIN_SEQ_NO, 2)
                    .longField(FixTags.END_SEQ_NO, 3));
            assertEquals(2, bench.connection.next("8").seqNum());
            final FixFields heartbeatGap = bench.connection.next("4");
            assertEquals(3, heartbeatGap.seqNum());
            assertEquals("4", heartbeatGap.get(FixTags.NEW_SEQ_NO));
            assertTrue(bench.connection.nothingSent());
            assertEquals(5, bench.session.nextSenderSeq());
        }

        /** Sends a market-data message (stale once sent): numbered, its body not kept. */
        private void sendUnresendable() {
            bench.session.startApplicationMessage(MsgTypes.MARKET_DATA_INCREMENTAL_REFRESH)
                    .textField(FixTags.TEXT, "md");
            bench.session.sendUnresendable();
        }

        @Test
        void unresendableMessagesShareOneRecordAndARestartNeverReusesTheirNumbers() {
            final long before = bench.store.lastSentIndex();
            sendUnresendable();
            final long reserved = bench.store.lastSentIndex();
            assertTrue(reserved > before, "the first one reserves a block of numbers");
            sendUnresendable();
            sendUnresendable();
            assertEquals(reserved, bench.store.lastSentIndex(), "the next ones write no record");
            echo(echo -> { });
            sendUnresendable();
            assertEquals(5, bench.connection.next("X").seqNum());
            assertEquals(6, bench.connection.next("X").seqNum());
            assertEquals(7, bench.connection.next("X").seqNum());
            assertEquals(8, bench.connection.next("8").seqNum());
            assertEquals(9, bench.connection.next("X").seqNum());
            final long clientSeq = bench.clientSeq;
            bench.close(); // nothing written on the way out: as a kill -9 leaves the journal
            bench = new SessionTestBench(journal, FixSessionTest.this::onApplication);
            assertTrue(bench.session.nextSenderSeq() > 9, "no number is used twice: " + bench.session.nextSenderSeq());
            bench.clientSeq = clientSeq;
            bench.logon(30);
            final long logonSeq = bench.connection.next("A").seqNum();
            bench.send(MsgTypes.RESEND_REQUEST, request -> request.longField(FixTags.BEGIN_SEQ_NO, 5)
                    .longField(FixTags.END_SEQ_NO, 0));
            final FixFields marketData = bench.connection.next("4");
            assertEquals(5, marketData.seqNum());
            assertEquals("8", marketData.get(FixTags.NEW_SEQ_NO), "market data is gap-filled, never replayed");
            final FixFields report = bench.connection.next("8");
            assertEquals(8, report.seqNum());
            assertEquals("Y", report.get(FixTags.POSS_DUP_FLAG));
            final FixFields rest = bench.connection.next("4");
            assertEquals(9, rest.seqNum());
            assertEquals(String.valueOf(logonSeq + 1), rest.get(FixTags.NEW_SEQ_NO));
            assertTrue(bench.connection.nothingSent());
        }

        @Test
        void anEndSeqNoBeyondTheLastMessageSentMeansUpToTheLastOne() {
            echo(echo -> { });
            echo(echo -> { });
            assertEquals(5, bench.connection.next("8").seqNum());
            assertEquals(6, bench.connection.next("8").seqNum());
            bench.send(MsgTypes.RESEND_REQUEST, request -> request.longField(FixTags.BEGIN_SEQ_NO, 5)
                    .longField(FixTags.END_SEQ_NO, 100));
            assertEquals(5, bench.connection.next("8").seqNum());
            assertEquals(6, bench.connection.next("8").seqNum());
            assertTrue(bench.connection.nothingSent());
            assertEquals(7, bench.session.nextSenderSeq(), "resends do not use new sequence numbers");
        }

        @Test
        void aBeginSeqNoBeyondTheLastMessageSentIsRejectedWithTheReason() {
            final long requestSeq = bench.clientSeq;
            bench.send(MsgTypes.RESEND_REQUEST, request -> request.longField(FixTags.BEGIN_SEQ_NO, 50)
                    .longField(FixTags.END_SEQ_NO, 0));
            final FixFields reject = bench.connection.next("3");
            assertEquals("5", reject.get(FixTags.SESSION_REJECT_REASON), "Value is incorrect (out of range)");
            assertEquals("7", reject.get(FixTags.REF_TAG_ID));
            assertEquals(String.valueOf(requestSeq), reject.get(FixTags.REF_SEQ_NUM));
            assertEquals("2", reject.get(FixTags.REF_MSG_TYPE));
            assertEquals("BeginSeqNo (7) 50 is beyond the last MsgSeqNum sent, 4", reject.get(FixTags.TEXT));
            assertEquals(5, reject.seqNum());
            assertTrue(bench.connection.nothingSent());
            assertFalse(bench.connection.isClosed());
            assertEquals(6, bench.session.nextSenderSeq());
            assertEquals(requestSeq + 1, bench.session.nextTargetSeq(), "the ResendRequest used its MsgSeqNum");
        }

        @Test
        void aBeginSeqNoAboveTheEndSeqNoIsRejectedWithTheReason() {
            bench.send(MsgTypes.RESEND_REQUEST, request -> request.longField(FixTags.BEGIN_SEQ_NO, 3)
                    .longField(FixTags.END_SEQ_NO, 2));
            final FixFields reject = bench.connection.next("3");
            assertEquals("5", reject.get(FixTags.SESSION_REJECT_REASON), "Value is incorrect (out of range)");
            assertEquals("16", reject.get(FixTags.REF_TAG_ID));
            assertEquals("EndSeqNo (16) 2 is below BeginSeqNo (7) 3 and not 0 (infinity)", reject.get(FixTags.TEXT));
            assertTrue(bench.connection.nothingSent());
            assertEquals(6, bench.session.nextSenderSeq());
            bench.send(MsgTypes.RESEND_REQUEST, request -> request.longField(FixTags.BEGIN_SEQ_NO, 4)
                    .longField(FixTags.END_SEQ_NO, 0));
            assertEquals(4, bench.connection.next("8").seqNum());
            assertEquals("6", bench.connection.next("4").get(FixTags.NEW_SEQ_NO), "the Reject (5) is gap-filled");
            assertTrue(bench.connection.nothingSent());
        }

        @Test
        void aLargeResendGoesOutAsTheConnectionHasRoomAndNewReportsWaitTheirTurn() {
            bench.send(MsgTypes.LOGOUT, logout -> { });
            bench.connection.next("5");
            for (int i = 0; i < 5; i++) {
                bench.session.startApplicationMessage(MsgTypes.EXECUTION_REPORT).longField(FixTags.EXEC_ID, i);
                bench.session.sendApplicationMessage(0);
            }
            bench.reconnect();
            bench.logon(30);
            assertEquals(11, bench.connection.next("A").seqNum(), "reports 6 to 10 were stored while offline");
            bench.connection.takeOnly(2);
            bench.send(MsgTypes.RESEND_REQUEST, request -> request.longField(FixTags.BEGIN_SEQ_NO, 6)
                    .longField(FixTags.END_SEQ_NO, 0));
            assertEquals(6, bench.connection.next("8").seqNum());
            assertEquals(7, bench.connection.next("8").seqNum());
            assertTrue(bench.connection.nothingSent());
            bench.session.startApplicationMessage(MsgTypes.EXECUTION_REPORT).longField(FixTags.EXEC_ID, 99);
            bench.session.sendApplicationMessage(0);
            bench.session.onTimer();
            assertTrue(bench.connection.nothingSent(), "a new report waits behind the resend");
            assertFalse(bench.connection.isClosed(), "a resend that pauses is not a slow client");
            bench.connection.unlimited();
            bench.session.onTimer();
            assertEquals(8, bench.connection.next("8").seqNum());
            assertEquals(9, bench.connection.next("8").seqNum());
            assertEquals(10, bench.connection.next("8").seqNum());
            assertEquals("12", bench.connection.next("4").get(FixTags.NEW_SEQ_NO), "the Logon (11) is gap-filled");
            final FixFields held = bench.connection.next("8");
            assertEquals(12, held.seqNum());
            assertEquals("99", held.get(FixTags.EXEC_ID));
            assertTrue(bench.connection.nothingSent());
            bench.session.onTimer();
            assertTrue(bench.connection.nothingSent());
        }

        @Test
        void messagesFromBeforeASequenceResetAreNeverResent() {
            bench.send(MsgTypes.LOGOUT, logout -> { });
            bench.connection.next("5");
            bench.reconnect();
            bench.clientSeq = 1;
            bench.send(MsgTypes.LOGON, logon -> logon.longField(FixTags.ENCRYPT_METHOD, 0)
                    .longField(FixTags.HEART_BT_INT, 30).textField(FixTags.PASSWORD, "secret")
                    .booleanField(FixTags.RESET_SEQ_NUM_FLAG, true));
            bench.connection.next("A");
            echo(echo -> { });
            assertEquals(2, bench.connection.next("8").seqNum());
            bench.send(MsgTypes.RESEND_REQUEST, request -> request.longField(FixTags.BEGIN_SEQ_NO, 1)
                    .longField(FixTags.END_SEQ_NO, 0));
            assertEquals("2", bench.connection.next("4").get(FixTags.NEW_SEQ_NO));
            assertEquals(2, bench.connection.next("8").seqNum());
            assertTrue(bench.connection.nothingSent(), "the old sequence's messages 2 and 4 are not resent");
        }

        @Test
        void aResetLogonStillDeliversTheReportsStoredWhileOfflineWithNewNumbers() {
            goOfflineAndStoreReports(3);
            logonWithReset();
            assertEquals(1, bench.connection.next("A").seqNum());
            for (int i = 0; i < 3; i++) {
                final FixFields report = bench.connection.next("8");
                assertEquals(2 + i, report.seqNum());
                assertEquals(String.valueOf(i), report.get(FixTags.EXEC_ID));
                assertTrue(report.has(FixTags.ORIG_SENDING_TIME), "sent first in the old sequence");
            }
            assertTrue(bench.connection.nothingSent(), "reports 2 and 4 had reached the client before it reset");
            assertEquals(5, bench.session.nextSenderSeq());
            bench.send(MsgTypes.RESEND_REQUEST, request -> request.longField(FixTags.BEGIN_SEQ_NO, 3)
                    .longField(FixTags.END_SEQ_NO, 3));
            assertEquals("1", bench.connection.next("8").get(FixTags.EXEC_ID), "resendable under its new number");
        }

        @Test
        void aLargeRedeliveryAfterAResetGoesOutAsTheConnectionHasRoomAndNewReportsFollowInOrder() {
            goOfflineAndStoreReports(4);
            bench.connection.takeOnly(2);
            logonWithReset();
            assertEquals(1, bench.connection.next("A").seqNum());
            assertEquals("0", bench.connection.next("8").get(FixTags.EXEC_ID));
            assertTrue(bench.connection.nothingSent());
            bench.session.startApplicationMessage(MsgTypes.EXECUTION_REPORT).longField(FixTags.EXEC_ID, 99);
            bench.session.sendApplicationMessage(0);
            assertTrue(bench.connection.nothingSent(), "a new report waits behind the older ones");
            bench.connection.unlimited();
            bench.session.onTimer();
            for (int i = 1; i < 4; i++) {
                final FixFields report = bench.connection.next("8");
                assertEquals(2 + i, report.seqNum());
                assertEquals(String.valueOf(i), report.get(FixTags.EXEC_ID));
            }
            final FixFields newer = bench.connection.next("8");
            assertEquals(6, newer.seqNum());
            assertEquals("99", newer.get(FixTags.EXEC_ID));
            assertTrue(bench.connection.nothingSent());
        }

        private void goOfflineAndStoreReports(final int reports) {
            bench.send(MsgTypes.LOGOUT, logout -> { });
            bench.connection.next("5");
            for (int i = 0; i < reports; i++) {
                bench.session.startApplicationMessage(MsgTypes.EXECUTION_REPORT).longField(FixTags.EXEC_ID, i);
                bench.session.sendApplicationMessage(0);
            }
            bench.reconnect();
        }

        private void logonWithReset() {
            bench.clientSeq = 1;
            bench.send(MsgTypes.LOGON, logon -> logon.longField(FixTags.ENCRYPT_METHOD, 0)
                    .longField(FixTags.HEART_BT_INT, 30).textField(FixTags.PASSWORD, "secret")
                    .booleanField(FixTags.RESET_SEQ_NUM_FLAG, true));
        }

        @Test
        void theStoreSurvivesARestart() {
            bench.send(MsgTypes.LOGOUT, logout -> { });
            bench.connection.next("5");
            final long clientSeq = bench.clientSeq;
            bench.close();
            bench = new SessionTestBench(journal, FixSessionTest.this::onApplication);
            assertEquals(6, bench.session.nextSenderSeq());
            assertEquals(clientSeq, bench.session.nextTargetSeq());
            bench.clientSeq = clientSeq;
            bench.logon(30);
            assertEquals(6, bench.connection.next("A").seqNum());
            bench.send(MsgTypes.RESEND_REQUEST, request -> request.longField(FixTags.BEGIN_SEQ_NO, 2)
                    .longField(FixTags.END_SEQ_NO, 2));
            final FixFields resent = bench.connection.next("8");
            assertEquals(2, resent.seqNum());
            assertEquals("Y", resent.get(FixTags.POSS_DUP_FLAG));
        }
    }

    @Nested
    class Rejects {
        @BeforeEach
        void logon() {
            bench.logon(30);
            bench.connection.next("A");
        }

        /** The session's next message is a Reject with these RefSeqNum, RefTagID, RefMsgType, reason and Text. */
        private void assertReject(final String refSeqNum, final String refTagId, final String refMsgType,
                                  final String reason, final String text) {
            final FixFields reject = bench.connection.next("3");
            assertEquals(refSeqNum, reject.get(FixTags.REF_SEQ_NUM));
            assertEquals(refTagId, reject.get(FixTags.REF_TAG_ID));
            assertEquals(refMsgType, reject.get(FixTags.REF_MSG_TYPE));
            assertEquals(reason, reject.get(FixTags.SESSION_REJECT_REASON));
            assertEquals(text, reject.get(FixTags.TEXT));
        }

        @Test
        void anUnsupportedMsgTypeGetsABusinessMessageReject() {
            // OrderStatusRequest (H): valid FIX 4.4, but not a message this application takes.
            bench.send('H', unsupported -> unsupported.textField(FixTags.CL_ORD_ID, "X1")
                    .textField(FixTags.SYMBOL, "VOD").textField(FixTags.SIDE, "1"));
            final FixFields reject = bench.connection.next("j");
            assertEquals("H", reject.get(FixTags.REF_MSG_TYPE));
            assertEquals("3", reject.get(FixTags.BUSINESS_REJECT_REASON));
            assertEquals("X1", reject.get(FixTags.BUSINESS_REJECT_REF_ID));
            assertEquals("2", reject.get(FixTags.REF_SEQ_NUM));
        }

        @Test
        void aHeartbeatWithATagFix44DoesNotDefineIsRejectedAndConsumesItsNumber() {
            bench.send(MsgTypes.HEARTBEAT, heartbeat -> heartbeat.textField(4999, "x"));
            assertReject("2", "4999", "0", "0", "Invalid tag number");
            assertEquals(3, bench.session.nextTargetSeq(), "a Reject consumes the MsgSeqNum");
        }

        @Test
        void eachDictionaryProblemIsRejectedWithItsReason() {
            bench.send(MsgTypes.HEARTBEAT, heartbeat -> heartbeat.textField(FixTags.CL_ORD_ID, "X"));
            assertEquals("2", bench.connection.next("3").get(FixTags.SESSION_REJECT_REASON));
            bench.send(MsgTypes.TEST_REQUEST, test -> { });
            final FixFields missing = bench.connection.next("3");
            assertEquals("1", missing.get(FixTags.SESSION_REJECT_REASON));
            assertEquals("112", missing.get(FixTags.REF_TAG_ID));
            echo(echo -> echo.textField(FixTags.ORD_TYPE, "x"));
            assertEquals("2", bench.connection.next("3").get(FixTags.SESSION_REJECT_REASON), "OrdType is not in M");
            bench.send(MsgTypes.RESEND_REQUEST, resend -> resend.textField(FixTags.BEGIN_SEQ_NO, "one")
                    .longField(FixTags.END_SEQ_NO, 0));
            assertEquals("6", bench.connection.next("3").get(FixTags.SESSION_REJECT_REASON));
            bench.send(MsgTypes.SEQUENCE_RESET, gapFill -> gapFill.textField(FixTags.GAP_FILL_FLAG, "X")
                    .longField(FixTags.NEW_SEQ_NO, 10));
            assertEquals("6", bench.connection.next("3").get(FixTags.SESSION_REJECT_REASON));
            bench.send(MsgTypes.LOGOUT, logout -> logout.textField(FixTags.TEXT, "bye").textField(FixTags.CL_ORD_ID, "X"));
            assertEquals("2", bench.connection.next("3").get(FixTags.SESSION_REJECT_REASON));
            assertEquals(8, bench.session.nextTargetSeq());
            assertEquals(FixSessionState.ACTIVE, bench.session.state());
        }

        @Test
        void aMsgTypeFix44DoesNotDefineIsRejectedWith11NotBusinessRejected() {
            bench.send(MsgTypes.pack(FixBytes.buffer("ZZ"), 0, 2), unknown -> { });
            final FixFields reject = bench.connection.next("3");
            assertEquals("11", reject.get(FixTags.SESSION_REJECT_REASON));
            assertEquals("ZZ", reject.get(FixTags.REF_MSG_TYPE));
            assertEquals(3, bench.session.nextTargetSeq());
        }

        @Test
        void aPossDupResendIsValidatedLikeAnOriginal() {
            bench.advance(1_000);
            bench.send(MsgTypes.HEARTBEAT, heartbeat -> heartbeat.booleanField(FixTags.POSS_DUP_FLAG, true)
                    .timestampField(FixTags.ORIG_SENDING_TIME, SessionTestBench.START).textField(4999, "x"));
            assertEquals("0", bench.connection.next("3").get(FixTags.SESSION_REJECT_REASON));
            assertEquals(3, bench.session.nextTargetSeq());
        }

        @Test
        void aMalformedFieldGetsASessionRejectNamingTheTag() {
            bench.sendRaw(FixBytes.frame(
                    "35=D|49=CLIENT1|56=SLUICE|34=2|52=20261122-10:00:00.000|11=A|11=B|"));
            assertReject("2", "11", "D", "13", "Tag appears more than once");
            assertEquals(3, bench.session.nextTargetSeq());
        }

        @Test
        void aWrongCompIdInAMessageIsRejectedAndLoggedOut() {
            bench.sendRaw(FixBytes.frame(
                    "35=0|49=CLIENT2|56=SLUICE|34=2|52=20261122-10:00:00.000|"));
            final FixFields reject = bench.connection.next("3");
            assertEquals("9", reject.get(FixTags.SESSION_REJECT_REASON));
            bench.connection.next("5");
            assertTrue(bench.connection.isClosed());
        }

        @Test
        void aSendingTimeFarFromTheClockIsRejectedAndLoggedOut() {
            bench.sendSentAt(SessionTestBench.START - 180_000, MsgTypes.HEARTBEAT);
            assertEquals("10", bench.connection.next("3").get(FixTags.SESSION_REJECT_REASON));
            bench.connection.next("5");
        }

        @Test
        void aGarbledMessageIsIgnoredWithoutConsumingASequenceNumber() {
            bench.sendRaw("8=FIX.4.4|9=x|");
            bench.sendRaw("9=5|8=FIX.4.4|35=0|10=000|");
            bench.sendRaw(FixBytes.frame("49=CLIENT1|35=0|56=SLUICE|34=2|52=20261122-10:00:00.000|"));
            assertFalse(bench.connection.isClosed());
            assertEquals(FixSessionState.ACTIVE, bench.session.state());
            assertEquals(2, bench.session.nextTargetSeq(), "nothing garbled consumed a MsgSeqNum");
            bench.send(MsgTypes.TEST_REQUEST, test -> test.textField(FixTags.TEST_REQ_ID, "after"));
            assertEquals("after", bench.connection.next("0").get(FixTags.TEST_REQ_ID));
            assertEquals(3, bench.session.nextTargetSeq());
        }

        @Test
        void anotherBeginStringIsLoggedOut() {
            bench.sendRaw("8=FIX.4.2|9=5|35=0|10=000|");
            assertTrue(bench.connection.next("5").get(FixTags.TEXT).startsWith("Garbled message: BeginString"));
            assertTrue(bench.connection.isClosed());
        }

        @Test
        void aBadCheckSumIsIgnoredAsTheSpecRequires() {
            final String frame = FixBytes.frame(
                    "35=0|49=CLIENT1|56=SLUICE|34=2|52=20261122-10:00:00.000|");
            bench.sendRaw(frame.substring(0, frame.length() - 4) + (frame.endsWith("000|") ? "001|" : "000|"));
            assertTrue(bench.connection.nothingSent());
            assertEquals(2, bench.session.nextTargetSeq());
        }
    }

    @Nested
    class Logout {
        @BeforeEach
        void logon() {
            bench.logon(30);
            bench.connection.next("A");
        }

        @Test
        void aClientLogoutIsAnsweredAndTheConnectionClosed() {
            bench.send(MsgTypes.LOGOUT, logout -> { });
            bench.connection.next("5");
            assertTrue(bench.connection.isClosed());
            assertEquals(FixSessionState.DISCONNECTED, bench.session.state());
        }

        @Test
        void aGatewayLogoutWaitsForTheReplyOrTimesOut() {
            bench.session.logout("End of day");
            assertEquals("End of day", bench.connection.next("5").get(FixTags.TEXT));
            assertEquals(FixSessionState.LOGOUT_SENT, bench.session.state());
            bench.advance(1_999);
            bench.session.onTimer();
            assertFalse(bench.connection.isClosed());
            bench.advance(1);
            bench.session.onTimer();
            assertTrue(bench.connection.isClosed());
        }

        @Test
        void aClientThatStopsReadingIsLoggedOutAndItsMessagesKeptForResend() {
            bench.connection.fill();
            echo(echo -> { });
            assertTrue(bench.connection.isClosed());
            assertEquals(FixSessionState.DISCONNECTED, bench.session.state());
            assertEquals(3, bench.connection.next("5").seqNum());
            assertEquals(4, bench.session.nextSenderSeq(), "the report (2) and the Logout (3) were numbered");
            bench.reconnect();
            bench.logon(30);
            assertEquals(4, bench.connection.next("A").seqNum());
            bench.send(MsgTypes.RESEND_REQUEST, request -> request.longField(FixTags.BEGIN_SEQ_NO, 2)
                    .longField(FixTags.END_SEQ_NO, 0));
            assertEquals(2, bench.connection.next("8").seqNum());
            assertEquals("5", bench.connection.next("4").get(FixTags.NEW_SEQ_NO), "Logout and Logon are gap-filled");
        }
    }

    @Nested
    class LogonWithMsgSeqNumTooHigh {
        @Test
        void theLogonIsAnsweredThenAResendRequestSentAndALogoutInTheGapStillAnswered() {
            bench.clientSeq = 5;
            bench.logon(30);
            assertEquals(1, bench.connection.next("A").seqNum());
            final FixFields request = bench.connection.next("2");
            assertEquals("1", request.get(FixTags.BEGIN_SEQ_NO));
            assertEquals("0", request.get(FixTags.END_SEQ_NO));
            assertEquals(FixSessionState.RESEND_REQUESTED, bench.session.state());
            bench.send(MsgTypes.LOGOUT, logout -> { });
            bench.connection.next("5");
            assertTrue(bench.connection.isClosed());
            assertEquals(FixSessionState.DISCONNECTED, bench.session.state());
            assertEquals(1, bench.session.nextTargetSeq(), "the gap is still to be filled at the next Logon");
        }
    }

    @Nested
    class Routing {
        @BeforeEach
        void logon() {
            bench.logon(30);
            bench.connection.next("A");
        }

        @Test
        void onBehalfOfAndDeliverToAreReversedInAnswersAndRejects() {
            bench.send(MsgTypes.TEST_REQUEST, test -> test.textField(FixTags.ON_BEHALF_OF_COMP_ID, "DESK1")
                    .textField(FixTags.DELIVER_TO_COMP_ID, "VENUE").textField(FixTags.TEST_REQ_ID, "T1"));
            final FixFields heartbeat = bench.connection.next("0");
            assertEquals("DESK1", heartbeat.get(FixTags.DELIVER_TO_COMP_ID));
            assertEquals("VENUE", heartbeat.get(FixTags.ON_BEHALF_OF_COMP_ID));
            bench.send(MsgTypes.HEARTBEAT, bad -> bad.textField(FixTags.ON_BEHALF_OF_COMP_ID, "DESK2")
                    .textField(4999, "x"));
            final FixFields reject = bench.connection.next("3");
            assertEquals("DESK2", reject.get(FixTags.DELIVER_TO_COMP_ID));
            assertEquals(null, reject.get(FixTags.ON_BEHALF_OF_COMP_ID));
            bench.send('H', unsupported -> unsupported.textField(FixTags.DELIVER_TO_COMP_ID, "VENUE2")
                    .textField(FixTags.CL_ORD_ID, "X1").textField(FixTags.SYMBOL, "VOD").textField(FixTags.SIDE, "1"));
            assertEquals("VENUE2", bench.connection.next("j").get(FixTags.ON_BEHALF_OF_COMP_ID));
        }
    }

    @Nested
    class ResetPolicies {
        private void echoAndLogout() {
            bench.logon(30);
            bench.connection.next("A");
            echo(echo -> { });
            bench.connection.next("8");
            bench.send(MsgTypes.LOGOUT, logout -> { });
            bench.connection.next("5");
        }

        private void logonAgainAtOne() {
            bench.reconnect();
            bench.clientSeq = 1;
            bench.logon(30);
        }

        @Test
        void byDefaultSequenceNumbersPersistAndALogonAtOneIsTooLow() {
            echoAndLogout();
            logonAgainAtOne();
            assertEquals(FixAcceptor.LOGON_REJECTED, bench.connection.next("5").get(FixTags.TEXT));
            assertEquals(4, bench.session.nextTargetSeq());
        }

        @Test
        void resetOnLogonStartsBothSequencesAgainAtEveryLogon() {
            bench.session.resets(new ResetPolicy(true, false, false, ResetPolicy.NO_DAILY_RESET));
            echoAndLogout();
            logonAgainAtOne();
            assertEquals(1, bench.connection.next("A").seqNum());
            assertEquals(2, bench.session.nextTargetSeq());
            assertEquals(FixSessionState.ACTIVE, bench.session.state());
        }

        @Test
        void resetOnLogoutResetsAfterTheLogoutExchangeAndIsJournaled() {
            bench.session.resets(new ResetPolicy(false, true, false, ResetPolicy.NO_DAILY_RESET));
            echoAndLogout();
            assertEquals(1, bench.session.nextSenderSeq());
            assertEquals(1, bench.session.nextTargetSeq());
            try (JournalSessionStore restarted = new JournalSessionStore(
                    Journals.open(journal), 8192)) {
                assertEquals(1, restarted.nextSenderSeq(bench.session.id()), "a restarted gateway agrees");
                assertEquals(1, restarted.nextTargetSeq(bench.session.id()));
            }
            logonAgainAtOne();
            assertEquals(1, bench.connection.next("A").seqNum());
        }

        @Test
        void resetOnLogoutDoesNotResetALostConnectionButResetOnDisconnectDoes() {
            bench.session.resets(new ResetPolicy(false, true, false, ResetPolicy.NO_DAILY_RESET));
            bench.logon(30);
            bench.acceptor.onDisconnected(bench.connection);
            assertEquals(2, bench.session.nextTargetSeq());
            bench.session.resets(new ResetPolicy(false, false, true, ResetPolicy.NO_DAILY_RESET));
            bench.reconnect();
            bench.logon(30);
            bench.acceptor.onDisconnected(bench.connection);
            assertEquals(1, bench.session.nextTargetSeq());
            assertEquals(1, bench.session.nextSenderSeq());
        }

        @Test
        void theDailyResetLogsOutAndResetsAtItsTime() {
            bench.session.resets(new ResetPolicy(false, false, false, ResetPolicy.secondOfDay("11:00:00")));
            bench.logon(3600);
            bench.connection.next("A");
            bench.advance(3_600_000 - 1);
            bench.session.onTimer();
            assertEquals(FixSessionState.ACTIVE, bench.session.state());
            bench.connection.clear();
            bench.advance(1);
            bench.session.onTimer();
            assertEquals("Daily sequence reset", bench.connection.next("5").get(FixTags.TEXT));
            assertTrue(bench.connection.isClosed());
            assertEquals(1, bench.session.nextSenderSeq());
            assertEquals(1, bench.session.nextTargetSeq());
            logonAgainAtOne();
            assertEquals(1, bench.connection.next("A").seqNum());
        }

        @Test
        void aResetTimeMustBeATimeOfDay() {
            Assertions.assertThrows(IllegalArgumentException.class,
                    () -> ResetPolicy.secondOfDay("25:00:00"));
            assertEquals(ResetPolicy.secondOfDay("00:00:01"), 1);
        }
    }
}
