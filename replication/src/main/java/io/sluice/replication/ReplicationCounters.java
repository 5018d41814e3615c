package io.sluice.replication;

import io.sluice.runtime.counters.AcknowledgedIndexReader;
import io.sluice.runtime.counters.CounterLabel;
import io.sluice.runtime.counters.CountersFile;
import io.sluice.runtime.counters.PrimaryLeaseGauges;
import org.agrona.concurrent.status.AtomicCounter;

import java.nio.file.Path;

/**
 * A shipper's or a receiver's live counters, which {@code ./sluice stat} and {@code ./sluice metrics} read from
 * outside. They live in its process's {@link CountersFile} under its root ({@code <root>/counters/shipper.counters},
 * {@code <replica root>/counters/receiver.counters}):
 * <ul>
 *   <li>{@code sluice_replication_kafka_up} (gauge): 1 while Kafka answers, 0 while it is unreachable (or not yet
 *   heard from); {@code sluice_replication_kafka_errors_total}: every failure that showed Kafka unreachable (a send
 *   refused, a query unanswered, an acknowledgement overdue);</li>
 *   <li>per journal: {@code sluice_replication_shipped_total} / {@code sluice_replication_received_total}, the records
 *   Kafka committed / the receiver wrote since start; {@code sluice_replication_lag_messages} (gauge), the excerpts
 *   behind (shipper: read or not yet read, and not committed; receiver: offsets behind Kafka's last stable offset,
 *   records and transaction markers, -1 while that is unknown); {@code sluice_replication_lag_micros} (gauge;
 * shipper: how long the oldest excerpt read and not
 *   acknowledged has waited since it was read; receiver: from its writer's MetaData stamp, or the shipper's read time,
 *   to the replica's write of the newest record);</li>
 *   <li>shipper only: {@code sluice_replication_commits_total}, the Kafka transactions it committed since start;</li>
 *   <li>shipper only: the primary's lease ({@link PrimaryLeaseGauges}), which the engine process's lease watch reads;</li>
 *   <li>shipper only, per journal: the highest index Kafka has committed ({@link AcknowledgedIndexReader#label}),
 *   which gateways in acknowledged mode poll.</li>
 * </ul>
 * Counters are allocated at start and when a journal is found; updates are ordered writes.
 */
public final class ReplicationCounters implements AutoCloseable {
    /** The shipper's count of committed Kafka transactions, for benchmarks and {@code ./sluice stat}. */
    public static final String COMMITS_METRIC = "sluice_replication_commits_total";

    private final CountersFile file;
    private final String process;
    final AtomicCounter kafkaUp;
    final AtomicCounter kafkaErrors;
    /** Shipper: the Kafka transactions it committed since it started; receiver: null. */
    final AtomicCounter commits;
    /** Shipper: its lease, ms, and when the newest write Kafka acknowledged was sent ({@link PrimaryLeaseGauges}). */
    final AtomicCounter leaseMillis;
    final AtomicCounter leaseAcknowledgedSent;

    ReplicationCounters(final Path root, final String process) {
        this.file = CountersFile.create(root, process);
        this.process = process;
        kafkaUp = file.gauge(CounterLabel.of("sluice_replication_kafka_up"));
        kafkaErrors = file.counter(CounterLabel.of("sluice_replication_kafka_errors_total"));
        final boolean shipper = Shipper.ROLE.equals(process);
        commits = shipper ? file.counter(CounterLabel.of(COMMITS_METRIC)) : null;
        leaseMillis = shipper ? file.gauge(PrimaryLeaseGauges.LEASE_MILLIS) : null;
        leaseAcknowledgedSent = shipper ? file.gauge(PrimaryLeaseGauges.ACKNOWLEDGED_SENT) : null;
    }

    /** @return the counters of a journal found (allocates) */
    Journal journal(final String journalName) {
        return new Journal(journalName);
    }

    /** The counters of one replicated journal. */
    final class Journal {
        final AtomicCounter records;
        final AtomicCounter lagMessages;
        final AtomicCounter lagMicros;
        /** The acknowledged index (shipper), or null (receiver). */
        final AtomicCounter acknowledgedIndex;

        private Journal(final String journalName) {
            final boolean shipper = Shipper.ROLE.equals(process);
            records = file.counter(CounterLabel.of(shipper ? "sluice_replication_shipped_total"
                    : "sluice_replication_received_total", "journal", journalName));
            lagMessages = file.gauge(CounterLabel.of("sluice_replication_lag_messages", "journal", journalName));
            lagMicros = file.gauge(CounterLabel.of("sluice_replication_lag_micros", "journal", journalName));
            acknowledgedIndex = shipper ? file.gauge(AcknowledgedIndexReader.label(journalName)) : null;
        }
    }

    @Override
    public void close() {
        file.close();
    }
}
