package io.sluice.systemtests;

import io.sluice.bench.quickfixj.QuickFixJClient;
import io.sluice.tools.fix.FixEndpoint;
import io.sluice.tools.fix.SluiceDeployment;
import quickfix.field.ExecType;

import java.nio.file.Path;

import static io.sluice.systemtests.FixMessages.buy;
import static io.sluice.systemtests.FixMessages.report;

/**
 * A QuickFIX/J client in a process of its own, for a test to kill with SIGKILL. It logs on, places resting buys (the
 * ClOrdIDs given, at 5.00, 6.00 ...), waits for their acks, prints {@value #READY} and then only keeps its session
 * until it is killed. Its QuickFIX/J file store survives it, so a later client with the same store continues its
 * sequence numbers. Arguments: host port senderCompId password storeDir clOrdId,clOrdId...
 */
public final class RestingOrdersClientMain {
    /** Printed once every order rests. */
    static final String READY = "orders resting";

    private RestingOrdersClientMain() {
    }

    public static void main(final String[] args) throws Exception {
        final QuickFixJClient client = new QuickFixJClient(FixEndpoint.tcp(args[0], Integer.parseInt(args[1])),
                args[2], SluiceDeployment.GATEWAY_COMP_ID, args[3], Path.of(args[4])).logOn();
        final String[] orders = args[5].split(",");
        for (int i = 0; i < orders.length; i++) {
            client.send(buy(orders[i], 10, 5 + i));
        }
        for (final String order : orders) {
            client.await("the ack of " + order, report(order, ExecType.NEW));
        }
        System.out.println(READY);
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE); // until killed: the test's kill -9 is the point
    }
}
