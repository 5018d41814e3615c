package io.sluice.bench.report;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds the parts of a parsed result that the report shows without being told. Every number (outside arrays, which hold
 * per-pass detail), every latency section ({@link BenchResult#putLatencyNanos}), every series ({@link
 * BenchResult#putSeries}) and every text or yes/no setting. Keys are {@link ResultPath} texts.
 */
public final class ResultTree {
    private static final List<String> STAMPS = List.of("scenario", "date", "jdk", "os", "cpus");

    private ResultTree() {
    }

    /** @return every number outside arrays, by path, in the order the JSON has them */
    public static Map<String, Double> numbers(final Map<String, Object> root) {
        final Map<String, Double> numbers = new LinkedHashMap<>();
        walk(root, "", (path, value) -> {
            if (value instanceof Double number && !STAMPS.contains(path)) {
                numbers.put(path, number);
            }
        });
        return numbers;
    }

    /** @return every text and yes/no value outside arrays (settings, names), by path, stamps left out */
    public static Map<String, String> settings(final Map<String, Object> root) {
        final Map<String, String> settings = new LinkedHashMap<>();
        walk(root, "", (path, value) -> {
            if ((value instanceof String || value instanceof Boolean) && !STAMPS.contains(path)
                    && !path.endsWith(BenchResult.HISTOGRAM_KEY)) {
                settings.put(path, String.valueOf(value));
            }
        });
        return settings;
    }

    /** @return every latency section outside arrays, by path */
    public static Map<String, Map<?, ?>> latencies(final Map<String, Object> root) {
        final Map<String, Map<?, ?>> sections = new LinkedHashMap<>();
        walk(root, "", (path, value) -> {
            if (isLatency(value)) {
                sections.put(path, (Map<?, ?>) value);
            }
        });
        return sections;
    }

    /** @return every series section outside arrays, by path */
    public static Map<String, Map<?, ?>> series(final Map<String, Object> root) {
        final Map<String, Map<?, ?>> sections = new LinkedHashMap<>();
        walk(root, "", (path, value) -> {
            if (value instanceof Map<?, ?> map && map.get(BenchResult.SERIES_KEY) instanceof List<?>) {
                sections.put(path, map);
            }
        });
        return sections;
    }

    /** @return true if {@code value} is a latency section */
    public static boolean isLatency(final Object value) {
        return value instanceof Map<?, ?> map && map.containsKey("p50Us") && map.containsKey("maxUs");
    }

    /** @return the rates of a series section, or an empty array */
    public static double[] seriesValues(final Map<?, ?> section) {
        if (!(section.get(BenchResult.SERIES_KEY) instanceof List<?> list)) {
            return new double[0];
        }
        return list.stream().mapToDouble(value -> value instanceof Double number ? number : Double.NaN).toArray();
    }

    private interface Visitor {
        void visit(String path, Object value);
    }

    private static void walk(final Map<?, ?> map, final String prefix, final Visitor visitor) {
        for (final Map.Entry<?, ?> entry : map.entrySet()) {
            final String path = prefix.isEmpty() ? String.valueOf(entry.getKey()) : prefix + "." + entry.getKey();
            final Object value = entry.getValue();
            visitor.visit(path, value);
            if (value instanceof Map<?, ?> nested) {
                walk(nested, path, visitor);
            }
        }
    }
}
