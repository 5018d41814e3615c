package io.sluice.systemtests;

import io.sluice.bench.quickfixj.QuickFixJClient;
import io.sluice.tools.fix.FixEndpoint;
import quickfix.FieldNotFound;
import quickfix.Message;
import quickfix.field.DeliverToCompID;
import quickfix.field.ExecID;
import quickfix.field.MsgType;
import quickfix.field.PossDupFlag;

import java.nio.file.Path;

/**
 * A QuickFIX/J drop-copy client in a process of its own, for a test to kill with SIGKILL mid-stream. It logs on,
 * prints {@value #LOGGED_ON}, then prints one line per application message as QuickFIX/J hands it over, before
 * QuickFIX/J counts it as received: {@code copy <MsgType> <PossDupFlag Y|N> <DeliverToCompID> <key>}, the key being
 * the ExecID of an ExecutionReport and the ClOrdID of anything else. Its QuickFIX/J file store survives it, so the
 * next process on the same store continues its sequence numbers and asks for what it missed. Arguments: host port
 * senderCompId targetCompId password storeDir.
 */
public final class DropCopyClientMain {
    /** Printed once the gateway has accepted the Logon. */
    static final String LOGGED_ON = "drop copy logged on";
    /** What every line of a received message starts with. */
    static final String COPY = "copy ";

    private DropCopyClientMain() {
    }

    public static void main(final String[] args) throws Exception {
        final QuickFixJClient client = new QuickFixJClient(FixEndpoint.tcp(args[0], Integer.parseInt(args[1])),
                args[2], args[3], args[4], Path.of(args[5]));
        client.onApplicationMessage(DropCopyClientMain::print).logOn();
        System.out.println(LOGGED_ON);
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE); // until killed or stopped: the test's kill -9 is the point
    }

    private static void print(final Message message) {
        final String msgType = header(message, MsgType.FIELD);
        final String key = MsgType.EXECUTION_REPORT.equals(msgType)
                ? QuickFixJClient.field(message, ExecID.FIELD) : FixMessages.clOrdId(message);
        final String possDup = header(message, PossDupFlag.FIELD).equals("Y") ? "Y" : "N";
        System.out.println(COPY + msgType + " " + possDup + " " + header(message, DeliverToCompID.FIELD) + " " + key);
        System.out.flush();
    }

    private static String header(final Message message, final int tag) {
        try {
            return message.getHeader().isSetField(tag) ? message.getHeader().getString(tag) : "";
        } catch (final FieldNotFound e) {
            return "";
        }
    }
}
