package io.sluice.tools.metrics;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.sluice.runtime.counters.CounterLabel;
import io.sluice.runtime.counters.CountersDirectory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns the counters files under a journal root into Prometheus metrics at each scrape: each counter's
 * {@link CounterLabel} gives the metric name and labels, the file's process name the {@code process} label (and,
 * for a gateway, {@code gateway}); a counter that only grows becomes a Prometheus counter, one that goes up and down
 * a gauge. {@code sluice_process_running} says per process whether it still runs (1) or left a stale file (0).
 */
final class CountersCollector implements MultiCollector {
    private static final String TOTAL = "_total";
    private final CountersDirectory directory;

    CountersCollector(final CountersDirectory directory) {
        this.directory = directory;
    }

    @Override
    public MetricSnapshots collect() {
        final Map<String, CounterSnapshot.Builder> counters = new TreeMap<>();
        final Map<String, GaugeSnapshot.Builder> gauges = new TreeMap<>();
        final GaugeSnapshot.Builder running = GaugeSnapshot.builder().name("sluice_process_running")
                .help("1 while the process that writes the counters file runs, 0 for a stale file of a stopped one");
        for (final CountersDirectory.ProcessCounters process : directory.read()) {
            final Labels processLabels = processLabels(process.process());
            running.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(processLabels)
                    .value(process.liveness() == CountersDirectory.Liveness.RUNNING ? 1 : 0).build());
            for (final CountersDirectory.Counter counter : process.counters()) {
                final CounterLabel label = counter.label();
                Labels labels = processLabels;
                for (final Map.Entry<String, String> pair : new TreeMap<>(label.labels()).entrySet()) {
                    labels = labels.add(pair.getKey(), pair.getValue());
                }
                if (counter.gauge()) {
                    gauges.computeIfAbsent(label.metric(), name -> GaugeSnapshot.builder().name(name)
                                    .help("Sluice gauge " + name))
                            .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(labels)
                                    .value(counter.value()).build());
                } else {
                    // The client's counter names leave out the _total that the text format adds.
                    final String name = label.metric().endsWith(TOTAL)
                            ? label.metric().substring(0, label.metric().length() - TOTAL.length()) : label.metric();
                    counters.computeIfAbsent(name, n -> CounterSnapshot.builder().name(n).help("Sluice counter " + n))
                            .dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().labels(labels)
                                    .value(counter.value()).build());
                }
            }
        }
        final List<MetricSnapshot> snapshots = new ArrayList<>();
        snapshots.add(running.build());
        counters.values().forEach(builder -> snapshots.add(builder.build()));
        gauges.values().forEach(builder -> snapshots.add(builder.build()));
        return new MetricSnapshots(snapshots);
    }

    /** @return {@code process=<name>}, and {@code gateway=<id>} for a gateway's file ({@code gateway-<id>}) */
    static Labels processLabels(final String process) {
        final String gatewayPrefix = "gateway-";
        return process.startsWith(gatewayPrefix)
                ? Labels.of("process", process, "gateway", process.substring(gatewayPrefix.length()))
                : Labels.of("process", process);
    }
}
