package io.sluice.gateway.session;

import io.sluice.gateway.codec.FixEncoder;
import io.sluice.gateway.codec.FixError;
import io.sluice.gateway.codec.FixMessage;
import io.sluice.gateway.codec.FixTags;
import io.sluice.gateway.codec.MsgTypes;
import io.sluice.gateway.codec.ShortText;
import org.agrona.concurrent.EpochClock;

import java.nio.charset.StandardCharsets;

/**
 * The acceptor side of one FIX 4.4 session: its state machine ({@link FixSessionState}) and its two sequences.
 * <p>
 * Logon with CompIDs and password; heartbeats and test requests (a HeartBtInt of at least a configured minimum, never
 * 0, so that a silent peer is always found out and its session freed); sequence numbers in both directions with gap
 * detection and ResendRequest (messages after a gap held, {@link HeldMessages}, and handled in order once it is
 * filled); the client's ResendRequests answered from the {@link SessionStore} ({@link ResendController}); SequenceReset
 * in both modes (Reset mode ignores MsgSeqNum); Reject and Business Message Reject; Logout. ResetSeqNumFlag is taken at
 * Logon (after which the reports stored while the client was offline still reach it, renumbered) and on a logged-on
 * session (a counterparty's daily reset: both sides start again at 1, the session stays on), beside the resets of the
 * session's own {@link ResetPolicy}. A Logout is answered even beyond an open gap. Messages reach it validated against
 * the FIX 4.4 dictionary: one that failed is rejected with the reason its parse found, and consumes its MsgSeqNum.
 * <p>
 * Every message it sends is encoded by its {@link SessionProxy} and recorded in the store before it is sent, so a
 * message is either resendable or was never numbered. Time comes from the injected {@link EpochClock}; there are no
 * threads or sleeps here: the owner calls {@link #onMessage}, {@link #onTimer} and the send methods from one thread.
 */
public final class FixSession {
    /** The largest HeartBtInt (108) a client may ask for, in seconds. */
    public static final int MAX_HEARTBEAT_SECONDS = 3600;

    /** The most bytes of client messages held while a gap in their sequence is being resent. */
    public static final int MAX_HELD_BYTES = 256 * 1024;

    /** What {@link #sendApplicationMessage} returns for a message stored but not queued on a connection. */
    public static final long NOT_QUEUED = -1;
    /** The reason {@link SessionEvents#onDisconnect} is given when the transport lost the connection. */
    public static final String CONNECTION_LOST = "connection lost";

    private static final String SEQ_TOO_LOW = "MsgSeqNum too low, expecting ";
    private static final String BUT_RECEIVED = " but received ";
    private static final String RESET_NEEDS_SEQ_ONE = "ResetSeqNumFlag (141) requires MsgSeqNum 1";

    private final SessionIdentity identity;
    private final long id;
    private final byte[] clientCompId;
    private final byte[] gatewayCompId;
    private final byte[] username;
    private final byte[] password;
    private final SessionStore store;
    private final FixApplication application;
    private final EpochClock clock;
    private final long sendingTimeToleranceMillis;
    private final long logoutTimeoutMillis;
    private final int minHeartbeatSeconds;
    private final SessionProxy proxy;
    private final ResendController resend;
    private final StringBuilder reason = new StringBuilder(128);
    private SessionEvents events = SessionEvents.NONE;
    private SessionCounters counters = SessionCounters.NONE;
    private ResetPolicy resetPolicy = ResetPolicy.NONE;
    private long nextDailyResetMillis = Long.MAX_VALUE;

    private FixSessionState state = FixSessionState.DISCONNECTED;
    private FixConnection connection;
    private long nextSenderSeq = 1;
    private long nextTargetSeq = 1;
    private long heartbeatMillis;
    private long lastSentMillis;
    private long lastReceivedMillis;
    private long testRequestSentMillis;
    private long logoutSentMillis;
    private long resendEndSeq;
    private long offlineFromSeq;
    private final HeldMessages held = new HeldMessages(MAX_HELD_BYTES);
    private boolean releasing;
    private final int maxMessageLength;
    private long receivedTicks;

    /**
     * @param maxMessageLength the largest message this session sends (the encoder's buffer)
     * @param sendingTimeToleranceMillis how far a client's SendingTime (52) may be from {@code clock}
     * @param logoutTimeoutMillis how long to wait for the client's Logout after sending one
     * @param minHeartbeatSeconds the smallest HeartBtInt (108) a Logon may ask for, at least 1: every logged-on
     *                            session heartbeats, so a silent peer is always found out
     */
    public FixSession(final SessionIdentity identity, final SessionStore store, final FixApplication application,
                      final EpochClock clock, final int maxMessageLength, final long sendingTimeToleranceMillis,
                      final long logoutTimeoutMillis, final int minHeartbeatSeconds) {
        if (minHeartbeatSeconds < 1 || minHeartbeatSeconds > MAX_HEARTBEAT_SECONDS) {
            throw new IllegalArgumentException("the minimum HeartBtInt must be 1 to " + MAX_HEARTBEAT_SECONDS
                    + " seconds, got " + minHeartbeatSeconds);
        }
        this.minHeartbeatSeconds = minHeartbeatSeconds;
        this.identity = identity;
        this.id = ShortText.parse(identity.clientCompId());
        if (id == ShortText.INVALID) {
            throw new IllegalArgumentException("SenderCompID '" + identity.clientCompId()
                    + "' must be 1 to 10 characters of " + ShortText.ALPHABET.trim());
        }
        this.clientCompId = ascii(identity.clientCompId());
        this.gatewayCompId = ascii(identity.gatewayCompId());
        this.username = identity.username() == null ? null : ascii(identity.username());
        this.password = ascii(identity.password());
        this.store = store;
        this.application = application;
        this.clock = clock;
        this.sendingTimeToleranceMillis = sendingTimeToleranceMillis;
        this.logoutTimeoutMillis = logoutTimeoutMillis;
        this.maxMessageLength = maxMessageLength;
        this.proxy = new SessionProxy(gatewayCompId, clientCompId, maxMessageLength);
        this.resend = new ResendController(this, store, proxy, clock);
    }

    /** Sets where the session counts what it does (by default {@link SessionCounters#NONE}). */
    public FixSession counters(final SessionCounters counters) {
        this.counters = counters;
        return this;
    }

    /** @return where the session counts what it does */
    public SessionCounters counters() {
        return counters;
    }

    /** Sets who hears about logons and disconnects. */
    public FixSession events(final SessionEvents events) {
        this.events = events;
        return this;
    }

    /** Sets when the session resets its sequence numbers by itself (none by default: they persist). */
    public FixSession resets(final ResetPolicy policy) {
        this.resetPolicy = policy;
        this.nextDailyResetMillis = policy.nextDailyReset(clock.time());
        return this;
    }

    /** @return the client's SenderCompID as a ShortText long: the {@code session} of commands and reports. */
    public long id() {
        return id;
    }

    public SessionIdentity identity() {
        return identity;
    }

    public FixSessionState state() {
        return state;
    }

    /** @return the MsgSeqNum the next message to the client gets. */
    public long nextSenderSeq() {
        return nextSenderSeq;
    }

    /** @return the MsgSeqNum expected on the next message from the client. */
    public long nextTargetSeq() {
        return nextTargetSeq;
    }

    /** @return when the transport received the message being processed, in SluiceClock ticks. */
    public long receivedTicks() {
        return receivedTicks;
    }

    /** Sets the sequence numbers recovered from the store, before the session first logs on. */
    public void restore(final long nextSenderSeq, final long nextTargetSeq) {
        this.nextSenderSeq = nextSenderSeq;
        this.nextTargetSeq = nextTargetSeq;
    }

    /**
     * @return true if {@code logon} names this session's gateway CompID (TargetCompID), Username (if one is
     *         configured) and Password; the acceptor checks this first, to count failures for its throttle
     */
    public boolean acceptsCredentials(final FixMessage logon) {
        return logon.valueEquals(FixTags.TARGET_COMP_ID, gatewayCompId)
                && (username == null || logon.valueEquals(FixTags.USERNAME, username))
                && logon.valueEquals(FixTags.PASSWORD, password);
    }

    /**
     * Handles a well-formed Logon whose SenderCompID named this session.
     *
     * @return null if the session is now logged on over {@code connection}; otherwise why not, for the
     *         Logout the acceptor sends before closing the connection
     */
    public CharSequence logon(final FixConnection connection, final FixMessage logon, final long receivedTicks) {
        counters.messageIn();
        if (state != FixSessionState.DISCONNECTED) {
            return text("Session ").append(identity.clientCompId()).append(" is already logged on");
        }
        if (!acceptsCredentials(logon)) {
            return text("Invalid TargetCompID (56), Username (553) or Password (554)");
        }
        if (logon.unsignedValue(FixTags.ENCRYPT_METHOD) != 0) {
            return text("EncryptMethod (98) must be 0 (none)");
        }
        final long heartBtInt = logon.unsignedValue(FixTags.HEART_BT_INT);
        if (heartBtInt < minHeartbeatSeconds || heartBtInt > MAX_HEARTBEAT_SECONDS) {
            return text("HeartBtInt (108) must be ").append(minHeartbeatSeconds).append(" to ")
                    .append(MAX_HEARTBEAT_SECONDS).append(" seconds");
        }
        final long seq = logon.unsignedValue(FixTags.MSG_SEQ_NUM);
        if (seq < 1) {
            return text("MsgSeqNum (34) missing or not a positive number");
        }
        final long now = clock.time();
        final long sendingTime = logon.timestampValue(FixTags.SENDING_TIME);
        if (sendingTime < 0 || Math.abs(now - sendingTime) > sendingTimeToleranceMillis) {
            return text("SendingTime (52) missing or not within ").append(sendingTimeToleranceMillis / 1000)
                    .append(" s of the gateway's clock");
        }
        final boolean reset = logon.isYes(FixTags.RESET_SEQ_NUM_FLAG);
        final long undeliveredFrom = offlineFromSeq;
        final long undeliveredTo = nextSenderSeq - 1;
        if (reset) {
            if (seq != 1) {
                return text(RESET_NEEDS_SEQ_ONE);
            }
            resetSequences();
        } else if (resetPolicy.onLogon()) {
            resetSequences();
        } else if (seq < nextTargetSeq) {
            return text(SEQ_TOO_LOW).append(nextTargetSeq).append(BUT_RECEIVED).append(seq);
        }
        this.connection = connection;
        this.receivedTicks = receivedTicks;
        offlineFromSeq = 0;
        state = FixSessionState.ACTIVE;
        heartbeatMillis = heartBtInt * 1000;
        lastReceivedMillis = now;
        testRequestSentMillis = 0;
        proxy.logon(nextSenderSeq, clock.time(), heartBtInt, reset);
        commit(0, true);
        events.onLogon(this, nextSenderSeq, seq);
        if ((reset || resetPolicy.onLogon()) && undeliveredFrom != 0) {
            redeliverAfterReset(undeliveredFrom, undeliveredTo);
        }
        if (seq == nextTargetSeq) {
            advance();
        } else {
            requestResend(seq);
        }
        return null;
    }

    /**
     * Handles a message from the client (possibly one that failed to parse: see {@link FixMessage#error()}).
     * One whose MsgSeqNum is too high is held while the gap is resent, then handled in its turn.
     */
    public void onMessage(final FixMessage message, final long receivedTicks) {
        counters.messageIn();
        handle(message, receivedTicks);
        releaseHeld();
    }

    /** Handles the held messages whose turn has come: the gap before them is filled. */
    private void releaseHeld() {
        if (releasing) {
            return;
        }
        releasing = true;
        while (!held.isEmpty() && state != FixSessionState.DISCONNECTED && held.firstSeq() <= nextTargetSeq) {
            if (held.firstSeq() < nextTargetSeq) {
                held.drop();
            } else if (held.firstAnswered()) {
                held.drop();
                advance();
            } else {
                final long ticks = held.firstReceivedTicks();
                handle(held.release(), ticks);
            }
        }
        releasing = false;
    }

    private void handle(final FixMessage message, final long receivedTicks) {
        if (state == FixSessionState.DISCONNECTED) {
            return;
        }
        this.receivedTicks = receivedTicks;
        lastReceivedMillis = clock.time();
        testRequestSentMillis = 0;
        final int msgType = message.msgType();
        final FixError error = message.error();
        if (msgType == MsgTypes.SEQUENCE_RESET && !message.isYes(FixTags.GAP_FILL_FLAG) && (error == FixError.NONE
                || error == FixError.REQUIRED_TAG_MISSING && message.errorTag() == FixTags.MSG_SEQ_NUM)) {
            onSequenceReset(message);
            return;
        }
        final long seq = message.unsignedValue(FixTags.MSG_SEQ_NUM);
        if (seq < 1) {
            logoutAndDisconnect(text("MsgSeqNum (34) missing or not a positive number"));
            return;
        }
        if (error == FixError.NONE && msgType == MsgTypes.LOGON && message.isYes(FixTags.RESET_SEQ_NUM_FLAG)) {
            onResetLogon(message, seq);
            return;
        }
        if (seq > nextTargetSeq && error == FixError.NONE && msgType == MsgTypes.LOGOUT) {
            // A Logout is answered even while a gap is open (a Logon with MsgSeqNum too high, its resend pending).
            onLogoutInGap();
            return;
        }
        if (seq > nextTargetSeq) {
            final boolean answered = error == FixError.NONE && msgType == MsgTypes.RESEND_REQUEST;
            if (answered) {
                onResendRequest(message);
            }
            held.hold(seq, message, receivedTicks, answered);
            requestResend(seq);
            return;
        }
        if (seq < nextTargetSeq) {
            if (!message.isYes(FixTags.POSS_DUP_FLAG)) {
                logoutAndDisconnect(text(SEQ_TOO_LOW).append(nextTargetSeq).append(BUT_RECEIVED).append(seq));
            } else if (!message.has(FixTags.ORIG_SENDING_TIME)) {
                reject(message, SessionRejectReason.REQUIRED_TAG_MISSING, FixTags.ORIG_SENDING_TIME,
                        "OrigSendingTime (122) is required when PossDupFlag is Y");
            }
            return;
        }
        if (error != FixError.NONE) {
            reject(message, error.sessionRejectReason(), message.errorTag(), error.text());
            advance();
            return;
        }
        if (!headerIsValid(message)) {
            return;
        }
        switch (msgType) {
            case MsgTypes.HEARTBEAT, MsgTypes.REJECT -> advance();
            case MsgTypes.TEST_REQUEST -> onTestRequest(message);
            case MsgTypes.RESEND_REQUEST -> {
                onResendRequest(message);
                advance();
            }
            case MsgTypes.SEQUENCE_RESET -> onGapFill(message, seq);
            case MsgTypes.LOGOUT -> onLogout();
            case MsgTypes.LOGON -> {
                advance();
                logoutAndDisconnect(text("Logon received on a session that is already logged on"));
            }
            default -> {
                application.onApplicationMessage(this, message);
                advance();
            }
        }
    }

    /** The connection's byte stream is not FIX 4.4 (another BeginString): log out with the reason and close. */
    public void onFramingError(final FixError error) {
        if (connection != null) {
            logoutAndDisconnect(error.text());
        }
    }

    /**
     * The gateway failed while processing a message of this session (a bug, not the client's doing): log out with
     * {@code text} as the last message and close, so the client can log on again to a fresh connection.
     */
    public void onProcessingFailed(final CharSequence text) {
        if (connection != null) {
            logoutAndDisconnect(text);
        }
    }

    /** The transport lost the connection. */
    public void onDisconnected() {
        resend.cancel();
        held.clear();
        connection = null;
        state = FixSessionState.DISCONNECTED;
        events.onDisconnect(this, CONNECTION_LOST);
        if (resetPolicy.onDisconnect()) {
            resetWhileOffline();
        }
    }

    /**
     * Sends heartbeats and test requests when due, times out an unanswered Logout, and logs out a silent client:
     * a TestRequest after HeartBtInt plus 20 % without a message from it, Logout and disconnect when that is not
     * answered within HeartBtInt (during a resend, which sends no TestRequest, after twice HeartBtInt plus 20 %).
     */
    public int onTimer() {
        final long now = clock.time();
        if (now >= nextDailyResetMillis) {
            dailyReset(now);
            return 1;
        }
        if (state == FixSessionState.DISCONNECTED) {
            return 0;
        }
        if (state == FixSessionState.LOGOUT_SENT) {
            if (now - logoutSentMillis >= logoutTimeoutMillis) {
                disconnect("no Logout reply");
                return 1;
            }
            return 0;
        }
        int work = 0;
        if (resend.inProgress() && connection != null && connection.writableBytes() >= maxMessageLength) {
            resent(resend.continueResend());
            work++;
        }
        final long silentMillis = now - lastReceivedMillis;
        // Without a resend, a client is logged out only after a TestRequest it left unanswered: a gateway thread
        // that was descheduled past both limits sends the TestRequest first and gives the client its HeartBtInt.
        if (testRequestSentMillis != 0 ? now - testRequestSentMillis >= heartbeatMillis
                : resend.inProgress() && silentMillis >= 2 * heartbeatMillis + heartbeatMillis / 5) {
            final StringBuilder why = text("No message for ").append(silentMillis / 1000).append(" s");
            logoutAndDisconnect(testRequestSentMillis != 0 ? why.append(", TestRequest unanswered") : why);
            return work + 1;
        }
        if (resend.inProgress()) {
            // A resend is under way: messages with new numbers wait for it, only the silence limit above applies.
            return work;
        }
        if (testRequestSentMillis == 0 && silentMillis >= heartbeatMillis + heartbeatMillis / 5) {
            proxy.testRequest(nextSenderSeq, clock.time(), now);
            commit(0, true);
            testRequestSentMillis = now;
            work++;
        }
        if (now - lastSentMillis >= heartbeatMillis && connection != null) {
            proxy.heartbeat(nextSenderSeq, clock.time());
            commit(0, true);
            work++;
        }
        return work;
    }

    /**
     * The daily reset time has come: a logged-on client is logged out ("Daily sequence reset") and both sequences
     * start again at 1, journaled like any reset.
     */
    private void dailyReset(final long now) {
        nextDailyResetMillis = resetPolicy.nextDailyReset(now);
        final boolean resetByDisconnect = connection != null && resetPolicy.onDisconnect();
        logoutAndDisconnect("Daily sequence reset");
        if (!resetByDisconnect) {
            resetWhileOffline();
        }
    }

    /**
     * Starts an application message to the client: the header is written with the next MsgSeqNum; add the
     * body through the returned encoder, then call {@link #sendApplicationMessage}. Works while the client
     * is offline too: the message is stored and reaches the client through the resend protocol.
     */
    public FixEncoder startApplicationMessage(final int msgType) {
        return proxy.header(msgType, nextSenderSeq, clock.time());
    }

    /**
     * Stores the message begun with {@link #startApplicationMessage(int)} and queues it on the connection.
     *
     * @param engineIndex the engine-journal index of the report it carries, or 0 for none (stored with it)
     * @return where the message ends in the byte stream of the connection it was queued on
     *         ({@link FixConnection#queuedBytes()}), or {@link #NOT_QUEUED} if it was only stored: the client is
     *         offline, a resend is under way, or the connection could not take it
     */
    public long sendApplicationMessage(final long engineIndex) {
        return commit(engineIndex, true);
    }

    /**
     * As {@link #sendApplicationMessage}, for a message that is stale once sent (market data): it is numbered, and the
     * store keeps the number from being used again ({@link SessionStore#sentUnresendable}), but not its body, so a
     * resend gap-fills it.
     */
    public long sendUnresendable() {
        return commit(0, false);
    }

    /** @return the connection of the logged-on client, or null. */
    public FixConnection connection() {
        return connection;
    }

    /** @return true if a client is logged on and the session can send right now. */
    public boolean isLoggedOn() {
        return connection != null && state != FixSessionState.DISCONNECTED;
    }

    /**
     * Sends a session-level Reject (35=3) of {@code message}; the caller decides about the sequence.
     *
     * @param refTagId the tag the Reject names in RefTagID (371), or {@link FixMessage#NO_TAG} for none
     */
    public void reject(final FixMessage message, final int sessionRejectReason, final int refTagId,
                       final CharSequence text) {
        proxy.reject(nextSenderSeq, clock.time(), message, sessionRejectReason, refTagId, text);
        commit(0, true);
        counters.sessionReject(sessionRejectReason);
    }

    /** Sends a Business Message Reject (35=j) of {@code message}. */
    public void businessReject(final FixMessage message, final int businessRejectReason, final CharSequence text) {
        proxy.businessReject(nextSenderSeq, clock.time(), message, businessRejectReason, text);
        commit(0, true);
    }

    /** Starts the Logout handshake: sends Logout with {@code text} and closes on the reply or after a timeout. */
    public void logout(final CharSequence text) {
        if (connection == null) {
            return;
        }
        proxy.logout(nextSenderSeq, clock.time(), text);
        commit(0, true);
        if (connection != null) {
            state = FixSessionState.LOGOUT_SENT;
            logoutSentMillis = clock.time();
        }
    }

    /**
     * An operator disconnects the session ({@code ./sluice admin disconnect}): a Logout with {@code text} in Text (58)
     * is the last message, then the connection closes at once, without waiting for the client's Logout. Nothing
     * happens without a connection.
     */
    public void logoutAndClose(final CharSequence text) {
        logoutAndDisconnect(text);
    }

    /**
     * An operator sets the session's next sequence numbers ({@code ./sluice admin set-seq}) while no client is
     * connected: recorded in the store as a reset, so a restart keeps them and resends never reach back past it. The
     * application messages stored while the client was offline and not yet delivered are stored again with the new
     * numbers, from {@code newNextSenderSeq} on, so the client still gets them through the resend protocol once it
     * logs on (as after a reset of the session's own policy).
     *
     * @return how many undelivered messages were renumbered
     * @throws IllegalStateException if a client is connected, or a number is below 1
     */
    public long setSequences(final long newNextSenderSeq, final long newNextTargetSeq) {
        if (connection != null || state != FixSessionState.DISCONNECTED) {
            throw new IllegalStateException("session " + identity.clientCompId() + " is connected");
        }
        if (newNextSenderSeq < 1 || newNextTargetSeq < 1) {
            throw new IllegalStateException("sequence numbers must be at least 1");
        }
        final long undeliveredFrom = offlineFromSeq;
        final long undeliveredTo = nextSenderSeq - 1;
        nextSenderSeq = newNextSenderSeq;
        nextTargetSeq = newNextTargetSeq;
        store.reset(this, newNextSenderSeq, newNextTargetSeq, application.lastEventId());
        offlineFromSeq = 0;
        if (undeliveredFrom != 0) {
            nextSenderSeq = resend.renumber(undeliveredFrom, undeliveredTo, nextSenderSeq);
            offlineFromSeq = nextSenderSeq > newNextSenderSeq ? newNextSenderSeq : 0;
        }
        return nextSenderSeq - newNextSenderSeq;
    }

    private boolean headerIsValid(final FixMessage message) {
        if (!message.valueEquals(FixTags.SENDER_COMP_ID, clientCompId)
                || !message.valueEquals(FixTags.TARGET_COMP_ID, gatewayCompId)) {
            // RefTagID (371) names the CompID that is wrong, 49 or 56. QuickFIX/J sends none, but the FIX session
            // test case for CompIDs that do not match the profile asks for a Reject "referencing invalid
            // SenderCompID or TargetCompID" with reason 9, and RefTagID is the Reject's field for the tag it
            // references: it tells the client which of its two CompIDs to fix.
            reject(message, SessionRejectReason.COMP_ID_PROBLEM,
                    message.valueEquals(FixTags.SENDER_COMP_ID, clientCompId) ? FixTags.TARGET_COMP_ID
                            : FixTags.SENDER_COMP_ID, "CompID problem");
            advance();
            logoutAndDisconnect("Incorrect SenderCompID (49) or TargetCompID (56)");
            return false;
        }
        final long sendingTime = message.timestampValue(FixTags.SENDING_TIME);
        if (sendingTime == FixMessage.ABSENT || sendingTime == FixMessage.INVALID) {
            reject(message, sendingTime == FixMessage.ABSENT ? SessionRejectReason.REQUIRED_TAG_MISSING
                    : SessionRejectReason.INCORRECT_DATA_FORMAT, FixTags.SENDING_TIME, "SendingTime (52) missing or invalid");
            advance();
            return false;
        }
        if (Math.abs(clock.time() - sendingTime) > sendingTimeToleranceMillis) {
            reject(message, SessionRejectReason.SENDING_TIME_ACCURACY_PROBLEM, FixTags.SENDING_TIME,
                    "SendingTime accuracy problem");
            advance();
            logoutAndDisconnect("SendingTime (52) is too far from the gateway's clock");
            return false;
        }
        if (message.isYes(FixTags.POSS_DUP_FLAG)) {
            final long origSendingTime = message.timestampValue(FixTags.ORIG_SENDING_TIME);
            if (origSendingTime < 0) {
                reject(message, SessionRejectReason.REQUIRED_TAG_MISSING, FixTags.ORIG_SENDING_TIME,
                        "OrigSendingTime (122) is required when PossDupFlag is Y");
                advance();
                return false;
            }
            if (origSendingTime > sendingTime) {
                reject(message, SessionRejectReason.SENDING_TIME_ACCURACY_PROBLEM, FixTags.ORIG_SENDING_TIME,
                        "OrigSendingTime (122) is later than SendingTime (52)");
                advance();
                return false;
            }
        }
        return true;
    }

    private void onTestRequest(final FixMessage message) {
        final int testReqId = message.indexOf(FixTags.TEST_REQ_ID);
        if (testReqId < 0) {
            reject(message, SessionRejectReason.REQUIRED_TAG_MISSING, FixTags.TEST_REQ_ID, "TestReqID (112) is required");
        } else {
            proxy.heartbeat(nextSenderSeq, clock.time(), message, testReqId);
            commit(0, true);
        }
        advance();
    }

    /** Answers a ResendRequest ({@link ResendController}), or rejects the range it asks for. */
    private void onResendRequest(final FixMessage message) {
        counters.resendRequest();
        resent(resend.onResendRequest(message, nextSenderSeq - 1));
    }

    /**
     * A client that logs on with ResetSeqNumFlag still gets the application messages stored while it was
     * offline (from {@code oldFrom} to {@code oldTo} in the sequence that ended): they are stored again with
     * the new sequence's next numbers and go out through the resend path, as far as the connection has room,
     * with new reports waiting their turn behind them.
     */
    private void redeliverAfterReset(final long oldFrom, final long oldTo) {
        final long first = nextSenderSeq;
        nextSenderSeq = resend.renumber(oldFrom, oldTo, first);
        if (nextSenderSeq > first) {
            resent(resend.resend(first, nextSenderSeq - 1));
        }
    }

    /** Notes that {@code count} resent messages or gap fills went out, for the heartbeat's timing. */
    private void resent(final int count) {
        if (count > 0) {
            lastSentMillis = clock.time();
        }
    }

    private void onGapFill(final FixMessage message, final long seq) {
        final long newSeqNo = message.unsignedValue(FixTags.NEW_SEQ_NO);
        if (newSeqNo < 1) {
            reject(message, newSeqNo == FixMessage.ABSENT ? SessionRejectReason.REQUIRED_TAG_MISSING
                    : SessionRejectReason.INCORRECT_DATA_FORMAT, FixTags.NEW_SEQ_NO, "NewSeqNo (36) missing or invalid");
            advance();
        } else if (newSeqNo <= seq) {
            reject(message, SessionRejectReason.VALUE_IS_INCORRECT, FixTags.NEW_SEQ_NO,
                    "Attempt to lower sequence number, invalid value NewSeqNo (36)");
            advance();
        } else {
            moveTargetTo(newSeqNo);
        }
    }

    /**
     * SequenceReset in Reset mode (no GapFillFlag): its MsgSeqNum is ignored, even 0 or missing. It may move the
     * expected number up, never down (a Reject of NewSeqNo, 36, whose RefSeqNum is the message's MsgSeqNum, 0 if it
     * had none).
     */
    private void onSequenceReset(final FixMessage message) {
        final long newSeqNo = message.unsignedValue(FixTags.NEW_SEQ_NO);
        if (newSeqNo < 1) {
            reject(message, newSeqNo == FixMessage.ABSENT ? SessionRejectReason.REQUIRED_TAG_MISSING
                    : SessionRejectReason.INCORRECT_DATA_FORMAT, FixTags.NEW_SEQ_NO, "NewSeqNo (36) missing or invalid");
        } else if (newSeqNo < nextTargetSeq) {
            reject(message, SessionRejectReason.VALUE_IS_INCORRECT, FixTags.NEW_SEQ_NO,
                    "Attempt to lower sequence number, invalid value NewSeqNo (36)");
        } else if (newSeqNo > nextTargetSeq) {
            moveTargetTo(newSeqNo);
        }
    }

    /**
     * A Logon with ResetSeqNumFlag on a logged-on session (a counterparty's daily reset): both sequences start
     * again at 1, recorded in the store before the answering Logon (MsgSeqNum 1, ResetSeqNumFlag Y) goes out, and
     * the session stays logged on with the HeartBtInt it has. Messages held behind a gap are dropped, as they belong
     * to the sequence that ended; the application messages a resend under way had not sent yet are sent again with
     * new numbers, as for a client that resets at Logon.
     */
    private void onResetLogon(final FixMessage message, final long seq) {
        if (seq != 1) {
            logoutAndDisconnect(text(RESET_NEEDS_SEQ_ONE));
            return;
        }
        if (!headerIsValid(message)) {
            return;
        }
        final long undeliveredFrom = resend.nextSeq();
        final long undeliveredTo = resend.lastSeq();
        resend.cancel();
        held.clear();
        if (state == FixSessionState.RESEND_REQUESTED) {
            state = FixSessionState.ACTIVE;
        }
        resetSequences();
        proxy.logon(nextSenderSeq, clock.time(), heartbeatMillis / 1000, true);
        commit(0, true);
        if (undeliveredFrom != 0) {
            redeliverAfterReset(undeliveredFrom, undeliveredTo);
        }
        advance();
    }

    /** Both sequences start again at 1, recorded in the store before anything is sent under the new numbering. */
    private void resetSequences() {
        nextSenderSeq = 1;
        nextTargetSeq = 1;
        store.reset(this, 1, 1, application.lastEventId());
    }

    /**
     * A reset of the session's own policy, with no client connected: the application messages stored while it was
     * offline are stored again with the new sequence's first numbers, so that the client still gets them (through
     * the resend protocol) after it logs on.
     */
    private void resetWhileOffline() {
        final long undeliveredFrom = offlineFromSeq;
        final long undeliveredTo = nextSenderSeq - 1;
        resetSequences();
        offlineFromSeq = 0;
        if (undeliveredFrom != 0) {
            nextSenderSeq = resend.renumber(undeliveredFrom, undeliveredTo, nextSenderSeq);
            offlineFromSeq = nextSenderSeq > 1 ? 1 : 0;
        }
    }

    /** A Logout whose MsgSeqNum is beyond a gap: answered and closed without taking its place in the sequence. */
    private void onLogoutInGap() {
        closeAfterLogout();
    }

    private void onLogout() {
        advance();
        closeAfterLogout();
    }

    /** The client's Logout answers ours, or is answered; then the connection closes (ResetOnLogout resets). */
    private void closeAfterLogout() {
        if (state == FixSessionState.LOGOUT_SENT) {
            disconnect(null);
        } else {
            logoutAndDisconnect(null);
        }
        if (resetPolicy.onLogout() && !resetPolicy.onDisconnect()) {
            resetWhileOffline();
        }
    }

    /** Sends Logout (with Text 58 unless {@code text} is null) as the last message, then closes. */
    private void logoutAndDisconnect(final CharSequence text) {
        if (connection == null) {
            return;
        }
        final long now = clock.time();
        proxy.logout(nextSenderSeq, now, text);
        final FixEncoder encoder = proxy.encoder();
        encoder.finish();
        store.sent(this, nextSenderSeq++, MsgTypes.LOGOUT, now, encoder.buffer(), 0, 0, 0);
        connection.sendAndClose(encoder.buffer(), encoder.messageOffset(), encoder.messageLength());
        disconnect(text);
    }

    private void disconnect(final CharSequence reason) {
        resend.cancel();
        held.clear();
        if (connection != null) {
            final FixConnection closing = connection;
            connection = null;
            closing.session(null);
            if (!closing.isClosed()) {
                closing.close();
            }
            events.onDisconnect(this, reason);
            state = FixSessionState.DISCONNECTED;
            if (resetPolicy.onDisconnect()) {
                resetWhileOffline();
            }
        }
        state = FixSessionState.DISCONNECTED;
    }

    private void requestResend(final long receivedSeq) {
        if (state == FixSessionState.RESEND_REQUESTED) {
            resendEndSeq = Math.max(resendEndSeq, receivedSeq);
            return;
        }
        if (state != FixSessionState.ACTIVE) {
            return;
        }
        proxy.resendRequest(nextSenderSeq, clock.time(), nextTargetSeq);
        commit(0, true);
        if (connection != null) {
            state = FixSessionState.RESEND_REQUESTED;
            resendEndSeq = receivedSeq;
        }
    }

    private void advance() {
        moveTargetTo(nextTargetSeq + 1);
    }

    private void moveTargetTo(final long newNextTargetSeq) {
        nextTargetSeq = newNextTargetSeq;
        store.received(this, nextTargetSeq, application.lastEventId());
        if (state == FixSessionState.RESEND_REQUESTED && nextTargetSeq > resendEndSeq) {
            state = FixSessionState.ACTIVE;
        }
    }

    /**
     * Finishes, stores and sends the message the {@link SessionProxy} holds, numbered {@link #nextSenderSeq}: an
     * administrative message goes out at once; an application message waits while the client is offline or a resend is
     * under way, and reaches it through the resend protocol.
     *
     * @param engineIndex the engine-journal index of the report the message carries, or 0 for none
     * @param resendable  false for a message whose number alone the store keeps, gap-filled on resend
     * @return where the message ends in its connection's byte stream, or {@link #NOT_QUEUED}
     */
    private long commit(final long engineIndex, final boolean resendable) {
        final FixEncoder encoder = proxy.encoder();
        final int bodyEnd = encoder.position();
        encoder.finish();
        final int msgType = encoder.msgType();
        final boolean admin = MsgTypes.isAdmin(msgType);
        final long seq = nextSenderSeq++;
        if (resendable || admin) {
            store.sent(this, seq, msgType, encoder.sendingTime(), encoder.buffer(), encoder.bodyStart(),
                    admin ? 0 : bodyEnd - encoder.bodyStart(), engineIndex);
        } else {
            store.sentUnresendable(this, seq, encoder.sendingTime());
        }
        if (admin) {
            return transmit(msgType, false);
        } else if (connection == null) {
            if (offlineFromSeq == 0) {
                offlineFromSeq = seq;
            }
            return NOT_QUEUED;
        } else if (resend.inProgress()) {
            resend.extendTo(seq);
            return NOT_QUEUED;
        }
        return transmit(msgType, !resendable);
    }

    /**
     * @param bulk true to let the socket write wait behind other connections' ({@link FixConnection#sendBulk})
     * @return where the message ends in the connection's byte stream, or {@link #NOT_QUEUED}
     */
    private long transmit(final int msgType, final boolean bulk) {
        final FixConnection sending = connection;
        if (sending == null) {
            return NOT_QUEUED;
        }
        lastSentMillis = clock.time();
        final FixEncoder encoder = proxy.encoder();
        final boolean queued = bulk
                ? sending.sendBulk(encoder.buffer(), encoder.messageOffset(), encoder.messageLength())
                : sending.send(encoder.buffer(), encoder.messageOffset(), encoder.messageLength());
        if (!queued) {
            if (offlineFromSeq == 0 && !MsgTypes.isAdmin(msgType)) {
                offlineFromSeq = nextSenderSeq - 1;
            }
            logoutAndDisconnect("Client is not reading fast enough: send buffer full; logging out, "
                    + "reports are kept for resend on the next Logon");
            return NOT_QUEUED;
        }
        counters.messageOut();
        return sending.queuedBytes();
    }

    private StringBuilder text(final String start) {
        reason.setLength(0);
        return reason.append(start);
    }

    private static byte[] ascii(final String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
