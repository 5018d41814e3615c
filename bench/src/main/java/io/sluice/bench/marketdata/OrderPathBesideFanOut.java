package io.sluice.bench.marketdata;

import io.sluice.bench.fix.FixMeasurement;
import io.sluice.bench.fix.FixTarget;
import io.sluice.bench.fix.MeasuredRun;
import io.sluice.bench.report.BenchResult;
import io.sluice.runtime.process.PollUntil;
import io.sluice.tools.fix.FixClientSession;
import io.sluice.tools.fix.FixEndpoint;
import io.sluice.tools.fix.LiquiditySeeder;
import io.sluice.tools.fix.SessionIdentity;
import io.sluice.tools.fix.SluiceDeployment;
import io.sluice.tools.fix.SluiceIdle;
import io.sluice.tools.fix.StandardOrders;

import java.io.IOException;
import java.net.SocketAddress;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.ToLongFunction;

/**
 * The order path of a trading session while a gateway fans FIX market data out to N subscribers, against none, in
 * the same run. One deployment of child JVMs (engine, {@code ./sluice marketdata}, TCP gateways: the subscribers on the
 * trading sessions' gateway or on one of their own, {@link SubscriberGateway}) with seeded liquidity; every measured
 * buy fills, so each order is a trade and a level change fanned out to every subscriber. Two load sessions take
 * turns in slices ({@link FixMeasurement}, alternating): before the one arm's turn the N subscribers subscribe (each
 * has its snapshot before the slice starts), before the other's they unsubscribe (confirmed by a TestRequest answered
 * after it). The subscribers are read by one thread blocked in a selector.
 */
final class OrderPathBesideFanOut {
    static final String WITHOUT = "order path, no subscribers";
    private static final String PASSWORD = "bench";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(180);
    private static final Duration CONFIRM_TIMEOUT = Duration.ofSeconds(60);
    private static final long HEARTBEAT_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final List<FanOutSubscriber> subscribers = new ArrayList<>();
    private volatile boolean reading = true;
    private volatile IOException readFailure;
    private boolean subscribed;

    private OrderPathBesideFanOut() {
    }

    /**
     * Measures the two arms, the subscribers on {@code shape}'s gateway, its {@code marketData} section ending with
     * {@code settings} (its YAML); @return their round trips, throughput and the subscribers' deliveries
     */
    static BenchResult measure(final SubscriberGateway shape, final int count, final int window, final long warmup,
                               final long orders, final int rounds, final String settings) throws Exception {
        return new OrderPathBesideFanOut().run(shape, count, window, warmup, orders, rounds, settings);
    }

    private BenchResult run(final SubscriberGateway shape, final int count, final int window, final long warmup,
                            final long orders, final int rounds, final String settings) throws Exception {
        final Path root = Files.createTempDirectory("sluice-fan-out-order-path");
        final SessionIdentity alone = SessionIdentity.ofSluiceClient("LOAD1", PASSWORD);
        final SessionIdentity beside = SessionIdentity.ofSluiceClient("LOAD2", PASSWORD);
        final SessionIdentity seed = SessionIdentity.ofSluiceClient("SEEDER", PASSWORD);
        final List<SessionIdentity> subscriberSessions = new ArrayList<>();
        final Map<String, String> entitlements = new HashMap<>();
        for (int i = 0; i < count; i++) {
            subscriberSessions.add(SessionIdentity.ofSluiceClient("SUB" + i, PASSWORD));
            entitlements.put("SUB" + i, "marketData: { symbols: [ " + SluiceDeployment.SYMBOL + " ],"
                    + " maxSubscriptions: 1 }");
        }
        final String withLabel = "order path, " + count + " subscribers";
        final List<SluiceDeployment.GatewaySpec> gateways = shape.gateways(List.of(alone, beside, seed),
                subscriberSessions, entitlements, "marketData: { instruments: [ " + SluiceDeployment.SYMBOL
                        + " ], slowSubscriberTimeout: 60s, " + settings + " }");
        try (SluiceDeployment sluice = SluiceDeployment.prepare(root, gateways, SluiceIdle.BACKOFF,
                SluiceDeployment.ProcessSettings.defaults(), SluiceDeployment.JournalDisk.DEFAULTS)) {
            if (!sluice.launchEngine().isAlive()) {
                throw new IllegalStateException("the engine stopped: " + sluice.logs(3_000));
            }
            try {
                sluice.launchMarketData();
                for (final SluiceDeployment.GatewaySpec gateway : gateways) {
                    sluice.startGateway(gateway.id());
                }
                return measure(sluice, shape, count, withLabel, alone, beside, seed, window, warmup, orders, rounds);
            } catch (final Exception | Error e) {
                System.out.println("the order path beside the fan-out failed; logs:\n" + sluice.logs(4_000));
                throw e;
            }
        } finally {
            SluiceDeployment.deleteTree(root);
        }
    }

    private BenchResult measure(final SluiceDeployment sluice, final SubscriberGateway shape, final int count,
                                final String withLabel, final SessionIdentity alone, final SessionIdentity beside,
                                final SessionIdentity seed, final int window, final long warmup, final long orders,
                                final int rounds)
            throws Exception {
        final Selector selector = Selector.open();
        Thread reader = null;
        final FixEndpoint orderGateway = sluice.endpoint(shape.orderGateway());
        final SocketAddress marketDataGateway = sluice.endpoint(shape.marketDataGateway()).address();
        try (LiquiditySeeder seeder = StandardOrders.seeder(new FixClientSession(orderGateway, seed))) {
            seeder.start(START_TIMEOUT);
            for (int i = 0; i < count; i++) {
                final FanOutSubscriber subscriber = FanOutSubscriber.logOn(marketDataGateway,
                        "SUB" + i, true, PASSWORD, SluiceDeployment.SYMBOL);
                subscriber.channel().register(selector, SelectionKey.OP_READ, subscriber);
                subscribers.add(subscriber);
            }
            reader = Thread.ofPlatform().name("fan-out-subscribers").start(() -> read(selector));
            final FixMeasurement measurement = new FixMeasurement(StandardOrders.BUY,
                    Duration.ofSeconds(300), System.out, target -> subscribed(target.label().equals(withLabel)))
                    .alternating();
            final List<MeasuredRun> runs = measurement.measure(List.of(
                    new FixTarget(WITHOUT, orderGateway, alone),
                    new FixTarget(withLabel, orderGateway, beside)), window, warmup, orders, rounds);
            final long incrementals = total(FanOutSubscriber::incrementals);
            final long snapshots = total(FanOutSubscriber::snapshots);
            if (readFailure != null) {
                throw readFailure;
            }
            return report(runs, shape, count, window, warmup, orders, rounds, incrementals, snapshots);
        } finally {
            reading = false;
            selector.wakeup();
            if (reader != null) {
                reader.join(TimeUnit.SECONDS.toMillis(10));
            }
            for (final FanOutSubscriber subscriber : subscribers) {
                subscriber.channel().close();
            }
            selector.close();
        }
    }

    private static BenchResult report(final List<MeasuredRun> runs, final SubscriberGateway shape, final int count,
                                      final int window, final long warmup, final long orders, final int rounds,
                                      final long incrementals, final long snapshots) {
        final MeasuredRun without = runs.get(0);
        final MeasuredRun with = runs.get(1);
        final BenchResult section = BenchResult.section().put("subscribersOn", shape.toString())
                .put("subscribers", count).put("window", window)
                .put("warmupPerArm", warmup).put("ordersPerArm", orders).put("rounds", rounds)
                .put("incrementalsReceived", incrementals).put("snapshotsReceived", snapshots);
        for (final MeasuredRun run : runs) {
            section.put(run == without ? "withoutSubscribers" : "withSubscribers", BenchResult.section()
                    .put("ordersPerSecond", Math.round(run.ordersPerSecond())).put("filled", run.filled())
                    .put("meanMicros", run.meanNanos() / 1e3)
                    .putLatencyNanos("roundTrip", run.roundTrips()));
        }
        final double p50 = ratio(with, without, 50);
        final double p99 = ratio(with, without, 99);
        final double mean = with.meanNanos() / without.meanNanos();
        section.put("ratioP50", p50).put("ratioP99", p99).put("ratioMean", mean);
        for (final MeasuredRun run : runs) {
            System.out.printf("%s: round trip p50 %.1f µs, p99 %.1f µs, mean %.1f µs, %,.0f orders/s%n",
                    run.target().label(), run.roundTrips().getValueAtPercentile(50) / 1e3,
                    run.roundTrips().getValueAtPercentile(99) / 1e3, run.meanNanos() / 1e3, run.ordersPerSecond());
        }
        System.out.printf("order round trip with %d subscribers (on %s) / none: p50 %.2fx, p99 %.2fx, mean %.2fx;"
                + " %,d incrementals and %,d snapshots read by the subscribers%n", count, shape, p50, p99, mean,
                incrementals, snapshots);
        return section;
    }

    private static double ratio(final MeasuredRun with, final MeasuredRun without, final double percentile) {
        return (double) with.roundTrips().getValueAtPercentile(percentile)
                / without.roundTrips().getValueAtPercentile(percentile);
    }

    /**
     * Before an arm's turn: every subscriber subscribed and holding its snapshot, or none subscribed (as they are
     * already when the same arm has two turns in a row).
     */
    private void subscribed(final boolean on) {
        if (on == subscribed) {
            return;
        }
        subscribed = on;
        try {
            final long before = on ? total(FanOutSubscriber::snapshots) : total(FanOutSubscriber::heartbeats);
            for (final FanOutSubscriber subscriber : subscribers) {
                if (on) {
                    subscriber.subscribe();
                } else {
                    subscriber.unsubscribe();
                    subscriber.testRequest();
                }
            }
            final ToLongFunction<FanOutSubscriber> confirmation = on ? FanOutSubscriber::snapshots
                    : FanOutSubscriber::heartbeats;
            PollUntil.await(() -> readFailure != null || total(confirmation) >= before + subscribers.size(),
                    CONFIRM_TIMEOUT, () -> (on ? "snapshots" : "heartbeats after unsubscribing") + ": "
                            + (total(confirmation) - before) + " of " + subscribers.size() + "; " + subscribers);
        } catch (final IOException e) {
            throw new IllegalStateException("a subscriber's request failed", e);
        }
    }

    private long total(final ToLongFunction<FanOutSubscriber> count) {
        long total = 0;
        for (final FanOutSubscriber subscriber : subscribers) {
            total += count.applyAsLong(subscriber);
        }
        return total;
    }

    /** The subscribers' reader: blocked in the selector until one has bytes; sends each a Heartbeat every 10 s. */
    private void read(final Selector selector) {
        long nextHeartbeat = System.nanoTime() + HEARTBEAT_NANOS;
        try {
            while (reading) {
                selector.select(1_000);
                final Set<SelectionKey> ready = selector.selectedKeys();
                for (final SelectionKey key : ready) {
                    ((FanOutSubscriber) key.attachment()).poll(null, 0, 0, null);
                }
                ready.clear();
                if (System.nanoTime() - nextHeartbeat >= 0) {
                    nextHeartbeat = System.nanoTime() + HEARTBEAT_NANOS;
                    for (final SelectionKey key : selector.keys()) {
                        ((FanOutSubscriber) key.attachment()).heartbeat();
                    }
                }
            }
        } catch (final IOException e) {
            if (reading) {
                readFailure = e;
            }
        }
    }
}
