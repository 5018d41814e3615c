package io.sluice.systemtests;

import io.sluice.bench.quickfixj.QuickFixJClient;
import io.sluice.engine.EngineMain;
import io.sluice.gateway.GatewayMain;
import io.sluice.runtime.process.JavaProcess;
import io.sluice.runtime.process.PollUntil;
import io.sluice.tools.fix.FixEndpoint;
import io.sluice.tools.fix.LoopbackPorts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import quickfix.Message;
import quickfix.field.CumQty;
import quickfix.field.CxlRejReason;
import quickfix.field.CxlRejResponseTo;
import quickfix.field.ExecType;
import quickfix.field.LastQty;
import quickfix.field.MsgType;
import quickfix.field.OrigClOrdID;
import quickfix.field.Side;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;

import static io.sluice.systemtests.FixMessages.buy;
import static io.sluice.systemtests.FixMessages.cancel;
import static io.sluice.systemtests.FixMessages.clOrdId;
import static io.sluice.systemtests.FixMessages.order;
import static io.sluice.systemtests.FixMessages.replaceBuy;
import static io.sluice.systemtests.FixMessages.report;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two firms on two gateways, over real FIX TCP (QuickFIX/J clients), a real engine and real gateway processes on
 * real journals. Both clients have the same SenderCompID, CLIENT1, each towards its own gateway's CompID: to the
 * engine, CLIENT1 of gateway 1 (firm FIRMA) and CLIENT1 of gateway 2 (firm FIRMB) are two sessions. Neither can
 * touch the other's orders: a cancel or replace naming the other's ClOrdID gets a cancel reject on its own
 * session, and the owner sees nothing of it. The same ClOrdID is no duplicate across the two, and their orders
 * trade with each other (different firms, no self-match).
 */
class FirmsOnTwoGatewaysTest {
    private static final Duration READY = Duration.ofSeconds(180);
    private static final String PASSWORD = "secret";

    @TempDir
    Path dir;

    @Test
    void aSessionOfOneFirmCannotCancelOrReplaceTheOrdersOfTheSameCompIdOnAnotherGateway() throws Exception {
        final Path journals = dir.resolve("journals");
        final FixEndpoint gateway1 = FixEndpoint.tcp("127.0.0.1", LoopbackPorts.free());
        final FixEndpoint gateway2 = FixEndpoint.tcp("127.0.0.1", LoopbackPorts.free());
        try (JavaProcess engine = start("engine", EngineMain.class, Files.writeString(dir.resolve("engine.yaml"), """
                     !EngineConfig {
                       journalRoot: "%s",
                       gatewayIds: [ 1, 2 ],
                       maxOpenOrders: 1024,
                       completedOrderMemory: 1024,
                       maxPriceLevels: 64,
                       instruments: [ { symbol: %s, tickSize: 0.01, lotSize: 1, priceLow: 1, priceHigh: 1000,
                                        maxOrderQty: 100000, maxNotional: 100000000 } ]
                     }
                     """.formatted(journals, FixMessages.SYMBOL)));
             JavaProcess first = start("gateway-1", GatewayMain.class, gatewayConfig(1, gateway1, "GW1", "FIRMA"));
             JavaProcess second = start("gateway-2", GatewayMain.class, gatewayConfig(2, gateway2, "GW2", "FIRMB"))) {
            PollUntil.await(() -> engine.logText().contains("engine: recovered") || !engine.isAlive(), READY,
                    () -> "the engine to recover; its log: " + engine.logText());
            awaitAccepting(first, gateway1);
            awaitAccepting(second, gateway2);
            assertTrue(engine.isAlive(), engine::logText);

            try (QuickFixJClient owner = client(gateway1, "GW1").logOn();
                 QuickFixJClient other = client(gateway2, "GW2").logOn()) {
                owner.send(buy("O1", 10, 90));
                owner.await("the ack of O1", report("O1", ExecType.NEW));

                other.send(cancel("X1", "O1", 10));
                final Message cancelReject = other.await("the cancel reject of X1", cancelReject("X1"));
                assertEquals(CxlRejReason.UNKNOWN_ORDER, cancelReject.getInt(CxlRejReason.FIELD));
                assertEquals(CxlRejResponseTo.ORDER_CANCEL_REQUEST, cancelReject.getChar(CxlRejResponseTo.FIELD));
                assertEquals("O1", cancelReject.getString(OrigClOrdID.FIELD));
                other.send(replaceBuy("R1", "O1", 5, 91));
                final Message replaceReject = other.await("the cancel reject of R1", cancelReject("R1"));
                assertEquals(CxlRejReason.UNKNOWN_ORDER, replaceReject.getInt(CxlRejReason.FIELD));
                assertEquals(CxlRejResponseTo.ORDER_CANCEL_REPLACE_REQUEST,
                        replaceReject.getChar(CxlRejResponseTo.FIELD));

                other.send(order("O1", Side.SELL, 4, 90));
                other.await("the ack of the other O1, no duplicate", report("O1", ExecType.NEW));
                final Message sold = other.await("the fill of the other O1", report("O1", ExecType.TRADE));
                assertEquals(4, sold.getDouble(LastQty.FIELD), "another firm's order is no self-match");
                owner.await("the owner's fill of O1", report("O1", ExecType.TRADE));

                owner.send(cancel("X9", "O1", 10));
                final Message canceled = owner.await("the owner's cancel of O1", report("X9", ExecType.CANCELED));
                assertEquals(4, canceled.getDouble(CumQty.FIELD));
                assertEquals(List.of("O1 NEW", "O1 TRADE", "X9 CANCELED"), summary(owner.applicationMessages()),
                        "the owner saw nothing of the other's requests; " + owner.trafficText());
                assertEquals(List.of("X1 REJECT", "R1 REJECT", "O1 NEW", "O1 TRADE"),
                        summary(other.applicationMessages()), other.trafficText());
            }
        }
    }

    private JavaProcess start(final String name, final Class<?> main, final Path config) throws Exception {
        return JavaProcess.start(name, dir.resolve(name + ".log"), List.of("-Xmx256m"), main,
                "--config", config.toString());
    }

    private Path gatewayConfig(final int id, final FixEndpoint endpoint, final String compId, final String firm)
            throws Exception {
        return Files.writeString(dir.resolve("gateway-" + id + ".yaml"), """
                !GatewayConfig {
                  gatewayId: %d,
                  journalRoot: "%s",
                  listen: "tcp://127.0.0.1:%d",
                  sessions: [ !Session { senderCompId: CLIENT1, targetCompId: %s, username: CLIENT1,
                                         password: %s, firm: %s } ]
                }
                """.formatted(id, dir.resolve("journals"), endpoint.port(), compId, PASSWORD, firm));
    }

    private static void awaitAccepting(final JavaProcess gateway, final FixEndpoint endpoint) {
        PollUntil.await(() -> !gateway.isAlive() || endpoint.isAccepting(), READY,
                () -> gateway.name() + " to accept on " + endpoint + "; its log: " + gateway.logText());
        assertTrue(gateway.isAlive(), gateway::logText);
    }

    private QuickFixJClient client(final FixEndpoint gateway, final String gatewayCompId) throws Exception {
        return new QuickFixJClient(gateway, "CLIENT1", gatewayCompId, PASSWORD, dir.resolve("qfj-" + gatewayCompId));
    }

    private static Predicate<Message> cancelReject(final String clOrdId) {
        return message -> QuickFixJClient.isType(message, MsgType.ORDER_CANCEL_REJECT)
                && clOrdId.equals(clOrdId(message));
    }

    /** @return each message as its ClOrdID and ExecType name, or REJECT for a cancel reject */
    private static List<String> summary(final List<Message> messages) {
        return messages.stream().map(message -> clOrdId(message) + " "
                + (QuickFixJClient.isType(message, MsgType.ORDER_CANCEL_REJECT) ? "REJECT"
                : switch (FixMessages.charField(message, ExecType.FIELD)) {
                    case ExecType.NEW -> "NEW";
                    case ExecType.TRADE -> "TRADE";
                    case ExecType.CANCELED -> "CANCELED";
                    default -> "ExecType " + FixMessages.charField(message, ExecType.FIELD);
                })).toList();
    }
}
