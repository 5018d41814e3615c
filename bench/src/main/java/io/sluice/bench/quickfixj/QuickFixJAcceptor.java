package io.sluice.bench.quickfixj;

import io.sluice.tools.fix.LoopbackPorts;
import quickfix.Acceptor;
import quickfix.ConfigError;
import quickfix.DefaultMessageFactory;
import quickfix.NoopStoreFactory;
import quickfix.SessionID;
import quickfix.SessionSettings;
import quickfix.SocketAcceptor;

import java.util.List;

/**
 * The benchmark baseline: a QuickFIX/J FIX 4.4 acceptor that answers every NewOrderSingle with an ack and a
 * fill ({@link TwoReportApplication}). No journal (QuickFIX/J's no-op message store), no engine, no logging:
 * the fastest configuration of QuickFIX/J, so ratios against it are conservative. QuickFIX/J speaks TCP only;
 * it has no Unix domain socket transport.
 */
public final class QuickFixJAcceptor implements AutoCloseable {
    /** The acceptor's CompID: the TargetCompID clients send. */
    public static final String COMP_ID = "QFJ";

    private final Acceptor acceptor;
    private final int port;

    private QuickFixJAcceptor(final Acceptor acceptor, final int port) {
        this.acceptor = acceptor;
        this.port = port;
    }

    /**
     * Starts an acceptor on 127.0.0.1.
     *
     * @param port          the TCP port, or 0 for a free one
     * @param clientCompIds the SenderCompIDs of the clients allowed to log on
     */
    public static QuickFixJAcceptor start(final int port, final List<String> clientCompIds) throws ConfigError {
        final int boundPort = port == 0 ? LoopbackPorts.free() : port;
        final SessionSettings settings = new SessionSettings();
        settings.setString("ConnectionType", "acceptor");
        settings.setString("BeginString", "FIX.4.4");
        settings.setString("SenderCompID", COMP_ID);
        settings.setString("SocketAcceptAddress", "127.0.0.1");
        settings.setLong("SocketAcceptPort", boundPort);
        settings.setString("SocketTcpNoDelay", "Y");
        settings.setString("NonStopSession", "Y");
        settings.setString("UseDataDictionary", "Y");
        settings.setString("DataDictionary", "FIX44.xml");
        settings.setString("ResetOnLogon", "Y");
        settings.setString("ResetOnLogout", "Y");
        settings.setString("ResetOnDisconnect", "Y");
        for (final String clientCompId : clientCompIds) {
            final SessionID sessionId = new SessionID("FIX.4.4", COMP_ID, clientCompId);
            settings.setString(sessionId, "TargetCompID", clientCompId);
        }
        final SocketAcceptor acceptor = new SocketAcceptor(new TwoReportApplication(), new NoopStoreFactory(),
                settings, ErrorsOnlyLog::new, new DefaultMessageFactory());
        acceptor.start();
        return new QuickFixJAcceptor(acceptor, boundPort);
    }

    /** @return the TCP port clients connect to on 127.0.0.1. */
    public int port() {
        return port;
    }

    @Override
    public void close() {
        acceptor.stop(true);
    }

    /** {@code QuickFixJAcceptor [port] [clientCompId...]}: runs the baseline acceptor until killed. */
    public static void main(final String[] args) throws Exception {
        final int port = args.length > 0 ? Integer.parseInt(args[0]) : 0;
        final List<String> clients = args.length > 1 ? List.of(args).subList(1, args.length) : List.of("LOAD1");
        try (QuickFixJAcceptor acceptor = start(port, clients)) {
            System.out.println("QuickFIX/J acceptor (CompID " + COMP_ID + ", clients " + clients + ") on TCP 127.0.0.1:"
                    + acceptor.port() + "; QuickFIX/J has no Unix domain socket transport, so TCP only.");
            Thread.currentThread().join();
        }
    }
}
