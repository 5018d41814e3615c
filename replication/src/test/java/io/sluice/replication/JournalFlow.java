package io.sluice.replication;

import io.sluice.contracts.AdminAction;
import io.sluice.contracts.AdminCommand;
import io.sluice.contracts.AdminOutcome;
import io.sluice.contracts.EngineToGateway;
import io.sluice.contracts.GatewayRecords;
import io.sluice.contracts.MetaData;
import io.sluice.contracts.SentMessage;
import io.sluice.contracts.journal.Journals;
import io.sluice.contracts.time.SluiceClock;
import io.sluice.marketdata.feed.AddOrder;
import io.sluice.marketdata.feed.FeedMessage;
import io.sluice.marketdata.feed.TradingStatus;
import io.sluice.marketdata.journal.BatchLayout;
import io.sluice.marketdata.journal.BatchWriter;
import io.sluice.runtime.admin.AdminJournal;
import io.sluice.runtime.process.ProcessLock;
import io.sluice.testkit.JournalSetWriter;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.wire.DocumentContext;
import net.openhft.chronicle.wire.ShortTextLongConverter;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;

/**
 * A child process writing a deployment's journals as its gateways and engine do, through the contracts' method writers,
 * at a steady rate. For each event, a command in {@code gateway-N}, one engine excerpt answering it (one or two
 * reports, the input's MetaData), and in {@code gateway-N-out} the message sent for the report (with the report's
 * engine index) and its delivery; and in {@code marketdata}, through the marketdata module's {@link BatchWriter} with
 * its writer lock, as {@code ./sluice marketdata} writes it, a batch per engine excerpt naming it (an add order), after
 * a first batch naming none (the instrument's status). Gateways 1 and 2 from the start, gateway 3 from event 1000 on (a
 * journal that appears while the shipper runs). Arguments: root, events at most, events per second, and optionally a stop file: the flow
 * ends early once that file exists. Every 700th event is also an admin command (the admin journal, source 0)
 * answered by an engine excerpt, as the engine answers those, so a test can keep it flowing until it has killed what it kills mid-flow.
 */
public final class JournalFlow {
    private static final long SYMBOL = ShortTextLongConverter.INSTANCE.parse("ACME");

    private JournalFlow() {
    }

    public static void main(final String[] args) throws Exception {
        final Path root = Path.of(args[0]);
        final int events = Integer.parseInt(args[1]);
        final long periodNanos = 1_000_000_000L / Long.parseLong(args[2]);
        final Path stopFile = args.length > 3 ? Path.of(args[3]) : null;
        final int written = write(root, events, periodNanos, stopFile);
        System.out.println("journal flow: wrote " + written + " events");
    }

    static int write(final Path root, final int events, final long periodNanos, final Path stopFile) {
        final long[] nextEvent = new long[4];
        final MetaData metaData = new MetaData();
        final UnsafeBuffer body = new UnsafeBuffer("35=8|150=0|39=0|".getBytes(StandardCharsets.US_ASCII));
        final SentMessage sent = new SentMessage();
        final long start = System.nanoTime();
        final AdminCommand command = new AdminCommand();
        final AdminOutcome outcome = new AdminOutcome();
        AdminJournal admin = null; // opened at the first admin command: a short flow has no admin journal
        final BatchWriter batch = new BatchWriter();
        final AddOrder addOrder = new AddOrder();
        final TradingStatus status = new TradingStatus();
        try (JournalSetWriter writer = new JournalSetWriter(root);
             ProcessLock marketDataLock = ProcessLock.journalWriter(Journals.marketDataJournal(root), "journal flow");
             ChronicleQueue marketData = Journals.open(Journals.marketDataJournal(root))) {
            final ExcerptAppender marketDataAppender = marketData.createAppender();
            status.wrapForEncode(batch.buffer(), batch.nextMessageOffset());
            batch.commit(status.encode(TradingStatus.OPEN, SYMBOL, SluiceClock.nowTicks(), false));
            batch.appendTo(marketDataAppender, BatchLayout.NO_ENGINE_INDEX, 1);
            final EngineToGateway engine = writer.writer(Journals.engineJournal(root), EngineToGateway.class);
            final GatewayRecords[] records = new GatewayRecords[4];
            for (int gateway = 1; gateway <= 3; gateway++) {
                if (gateway < 3) {
                    records[gateway] = writer.writer(Journals.gatewayDeliveries(root, gateway), GatewayRecords.class);
                }
            }
            for (int e = 0; e < events; e++) {
                if (stopFile != null && e % 100 == 0 && Files.exists(stopFile)) {
                    return e;
                }
                if (e % 700 == 350) {
                    if (admin == null) {
                        admin = AdminJournal.open(root, SystemNanoClock.INSTANCE);
                    }
                    command.metaData().commandWriting(SluiceClock.nowTicks());
                    admin.append(command.action(AdminAction.CANCEL_ALL).user(1));
                    engine.adminOutcome(outcome.answering(command).acknowledged(0));
                }
                final int gateways = e < 1000 ? 2 : 3;
                final int gateway = 1 + e % gateways;
                if (records[gateway] == null) {
                    records[gateway] = writer.writer(Journals.gatewayDeliveries(root, gateway), GatewayRecords.class);
                }
                final long eventId = ++nextEvent[gateway];
                final long session = 1000 + gateway;
                metaData.sourceId(gateway).eventId(eventId).fixReceived(SluiceClock.nowTicks())
                        .commandWriting(SluiceClock.nowTicks()).engineRead(0).reportWriting(0).gatewayRead(0).fixSent(0);
                writer.newOrder(gateway, session, metaData);
                final long engineIndex;
                metaData.engineRead(SluiceClock.nowTicks()).reportWriting(SluiceClock.nowTicks());
                try (DocumentContext dc = writer.engineExcerpt()) {
                    writer.executionReport(gateway, session, 2L * e + 1, metaData);
                    if (e % 3 == 0) {
                        writer.executionReport(gateway, session, 2L * e + 2, metaData);
                    }
                    engineIndex = dc.index();
                }
                addOrder.wrapForEncode(batch.buffer(), batch.nextMessageOffset());
                batch.commit(addOrder.encode(FeedMessage.BUY, SYMBOL, SluiceClock.nowTicks(), 2L * e + 1, 100 + e, 10));
                batch.appendTo(marketDataAppender, engineIndex, 2 + e);
                metaData.gatewayRead(SluiceClock.nowTicks());
                records[gateway].sent(sent.set(session, eventId, '8', System.currentTimeMillis(), engineIndex, body, 0,
                        body.capacity()));
                metaData.fixSent(SluiceClock.nowTicks());
                writer.delivery(gateway, session, 2L * e + 1, metaData);
                final long due = start + (e + 1) * periodNanos;
                while (System.nanoTime() < due) {
                    LockSupport.parkNanos(Math.min(1_000_000, due - System.nanoTime()));
                }
            }
        } finally {
            if (admin != null) {
                admin.close();
            }
        }
        return events;
    }
}
