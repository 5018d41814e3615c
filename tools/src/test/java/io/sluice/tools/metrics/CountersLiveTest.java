package io.sluice.tools.metrics;

import io.sluice.contracts.AdminOutcome;
import io.sluice.contracts.CancelOrder;
import io.sluice.contracts.CancelReject;
import io.sluice.contracts.EngineToGateway;
import io.sluice.contracts.ExecType;
import io.sluice.contracts.ExecutionReport;
import io.sluice.contracts.GatewayToEngine;
import io.sluice.contracts.MassCancel;
import io.sluice.contracts.MassCancelReport;
import io.sluice.contracts.NewOrder;
import io.sluice.contracts.RejectReason;
import io.sluice.contracts.ReplaceOrder;
import io.sluice.contracts.journal.JournalReader;
import io.sluice.contracts.journal.Journals;
import io.sluice.runtime.process.JavaProcess;
import io.sluice.runtime.process.PollUntil;
import io.sluice.tools.fix.FixClientSession;
import io.sluice.tools.fix.FixTransport;
import io.sluice.tools.fix.LiquiditySeeder;
import io.sluice.tools.fix.OrderLoad;
import io.sluice.tools.fix.OrderTerms;
import io.sluice.tools.fix.SessionIdentity;
import io.sluice.tools.fix.SluiceDeployment;
import io.sluice.tools.fix.SluiceIdle;
import io.sluice.tools.fix.StandardOrders;
import io.sluice.tools.fix.Watchdog;
import io.sluice.tools.stat.StatMain;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.ShortTextLongConverter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The counters of a real engine and gateway (child processes) under a FIX load, read from outside as an operator
 * does: by {@code ./sluice stat --once} and by a real HTTP scrape of {@code ./sluice metrics} (both child processes
 * too), the scrape parsed as Prometheus's text format ({@link PrometheusText}). Each counter is checked against
 * what the load saw and what the journals hold: orders, fills, rejects by reason, resting orders, the engine's
 * position in the gateway journal, the sessions logged on.
 */
class CountersLiveTest {
    private static final String PASSWORD = "secret";
    private static final int FILLED_ORDERS = 300;
    private static final int OFF_TICK_ORDERS = 7;
    private static final int OUT_OF_BAND_ORDERS = 5;
    private static final Duration TIMEOUT = Duration.ofSeconds(120);

    @TempDir
    Path dir;

    @Test
    void statAndAPrometheusScrapeShowWhatTheLoadAndTheJournalsShow() throws Exception {
        final SessionIdentity trader = SessionIdentity.ofSluiceClient("TRADER", PASSWORD);
        final SessionIdentity seeder = SessionIdentity.ofSluiceClient("SEEDER", PASSWORD);
        final SessionIdentity offTick = SessionIdentity.ofSluiceClient("OFFTICK", PASSWORD);
        final SessionIdentity outOfBand = SessionIdentity.ofSluiceClient("OUTBAND", PASSWORD);
        final SluiceDeployment.GatewaySpec gateway = new SluiceDeployment.GatewaySpec(1, FixTransport.TCP,
                List.of(trader, seeder, offTick, outOfBand));
        try (SluiceDeployment sluice = SluiceDeployment.start(dir.resolve("sluice"), List.of(gateway),
                SluiceIdle.BACKOFF, SluiceDeployment.ProcessSettings.defaults());
             LiquiditySeeder liquidity = StandardOrders.seeder(new FixClientSession(sluice.endpoint(1), seeder));
             FixClientSession traderSession = new FixClientSession(sluice.endpoint(1), trader);
             FixClientSession offTickSession = new FixClientSession(sluice.endpoint(1), offTick);
             FixClientSession outOfBandSession = new FixClientSession(sluice.endpoint(1), outOfBand);
             Watchdog ignored = Watchdog.closeAfter(TIMEOUT, traderSession);
             Watchdog ignored2 = Watchdog.closeAfter(TIMEOUT, offTickSession);
             Watchdog ignored3 = Watchdog.closeAfter(TIMEOUT, outOfBandSession)) {
            liquidity.start(TIMEOUT);
            final long deadline = System.nanoTime() + TIMEOUT.toNanos();
            final OrderLoad filled = run(traderSession, StandardOrders.BUY, FILLED_ORDERS, deadline, sluice);
            assertEquals(FILLED_ORDERS, filled.filled(), sluice.logs(3_000));
            final OrderLoad offTickLoad = run(offTickSession, OrderTerms.of("ACC1", SluiceDeployment.SYMBOL,
                    OrderTerms.BUY, 10, "100.005", OrderTerms.DAY), OFF_TICK_ORDERS, deadline, sluice);
            assertEquals(OFF_TICK_ORDERS, offTickLoad.rejected());
            final OrderLoad outOfBandLoad = run(outOfBandSession, OrderTerms.of("ACC1", SluiceDeployment.SYMBOL,
                    OrderTerms.BUY, 10, "5000", OrderTerms.DAY), OUT_OF_BAND_ORDERS, deadline, sluice);
            assertEquals(OUT_OF_BAND_ORDERS, outOfBandLoad.rejected());

            final Path root = sluice.journals();
            final JournalCounts journals = JournalCounts.read(root);
            final long newOrders = FILLED_ORDERS + OFF_TICK_ORDERS + OUT_OF_BAND_ORDERS + StandardOrders.RESTING_ORDERS;
            assertEquals(newOrders, journals.newOrders, "the gateway journal holds every order sent");
            assertEquals(2L * FILLED_ORDERS, journals.fills, "each filled order: a fill to it and one to the seller");
            assertEquals(OFF_TICK_ORDERS, journals.rejects.get(RejectReason.PRICE_OFF_TICK));
            assertEquals(OUT_OF_BAND_ORDERS, journals.rejects.get(RejectReason.PRICE_OUTSIDE_BAND));

            try (JavaProcess metrics = JavaProcess.start("metrics", dir.resolve("metrics.log"), List.of(),
                    MetricsMain.class, "--root", root.toString(), "--port", "0")) {
                final int port = PrometheusText.awaitPort(metrics, TIMEOUT);
                // The gateway samples its gauges every 100 ms: scrape until they caught up with the load.
                final AtomicReference<PrometheusText.Scrape> scraped = new AtomicReference<>();
                PollUntil.await(() -> {
                    scraped.set(PrometheusText.parse(PrometheusText.fetch(port)));
                    return scraped.get().value("sluice_gateway_last_event_id", "process", "gateway-1", "gateway", "1")
                            == newOrders && scraped.get().value("sluice_gateway_engine_excerpts_unread", "process",
                            "gateway-1", "gateway", "1") == 0;
                }, TIMEOUT, () -> "the gateway's last eventId to reach " + newOrders + " and it to have read every"
                        + " engine-journal excerpt");
                final PrometheusText.Scrape scrape = scraped.get();

                assertEquals("counter", scrape.typeOf("sluice_engine_commands_total"));
                assertEquals("gauge", scrape.typeOf("sluice_engine_resting_orders"));
                assertEquals("gauge", scrape.typeOf("sluice_gateway_engine_excerpts_unread"));
                assertEquals(newOrders, scrape.value("sluice_engine_commands_total", "process", "engine",
                        "type", "new_order"));
                assertEquals(0, scrape.value("sluice_engine_commands_total", "process", "engine", "type", "cancel"));
                assertEquals(journals.fills, scrape.value("sluice_engine_fills_total", "process", "engine"));
                assertEquals(journals.reports, scrape.value("sluice_engine_reports_total", "process", "engine"));
                for (final RejectReason reason : List.of(RejectReason.PRICE_OFF_TICK, RejectReason.PRICE_OUTSIDE_BAND,
                        RejectReason.UNKNOWN_SYMBOL)) {
                    assertEquals((double) journals.rejects.getOrDefault(reason, 0L), scrape.value("sluice_engine_rejects_total",
                            "process", "engine", "kind", "order", "reason", reason.name()), reason.name());
                }
                assertEquals(StandardOrders.RESTING_ORDERS, scrape.value("sluice_engine_resting_orders",
                        "process", "engine", "instrument", SluiceDeployment.SYMBOL));
                assertEquals(newOrders, scrape.value("sluice_engine_consumed_event_id", "process", "engine",
                        "gateway", "1"), "the engine consumed every command the gateway wrote: no lag");
                assertEquals(1, scrape.value("sluice_process_running", "process", "engine"));
                assertEquals(1, scrape.value("sluice_process_running", "process", "gateway-1", "gateway", "1"));
                assertEquals(4, scrape.value("sluice_gateway_sessions_logged_on", "process", "gateway-1", "gateway", "1"));
                final String traderLabel = "TRADER-" + SluiceDeployment.GATEWAY_COMP_ID;
                assertEquals(1, scrape.value("sluice_fix_logons_total", "process", "gateway-1", "gateway", "1",
                        "session", traderLabel));
                final double traderIn = scrape.value("sluice_fix_messages_in_total", "process", "gateway-1",
                        "gateway", "1", "session", traderLabel);
                assertTrue(traderIn >= FILLED_ORDERS + 1, "the Logon and every order, and heartbeats if any: " + traderIn);
                final double traderOut = scrape.value("sluice_fix_messages_out_total", "process", "gateway-1",
                        "gateway", "1", "session", traderLabel);
                assertTrue(traderOut >= journals.reportsTo("TRADER") + 1,
                        "the Logon answer and every report: " + traderOut + " < " + journals.reportsTo("TRADER"));

                // Every metric the shipped Grafana dashboard queries is served.
                final Matcher queried = Pattern.compile("sluice_[a-z_]+").matcher(
                        Files.readString(Path.of("..", "grafana", "sluice-dashboard.json")));
                int metricsQueried = 0;
                while (queried.find()) {
                    metricsQueried++;
                    assertTrue(scrape.typeOf(queried.group()) != null,
                            "the dashboard queries " + queried.group() + ", not served");
                }
                assertTrue(metricsQueried >= 10, "metrics the dashboard queries: " + metricsQueried);

                // ./sluice stat --once prints the same values, from the same files.
                final Path statLog = dir.resolve("stat.log");
                try (JavaProcess stat = JavaProcess.start("stat", statLog, List.of(), StatMain.class,
                        "--root", root.toString(), "--once")) {
                    assertEquals(0, stat.waitFor(TIMEOUT.toSeconds()), stat.logText());
                    final String table = stat.logText();
                    assertTrue(table.contains("engine (pid " + sluice.engine().pid() + ", running)"), table);
                    assertTrue(table.contains("gateway-1 (pid " + sluice.gateway(1).pid() + ", running)"), table);
                    assertEquals(journals.fills, tableValue(table, "sluice_engine_fills_total"), table);
                    assertEquals(OFF_TICK_ORDERS, tableValue(table,
                            "sluice_engine_rejects_total kind=order reason=PRICE_OFF_TICK"), table);
                    assertEquals(newOrders, tableValue(table, "sluice_engine_commands_total type=new_order"), table);
                    assertEquals(0, tableValue(table, "sluice_gateway_engine_excerpts_unread"), table);
                }
            }
        }
    }

    private static OrderLoad run(final FixClientSession session, final OrderTerms terms, final int orders,
                                 final long deadline, final SluiceDeployment sluice) throws Exception {
        session.logon(TIMEOUT);
        final OrderLoad load = new OrderLoad(session, terms, 1, 1, OrderLoad.newRecorder());
        assertTrue(load.run(orders, deadline), sluice.logs(3_000));
        return load;
    }

    /** @return the value on the table line of exactly {@code label} */
    private static long tableValue(final String table, final String label) {
        final Matcher line = Pattern.compile("^  " + Pattern.quote(label) + " +([0-9,]+)$", Pattern.MULTILINE)
                .matcher(table);
        assertTrue(line.find(), "no line " + label);
        return Long.parseLong(line.group(1).replace(",", ""));
    }

    /** What the journals hold, counted by reading them whole. */
    private static final class JournalCounts implements GatewayToEngine, EngineToGateway {
        long newOrders;
        long fills;
        long reports;
        final Map<RejectReason, Long> rejects = new EnumMap<>(RejectReason.class);
        final Map<Long, Long> reportsBySession = new HashMap<>();

        static JournalCounts read(final Path root) {
            final JournalCounts counts = new JournalCounts();
            for (final Path journal : List.of(Journals.gatewayJournal(root, 1), Journals.engineJournal(root))) {
                try (ChronicleQueue queue = Journals.openReadOnly(journal);
                     ExcerptTailer tailer = queue.createTailer();
                     JournalReader reader = new JournalReader(queue, tailer, counts)) {
                    while (reader.readOne()) {
                        // counted by the handlers
                    }
                }
            }
            return counts;
        }

        long reportsTo(final String compId) {
            return reportsBySession.getOrDefault(ShortTextLongConverter.INSTANCE.parse(compId), 0L);
        }

        @Override
        public void newOrder(final NewOrder order) {
            newOrders++;
        }

        @Override
        public void cancelOrder(final CancelOrder cancel) {
        }

        @Override
        public void replaceOrder(final ReplaceOrder replace) {
        }

        @Override
        public void massCancel(final MassCancel massCancel) {
        }

        @Override
        public void executionReport(final ExecutionReport report) {
            reports++;
            reportsBySession.merge(report.session(), 1L, Long::sum);
            if (report.execType() == ExecType.TRADE) {
                fills++;
            } else if (report.execType() == ExecType.REJECTED) {
                rejects.merge(report.rejectReason(), 1L, Long::sum);
            }
        }

        @Override
        public void cancelReject(final CancelReject reject) {
            reports++;
        }

        @Override
        public void massCancelReport(final MassCancelReport report) {
            reports++;
        }

        @Override
        public void adminOutcome(final AdminOutcome outcome) {
        }
    }
}
