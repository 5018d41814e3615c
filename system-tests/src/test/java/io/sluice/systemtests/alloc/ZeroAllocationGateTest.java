package io.sluice.systemtests.alloc;

import io.sluice.bench.burst.JournalFootprint;
import io.sluice.gateway.transport.TlsLayer;
import io.sluice.runtime.counters.CountersDirectory;
import io.sluice.runtime.process.CpuPinning;
import io.sluice.runtime.process.JavaProcess;
import io.sluice.runtime.process.PollUntil;
import io.sluice.tools.fix.FixClientSession;
import io.sluice.tools.fix.FixTransport;
import io.sluice.tools.fix.LiquiditySeeder;
import io.sluice.tools.fix.OrderLoad;
import io.sluice.tools.fix.SessionIdentity;
import io.sluice.tools.fix.SluiceDeployment;
import io.sluice.tools.fix.SluiceIdle;
import io.sluice.tools.fix.StandardOrders;
import io.sluice.tools.fix.Watchdog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.management.MemoryUsage;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The zero-allocation gate (DESIGN.md, hot path rules): a real engine and a real gateway, each a child JVM
 * under the Epsilon collector (which never frees) with a small fixed heap, take a million FIX orders from a
 * pipelined load client, and neither hot thread (the engine's loop; the gateway's one thread doing FIX I/O,
 * tailing the engine journal and fanning market data out) may allocate per order. {@code ./sluice marketdata} derives
 * the feed of every fill, and a FIX subscriber holds the book: each order's trade and level change go out to it as
 * an incremental (X) from the gateway's thread, so the gate holds the market-data path too. The load client's firm
 * has a drop-copy session logged on, and the gateway's thread copies each of its reports there as well, so the gate
 * holds drop copy too. Each hot thread's
 * allocated bytes are read in its
 * own JVM ({@link ChildJvm}, the JVM's per-thread counter) after a warm-up and after the measured orders.
 * <p>
 * The measured orders run in two equal stretches, each hot thread's allocation read after each. Tolerance:
 * under {@value #MAX_BYTES_PER_STRETCH} bytes per thread in at least one of the two stretches of
 * {@value #ORDERS_PER_STRETCH} orders, i.e. under 0.066 bytes per order. The smallest Java object is 16 bytes,
 * so one object per order would be 8 MB a stretch, and even one object per 250 orders 32 KB: an allocation
 * that grows with orders shows in both stretches and fails; a one-off shows in one stretch only.
 * <p>
 * What the allowance covers is Chronicle mapping the next 64 MiB chunk of a growing journal file, about
 * 750 bytes a chunk (appending 240 MiB allocates 2.7-3.2 KB on the appending thread): over a million orders the gateway writes about
 * 1.5 KB of journal per order (commands, and every FIX message it sends, kept for resends), so its thread
 * maps some twenty chunks, 15 KB; the engine's about half that. That is per megabyte written, not per order,
 * and a tenth of a byte per order even in a run of billions.
 * <p>
 * The gate earned its place at once: run after the module's other tests, it found the gateway thread
 * allocating 0.28 bytes per order, steadily. JFR's TLAB events (Epsilon with 4 KiB TLABs) named the JDK's
 * epoll selector boxing each ready socket descriptor, which allocates once descriptors pass 127; the
 * transport now polls its connections directly ({@code NioTransport}), and {@code GatewayAllocationTest}
 * holds the case with high descriptors.
 * <p>
 * Over TLS ({@link #overTlsNoHotThreadAllocatesPerOrderOutsideTheJdksTls}) the JDK's own TLS allocates per record, so
 * the gateway thread is held to the same bound for what it allocates outside the JDK's SSLEngine calls, counted by the
 * gateway itself.
 * <p>
 * Heap: 512 MB each. With 256 MB the engine ran out of heap while starting (under Epsilon nothing allocated
 * at start-up, such as Chronicle compiling method readers and writers, is ever freed); after the warm-up the
 * engine's heap holds about 380 MB and the gateway's 260 MB, and the test prints both before and after.
 */
class ZeroAllocationGateTest {
    private static final long WARM_UP_ORDERS = 100_000;
    private static final long ORDERS_PER_STRETCH = 500_000;
    private static final long ORDERS = 2 * ORDERS_PER_STRETCH;
    private static final int WINDOW = 64;
    private static final long MAX_BYTES_PER_STRETCH = 32_768;
    private static final String HEAP = "512m";
    private static final List<String> EPSILON = List.of("-XX:+UnlockExperimentalVMOptions", "-XX:+UseEpsilonGC",
            "-Xms" + HEAP, "-Xmx" + HEAP);
    private static final Duration RUN_TIMEOUT = Duration.ofSeconds(300);
    private static final String PASSWORD = "gate";

    @TempDir
    Path dir;
    private volatile IOException subscriberFailure;
    private volatile IOException dropCopyFailure;
    private final AtomicLong dropCopies = new AtomicLong();

    @Test
    void noHotThreadAllocatesPerOrderOverAMillionOrdersUnderEpsilon() throws Exception {
        gate(FixTransport.TCP, EPSILON);
    }

    /**
     * The same over TLS 1.3. The JDK's TLS allocates on every record it wraps or unwraps (about 1.9 KB a record on JDK
     * 25, inside its ciphers), so the gateway runs under G1, not Epsilon, and counts what its thread allocates inside the
     * engine's wrap and unwrap calls ({@code TlsLayer}, read over JMX): the gateway thread's bytes outside them must
     * stay under the same bound as on plain TCP.
     */
    @Test
    void overTlsNoHotThreadAllocatesPerOrderOutsideTheJdksTls() throws Exception {
        gate(FixTransport.TLS, List.of("-Xms" + HEAP, "-Xmx" + HEAP, "-D" + TlsLayer.COUNT_JDK_ALLOCATION + "=true"));
    }

    private void gate(final FixTransport transport, final List<String> gatewayJvm) throws Exception {
        final SessionIdentity buyer = SessionIdentity.ofSluiceClient("LOAD1", PASSWORD);
        final SessionIdentity seller = SessionIdentity.ofSluiceClient("SEEDER", PASSWORD);
        final SessionIdentity watcher = SessionIdentity.ofSluiceClient("MD1", PASSWORD);
        final SessionIdentity backOffice = SessionIdentity.ofSluiceClient("BACK1", PASSWORD);
        try (SluiceDeployment sluice = SluiceDeployment.prepare(dir.resolve("sluice-" + transport),
                List.of(new SluiceDeployment.GatewaySpec(1, transport, List.of(buyer, seller, watcher, backOffice),
                        Map.of("MD1", "marketData: { symbols: [ " + SluiceDeployment.SYMBOL + " ], maxSubscriptions: 1 }",
                                "LOAD1", "firm: LOADF", "BACK1", "dropCopy: LOADF"),
                        "marketData: { instruments: [ " + SluiceDeployment.SYMBOL + " ] }")),
                SluiceIdle.BACKOFF, new SluiceDeployment.ProcessSettings(System.getProperty("java.class.path"),
                        EPSILON, gatewayJvm, CpuPinning.NONE), SluiceDeployment.JournalDisk.DEFAULTS);
             LiquiditySeeder liquidity = StandardOrders.seeder(new FixClientSession(sluice.endpoint(1), seller));
             FixClientSession session = new FixClientSession(sluice.endpoint(1), buyer);
             FixClientSession subscriber = new FixClientSession(sluice.endpoint(1), watcher);
             FixClientSession dropCopy = new FixClientSession(sluice.endpoint(1), backOffice);
             Watchdog ignored = Watchdog.closeAfter(RUN_TIMEOUT, session)) {
            requireAlive(sluice.launchEngine(), sluice);
            sluice.launchMarketData();
            sluice.startGateway(1);
            liquidity.start(Duration.ofSeconds(60));
            session.logon(Duration.ofSeconds(60));
            subscriber.logon(Duration.ofSeconds(60));
            subscriber.sendMarketDataSubscription("MD1", SluiceDeployment.SYMBOL);
            dropCopy.logon(Duration.ofSeconds(60));
            Thread.ofPlatform().daemon().name("drop-copy").start(() -> {
                try {
                    boolean open = true;
                    while (open) {
                        open = dropCopy.poll((report, receivedNanos) -> dropCopies.incrementAndGet());
                    }
                } catch (final IOException e) {
                    dropCopyFailure = e;
                }
            });
            Thread.ofPlatform().daemon().name("market-data-subscriber").start(() -> {
                try {
                    boolean open = true;
                    while (open) {
                        open = subscriber.poll((report, receivedNanos) -> { }); // blocks until bytes come
                    }
                } catch (final IOException e) {
                    subscriberFailure = e;
                }
            });
            final OrderLoad load = new OrderLoad(session, StandardOrders.BUY, WINDOW, 1, OrderLoad.newRecorder());
            final long deadline = System.nanoTime() + RUN_TIMEOUT.toNanos();
            send(load, WARM_UP_ORDERS, deadline, sluice);

            try (ChildJvm engine = ChildJvm.attach(sluice.engine().pid());
                 ChildJvm gateway = ChildJvm.attach(sluice.gateway(1).pid())) {
                final String heapsAfterWarmUp = "engine heap " + heap(engine.heap()) + "; gateway heap " + heap(gateway.heap());
                final long journalBytesBefore = JournalFootprint.fileBytes(sluice.root());
                final long feedBefore = gatewayCounter(sluice, "sluice_gateway_market_data_sequence");
                final long copiesBefore = dropCopies.get();
                final long start = System.nanoTime();
                final boolean tls = transport == FixTransport.TLS;
                final List<HotThread.Measurement> first = stretch(load, deadline, sluice, engine, gateway, tls);
                final List<HotThread.Measurement> second = stretch(load, deadline, sluice, engine, gateway, tls);
                final double seconds = (System.nanoTime() - start) / 1e9;
                System.out.printf(Locale.ROOT, "zero-allocation gate over %s: %,d orders in two stretches (after %,d"
                        + " warm-up, window %d) in %.1f s = %,.0f orders/s, engine under Epsilon -Xmx%s, gateway %s%n",
                        transport, ORDERS, WARM_UP_ORDERS, WINDOW, seconds, ORDERS / seconds, HEAP, gatewayJvm);
                for (int i = 0; i < first.size(); i++) {
                    System.out.println("  first:  " + first.get(i).describe(ORDERS_PER_STRETCH));
                    System.out.println("  second: " + second.get(i).describe(ORDERS_PER_STRETCH));
                }
                System.out.printf(Locale.ROOT, "  journals grew by %,d MB; after warm-up: %s; at the end: engine heap %s;"
                        + " gateway heap %s%n", (JournalFootprint.fileBytes(sluice.root()) - journalBytesBefore) >> 20,
                        heapsAfterWarmUp, heap(engine.heap()), heap(gateway.heap()));

                // The feed trails the fills (engine journal, marketdata process, its journal, the gateway's reader):
                // wait for the gateway to have applied a trade per measured order before counting.
                PollUntil.await(() -> gatewayCounter(sluice, "sluice_gateway_market_data_sequence") - feedBefore
                        >= ORDERS, RUN_TIMEOUT, () -> "the gateway to apply the measured orders' trades from the feed: "
                        + (gatewayCounter(sluice, "sluice_gateway_market_data_sequence") - feedBefore) + " applied");
                final long feedMessages = gatewayCounter(sluice, "sluice_gateway_market_data_sequence") - feedBefore;
                System.out.printf(Locale.ROOT, "  market data: the gateway applied %,d feed messages during the measured"
                        + " orders and sent their incrementals to one subscriber (%,d conflated, %,d cut off)%n",
                        feedMessages, gatewayCounter(sluice, "sluice_gateway_market_data_conflated_total"),
                        gatewayCounter(sluice, "sluice_gateway_market_data_cut_off_total"));
                final long copies = dropCopies.get() - copiesBefore;
                System.out.printf(Locale.ROOT, "  drop copy: the gateway copied %,d of LOAD1's reports to BACK1 during"
                        + " the measured orders%n", copies);
                assertEquals(WARM_UP_ORDERS + ORDERS, load.filled(), "every order filled");
                assertTrue(copies >= ORDERS, "a copy of each order's report at least, to the drop copy: " + copies);
                assertNull(dropCopyFailure, () -> "the drop copy's connection: " + dropCopyFailure);
                assertTrue(feedMessages >= ORDERS, "a trade in the feed per order, fanned out: " + feedMessages);
                assertEquals(0, gatewayCounter(sluice, "sluice_gateway_market_data_cut_off_total"),
                        "the subscriber kept up");
                assertNull(subscriberFailure, () -> "the subscriber's connection: " + subscriberFailure);
                requireAlive(sluice.engine(), sluice);
                requireAlive(sluice.gateway(1), sluice);
                for (int i = 0; i < first.size(); i++) {
                    final HotThread.Measurement a = first.get(i);
                    final HotThread.Measurement b = second.get(i);
                    assertTrue(a.alive() && b.alive(), b.thread() + " ended during the run");
                    assertTrue(Math.min(a.allocatedBytes(), b.allocatedBytes()) < MAX_BYTES_PER_STRETCH,
                            String.format(Locale.ROOT, "%s; then %s: a hot thread must not allocate per order; the gate"
                                            + " allows under %,d bytes in at least one stretch (0.066 bytes/order; one"
                                            + " 16-byte object per order would be %,d bytes a stretch)",
                                    a.describe(ORDERS_PER_STRETCH), b.describe(ORDERS_PER_STRETCH),
                                    MAX_BYTES_PER_STRETCH, 16 * ORDERS_PER_STRETCH));
                }
            }
        }
    }

    /**
     * Sends one stretch of orders and @return what each hot thread allocated meanwhile (engine, then gateway); over
     * TLS the gateway's without what it allocated inside the JDK's TLS (printed).
     */
    private static List<HotThread.Measurement> stretch(final OrderLoad load, final long deadline,
                                                       final SluiceDeployment sluice, final ChildJvm engine,
                                                       final ChildJvm gateway, final boolean tls) throws Exception {
        final List<HotThread> hotThreads = List.of(
                HotThread.agent("engine", engine, "engine"),
                HotThread.agent("gateway", gateway, "gateway 1"));
        final long jdkBefore = tls ? jdkTlsBytes(gateway) : 0;
        send(load, ORDERS_PER_STRETCH, deadline, sluice);
        final List<HotThread.Measurement> measured = new ArrayList<>();
        for (final HotThread thread : hotThreads) {
            measured.add(thread.measure());
        }
        if (tls) {
            final long insideJdk = jdkTlsBytes(gateway) - jdkBefore;
            final HotThread.Measurement all = measured.get(1);
            System.out.printf(Locale.ROOT, "  over TLS the gateway thread allocated %,d bytes, %,d of them inside the"
                    + " JDK's SSLEngine (%,.0f bytes/order)%n", all.allocatedBytes(), insideJdk,
                    insideJdk / (double) ORDERS_PER_STRETCH);
            measured.set(1, new HotThread.Measurement(all.thread() + " outside the JDK's TLS",
                    all.allocatedBytes() - insideJdk, all.cpuNanos(), all.alive()));
        }
        return measured;
    }

    private static long jdkTlsBytes(final ChildJvm gateway) throws IOException {
        return gateway.longAttribute(TlsLayer.MBEAN_NAME, "JdkAllocatedBytes");
    }

    /** Sends {@code orders} more orders and waits for all to finish, or fails naming what went wrong. */
    private static void send(final OrderLoad load, final long orders, final long deadline, final SluiceDeployment sluice)
            throws Exception {
        final long before = load.completed();
        final boolean connected = load.run(orders, deadline);
        final long done = load.completed() - before;
        if (!connected || done != orders || load.rejected() > 0) {
            fail(String.format(Locale.ROOT, "%,d of %,d orders finished (%s, %,d rejected%s); an engine or gateway"
                    + " that allocates per order dies of an exhausted Epsilon heap. Logs:%n%s",
                    done, orders, connected ? "connected" : "connection lost or timed out", load.rejected(),
                    load.firstRejectText() == null ? "" : ": " + load.firstRejectText(), sluice.logs(3_000)));
        }
    }

    private static long gatewayCounter(final SluiceDeployment sluice, final String metric) {
        return new CountersDirectory(sluice.journals()).read().stream()
                .filter(process -> process.process().equals("gateway-1"))
                .flatMap(process -> process.counters().stream())
                .filter(counter -> counter.label().metric().equals(metric))
                .mapToLong(CountersDirectory.Counter::value).sum();
    }

    private static void requireAlive(final JavaProcess process, final SluiceDeployment sluice) {
        assertTrue(process.isAlive() && !process.logText().contains("OutOfMemoryError"),
                process.name() + " died or ran out of its Epsilon heap; logs:\n" + sluice.logs(3_000));
    }

    private static String heap(final MemoryUsage heap) {
        return String.format(Locale.ROOT, "%,d MB used of %,d MB", heap.getUsed() >> 20, heap.getMax() >> 20);
    }
}
