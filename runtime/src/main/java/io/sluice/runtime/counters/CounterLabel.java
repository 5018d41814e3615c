package io.sluice.runtime.counters;

import org.agrona.concurrent.status.CountersReader;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The one statement of how a counter is labelled: a metric name and label pairs, e.g.
 * {@code sluice_engine_rejects_total kind=order reason=PRICE_OFF_TICK}, stored as that text in the counter's label
 * (at most {@link org.agrona.concurrent.status.CountersReader#MAX_LABEL_LENGTH} characters), so {@code stat} can print
 * it as it is and the Prometheus exporter can turn it back into a metric name and labels ({@link #parse}).
 * Names and label names are Prometheus's ({@code [a-zA-Z_][a-zA-Z0-9_]*}); values hold no space or '='.
 */
public record CounterLabel(String metric, Map<String, String> labels) {
    public CounterLabel {
        requireName(metric);
        labels = Map.copyOf(new LinkedHashMap<>(labels));
        for (final Map.Entry<String, String> label : labels.entrySet()) {
            requireName(label.getKey());
            final String value = label.getValue();
            if (value.isEmpty() || value.indexOf(' ') >= 0 || value.indexOf('=') >= 0) {
                throw new IllegalArgumentException("label value '" + value + "' of " + metric
                        + " must be non-empty, without spaces or '='");
            }
        }
    }

    /** @return a label with no label pairs */
    public static CounterLabel of(final String metric) {
        return new CounterLabel(metric, Map.of());
    }

    /** @return a label with one label pair */
    public static CounterLabel of(final String metric, final String name, final String value) {
        return new CounterLabel(metric, Map.of(name, value));
    }

    /** @return a label with two label pairs */
    public static CounterLabel of(final String metric, final String name1, final String value1,
                                  final String name2, final String value2) {
        final Map<String, String> labels = new LinkedHashMap<>();
        labels.put(name1, value1);
        labels.put(name2, value2);
        return new CounterLabel(metric, labels);
    }

    /** @return the label as stored in the counters file: the metric, then {@code name=value} pairs sorted by name */
    public String text() {
        final StringBuilder text = new StringBuilder(metric);
        labels.keySet().stream().sorted().forEach(name -> text.append(' ').append(name).append('=')
                .append(labels.get(name)));
        if (text.length() > CountersReader.MAX_LABEL_LENGTH) {
            throw new IllegalArgumentException("counter label too long: " + text);
        }
        return text.toString();
    }

    /**
     * @return the label that {@link #text()} gave {@code text}
     * @throws IllegalArgumentException if {@code text} is not such a label
     */
    public static CounterLabel parse(final String text) {
        final String[] parts = text.split(" ");
        final Map<String, String> labels = new LinkedHashMap<>();
        for (int i = 1; i < parts.length; i++) {
            final int eq = parts[i].indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("not a Sluice counter label: '" + text + "'");
            }
            labels.put(parts[i].substring(0, eq), parts[i].substring(eq + 1));
        }
        return new CounterLabel(parts[0], labels);
    }

    private static void requireName(final String name) {
        if (!name.matches("[a-zA-Z_][a-zA-Z0-9_]*")) {
            throw new IllegalArgumentException("'" + name + "' is not a metric or label name");
        }
    }
}
