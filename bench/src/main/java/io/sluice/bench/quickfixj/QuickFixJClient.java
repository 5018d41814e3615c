package io.sluice.bench.quickfixj;

import io.sluice.runtime.process.PollUntil;
import io.sluice.tools.fix.FixEndpoint;
import quickfix.Application;
import quickfix.ConfigError;
import quickfix.DefaultMessageFactory;
import quickfix.FieldNotFound;
import quickfix.FileStoreFactory;
import quickfix.Log;
import quickfix.Message;
import quickfix.Session;
import quickfix.SessionID;
import quickfix.SessionNotFound;
import quickfix.SessionSettings;
import quickfix.SocketInitiator;
import quickfix.field.MsgType;
import quickfix.field.Password;
import quickfix.field.Text;
import quickfix.field.Username;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * A QuickFIX/J FIX 4.4 initiator: the independent client of the end-to-end tests and of the failover benchmark. One
 * session, a file message store (so sequence numbers survive a reconnect, as a real client's would), Username/Password
 * on Logon, and every message it receives or sends kept for assertions and failure messages.
 */
public final class QuickFixJClient implements Application, AutoCloseable {
    public static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final SessionID sessionId;
    private final String username;
    private final String password;
    private final SocketInitiator initiator;
    private final List<Message> applicationMessages = new CopyOnWriteArrayList<>();
    /** When each application message arrived (wall-clock millis), at the same position: never shorter. */
    private final List<Long> applicationArrivals = new CopyOnWriteArrayList<>();
    private final List<Message> adminMessages = new CopyOnWriteArrayList<>();
    private final List<String> traffic = new CopyOnWriteArrayList<>();
    private volatile Consumer<Message> onApplicationMessage = message -> {
    };
    private volatile int logons;
    private volatile int logouts;

    public QuickFixJClient(final FixEndpoint gateway, final String senderCompId, final String targetCompId,
                    final String password, final Path storeDir) throws ConfigError {
        this(gateway, senderCompId, targetCompId, password, storeDir, false);
    }

    /** @param resetOnLogon every Logon carries ResetSeqNumFlag (141=Y): both sides start again at 1 */
    public QuickFixJClient(final FixEndpoint gateway, final String senderCompId, final String targetCompId,
                    final String password, final Path storeDir, final boolean resetOnLogon) throws ConfigError {
        this(List.of(gateway), senderCompId, targetCompId, password, storeDir, resetOnLogon, Map.of());
    }

    /** @param moreSettings more QuickFIX/J session settings, e.g. SocketUseSSL and its key and trust stores */
    public QuickFixJClient(final FixEndpoint gateway, final String senderCompId, final String targetCompId,
                    final String password, final Path storeDir, final boolean resetOnLogon,
                    final Map<String, String> moreSettings) throws ConfigError {
        this(List.of(gateway), senderCompId, targetCompId, password, storeDir, resetOnLogon, moreSettings);
    }

    /**
     * @param gateways     where to connect, tried round robin at every (re)connect (QuickFIX/J's SocketConnectHost,
     *                     SocketConnectHost1 ...): a primary and its standby
     * @param moreSettings more QuickFIX/J session settings, e.g. SocketUseSSL and its key and trust stores
     */
    public QuickFixJClient(final List<FixEndpoint> gateways, final String senderCompId, final String targetCompId,
                    final String password, final Path storeDir, final boolean resetOnLogon,
                    final Map<String, String> moreSettings) throws ConfigError {
        final FixEndpoint gateway = gateways.getFirst();
        this.sessionId = new SessionID("FIX.4.4", senderCompId, targetCompId);
        this.username = senderCompId;
        this.password = password;
        final SessionSettings settings = new SessionSettings();
        settings.setString("ConnectionType", "initiator");
        settings.setString("BeginString", "FIX.4.4");
        settings.setString("SocketConnectHost", gateway.host());
        settings.setLong("SocketConnectPort", gateway.port());
        for (int i = 1; i < gateways.size(); i++) {
            settings.setString("SocketConnectHost" + i, gateways.get(i).host());
            settings.setLong("SocketConnectPort" + i, gateways.get(i).port());
        }
        settings.setLong("HeartBtInt", 30);
        settings.setLong("ReconnectInterval", 1);
        settings.setString("NonStopSession", "Y");
        settings.setString("UseDataDictionary", "Y");
        settings.setString("DataDictionary", "FIX44.xml");
        settings.setString("FileStorePath", storeDir.toString());
        settings.setString("ResetOnLogon", resetOnLogon ? "Y" : "N");
        settings.setString(sessionId, "SenderCompID", senderCompId);
        settings.setString(sessionId, "TargetCompID", targetCompId);
        moreSettings.forEach((key, value) -> settings.setString(sessionId, key, value));
        initiator = new SocketInitiator(this, new FileStoreFactory(settings), settings, this::log,
                new DefaultMessageFactory());
    }

    /**
     * Hands each application message to {@code listener} as it arrives, before QuickFIX/J counts it as received (so a
     * process killed between the two gets it again, resent with PossDupFlag). Set it before {@link #start()}.
     */
    public QuickFixJClient onApplicationMessage(final Consumer<Message> listener) {
        this.onApplicationMessage = listener;
        return this;
    }

    /** Starts connecting (and reconnecting every second) and returns at once. */
    public QuickFixJClient start() throws ConfigError {
        initiator.start();
        return this;
    }

    /** Starts and waits until the gateway has accepted the Logon. */
    public QuickFixJClient logOn() throws ConfigError {
        start();
        awaitLoggedOn();
        return this;
    }

    public void awaitLoggedOn() {
        PollUntil.await(this::isLoggedOn, TIMEOUT, () -> sessionId + " to be logged on; " + trafficText());
    }

    public boolean isLoggedOn() {
        final Session session = session();
        return session != null && session.isLoggedOn();
    }

    public Session session() {
        return Session.lookupSession(sessionId);
    }

    public SessionID sessionId() {
        return sessionId;
    }

    public void send(final Message message) throws SessionNotFound {
        if (!Session.sendToTarget(message, sessionId)) {
            throw new IllegalStateException("QuickFIX/J did not send " + message);
        }
    }

    /** Waits for an application message (execution report, cancel reject ...) matching {@code match}. */
    public Message await(final String what, final Predicate<Message> match) {
        PollUntil.await(() -> applicationMessages.stream().anyMatch(match), TIMEOUT,
                () -> what + " on " + sessionId + "; " + trafficText());
        return applicationMessages.stream().filter(match).findFirst().orElseThrow();
    }

    /** Waits for a session-level message (Logout, Reject, ResendRequest ...) matching {@code match}. */
    public Message awaitAdmin(final String what, final Predicate<Message> match) {
        PollUntil.await(() -> adminMessages.stream().anyMatch(match), TIMEOUT,
                () -> what + " on " + sessionId + "; " + trafficText());
        return adminMessages.stream().filter(match).findFirst().orElseThrow();
    }

    public List<Message> applicationMessages() {
        return applicationMessages;
    }

    /** @return when each of {@link #applicationMessages()} arrived, wall-clock millis, at the same position */
    public List<Long> applicationArrivals() {
        return applicationArrivals;
    }

    public int logons() {
        return logons;
    }

    public int logouts() {
        return logouts;
    }

    /** @return every message sent ("-> ") and received ("<- ") so far and QuickFIX/J's events, raw. */
    public List<String> traffic() {
        return traffic;
    }

    /** @return every message sent and received so far, one per line, for failure messages. */
    public String trafficText() {
        return "traffic:\n  " + String.join("\n  ", traffic).replace('\u0001', '|');
    }

    public static boolean isType(final Message message, final String msgType) {
        try {
            return msgType.equals(message.getHeader().getString(MsgType.FIELD));
        } catch (final FieldNotFound e) {
            return false;
        }
    }

    public static String text(final Message message) {
        return field(message, Text.FIELD);
    }

    /** @return the value of body field {@code tag}, or "" if it is absent. */
    public static String field(final Message message, final int tag) {
        try {
            return message.isSetField(tag) ? message.getString(tag) : "";
        } catch (final FieldNotFound e) {
            return "";
        }
    }

    @Override
    public void close() {
        initiator.stop(true);
    }

    @Override
    public void onCreate(final SessionID id) {
    }

    @Override
    public void onLogon(final SessionID id) {
        logons++;
    }

    @Override
    public void onLogout(final SessionID id) {
        logouts++;
    }

    @Override
    public void toAdmin(final Message message, final SessionID id) {
        if (isType(message, MsgType.LOGON)) {
            message.setString(Username.FIELD, username);
            message.setString(Password.FIELD, password);
        }
    }

    @Override
    public void fromAdmin(final Message message, final SessionID id) {
        adminMessages.add(message);
    }

    @Override
    public void toApp(final Message message, final SessionID id) {
    }

    @Override
    public void fromApp(final Message message, final SessionID id) {
        applicationArrivals.add(System.currentTimeMillis());
        applicationMessages.add(message);
        onApplicationMessage.accept(message);
    }

    private Log log(final SessionID id) {
        return new Log() {
            @Override
            public void clear() {
                traffic.clear();
            }

            @Override
            public void onIncoming(final String message) {
                traffic.add("<- " + message);
            }

            @Override
            public void onOutgoing(final String message) {
                traffic.add("-> " + message);
            }

            @Override
            public void onEvent(final String text) {
                traffic.add("   " + text);
            }

            @Override
            public void onErrorEvent(final String text) {
                traffic.add("!! " + text);
            }
        };
    }
}
