package io.sluice.tools.fix;

import io.sluice.gateway.codec.FixMessage;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Keeps resting sell liquidity in the book so that every buy of a load fills at once. A session of its own (the engine
 * prevents self-matching, so it must not be the buyers' session) places {@code restingOrders} large day sell orders,
 * then, on its own thread, reads the fills they receive and places a fresh sell each time one is used up. Closing it
 * closes the connection; its resting orders stay in the book.
 */
public final class LiquiditySeeder implements FixClientSession.ReportListener, AutoCloseable {
    private final FixClientSession session;
    private final OrderTerms sell;
    private final int restingOrders;
    private final CountDownLatch resting;
    private final Thread reader;
    private long nextClOrdId;
    private volatile long fillReports;
    private volatile String failure;
    private volatile boolean closing;

    /**
     * @param session       a session that is not yet logged on
     * @param sell          the terms of each resting sell order
     * @param firstClOrdId  the first ClOrdID, unique within this session
     */
    public LiquiditySeeder(final FixClientSession session, final OrderTerms sell, final int restingOrders,
                           final long firstClOrdId) {
        this.session = session;
        this.sell = sell;
        this.restingOrders = restingOrders;
        this.resting = new CountDownLatch(restingOrders);
        this.nextClOrdId = firstClOrdId;
        this.reader = Thread.ofPlatform().daemon().name("liquidity-" + session.identity().senderCompId())
                .unstarted(this::readReports);
    }

    /**
     * Logs on, places the resting orders and waits until the engine has acknowledged every one.
     *
     * @throws IOException if logon fails, an order is rejected or not acknowledged within {@code timeout}
     */
    public void start(final Duration timeout) throws IOException, InterruptedException {
        session.logon(timeout);
        for (int i = 0; i < restingOrders; i++) {
            session.sendNewOrder(nextClOrdId++, sell);
        }
        reader.start();
        if (!resting.await(timeout.toMillis(), TimeUnit.MILLISECONDS) || failure != null) {
            throw new IOException("liquidity seeding failed: " + (failure != null ? failure
                    : resting.getCount() + " of " + restingOrders + " resting sell orders not acknowledged within "
                    + timeout.toMillis() + " ms"));
        }
    }

    private void readReports() {
        try {
            while (session.poll(this)) {
                // every report is handled in onExecutionReport
            }
        } catch (final IOException e) {
            if (!closing) {
                failure = e.getMessage();
                while (resting.getCount() > 0) {
                    resting.countDown();
                }
            }
        }
    }

    @Override
    public void onExecutionReport(final FixMessage report, final long receivedNanos) {
        switch ((int) ExecutionReportFields.ordStatus(report)) {
            case '0' -> resting.countDown();
            case '1' -> fillReports++;
            case '2' -> {
                fillReports++;
                replenish();
            }
            case '8' -> {
                failure = "the engine rejected a resting sell order: " + ExecutionReportFields.text(report);
                resting.countDown();
            }
            default -> {
            }
        }
    }

    private void replenish() {
        try {
            session.sendNewOrder(nextClOrdId++, sell);
        } catch (final IOException e) {
            failure = "cannot place a fresh resting sell order: " + e.getMessage();
        }
    }

    /** @return fills the resting orders have received (one per buy that traded against them). */
    public long fillReports() {
        return fillReports;
    }

    /** @return why seeding failed after it started, or null. */
    public String failure() {
        return failure;
    }

    @Override
    public void close() throws IOException, InterruptedException {
        closing = true;
        session.close();
        reader.join(Duration.ofSeconds(5));
    }
}
