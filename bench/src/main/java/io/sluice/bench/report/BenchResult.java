package io.sluice.bench.report;

import io.sluice.tools.report.LatencyTable;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;

/**
 * One benchmark run's figures, written as JSON under {@code bench/results/} so runs can be compared and
 * rendered later. Holds named values, nested sections and latency histograms (as percentiles in µs).
 * Not for hot paths: benchmarks fill it after measuring.
 * <p>Two conventions let the report draw charts from the JSON alone: every latency section also carries the
 * whole histogram under {@value #HISTOGRAM_KEY} (HdrHistogram's compressed encoding in base64, the form its
 * interval logs use), and a series of rates over time is a section with {@value #SERIES_KEY} (one value per
 * interval) and {@code intervalSeconds}, see {@link #putSeries}.
 */
public final class BenchResult {
    /** Key of the whole histogram inside a latency section: compressed HdrHistogram, base64, values in ns. */
    public static final String HISTOGRAM_KEY = "hdrHistogramBase64";
    /** Key of the values inside a series section: a rate per interval, oldest first. */
    public static final String SERIES_KEY = "perSecond";
    private static final int CHART_DIGITS = 2;

    private final Map<String, Object> values = new LinkedHashMap<>();

    /** Starts a result for {@code scenario}, stamped with the machine, JVM and time. */
    public static BenchResult of(final String scenario) {
        final BenchResult result = new BenchResult();
        result.put("scenario", scenario);
        result.put("date", Instant.now().toString());
        result.put("jdk", System.getProperty("java.vm.vendor") + " " + System.getProperty("java.vm.version"));
        result.put("cpus", Runtime.getRuntime().availableProcessors());
        result.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        return result;
    }

    /** A nested section, e.g. one row of a comparison. */
    public static BenchResult section() {
        return new BenchResult();
    }

    public BenchResult put(final String name, final Object value) {
        values.put(name, value);
        return this;
    }

    /**
     * Adds {@code histogram} (recorded in nanoseconds) as count, mean, percentiles and max in µs.
     */
    public BenchResult putLatencyNanos(final String name, final Histogram histogram) {
        final BenchResult latency = section();
        latency.put("count", histogram.getTotalCount());
        latency.put("meanUs", histogram.getMean() / 1_000.0);
        for (final double percentile : LatencyTable.PERCENTILES) {
            latency.put(percentileKey(percentile), histogram.getValueAtPercentile(percentile) / 1_000.0);
        }
        latency.put("maxUs", histogram.getMaxValue() / 1_000.0);
        latency.put(HISTOGRAM_KEY, encode(histogram));
        return put(name, latency);
    }

    /**
     * Adds a rate over time, e.g. orders per second, second by second: a section holding
     * {@code intervalSeconds} and the rates under {@value #SERIES_KEY}, which the report draws as a line.
     */
    public BenchResult putSeries(final String name, final double intervalSeconds, final double[] perSecond) {
        final List<Double> values = new ArrayList<>(perSecond.length);
        for (final double value : perSecond) {
            values.add(value);
        }
        return put(name, section().put("intervalSeconds", intervalSeconds).put(SERIES_KEY, values));
    }

    /**
     * @return {@code histogram} in HdrHistogram's compressed encoding, as base64 text, at two significant digits
     *         (1 % resolution: plenty for a chart, a tenth of the size of three digits); the figures beside it
     *         come from the full histogram
     */
    public static String encode(final Histogram histogram) {
        final Histogram chartResolution = new Histogram(CHART_DIGITS);
        chartResolution.add(histogram);
        final ByteBuffer buffer = ByteBuffer.allocate(chartResolution.getNeededByteBufferCapacity());
        final int length = chartResolution.encodeIntoCompressedByteBuffer(buffer, Deflater.BEST_COMPRESSION);
        return Base64.getEncoder().encodeToString(Arrays.copyOf(buffer.array(), length));
    }

    /** @return the histogram {@link #encode} turned into {@code base64} */
    public static Histogram decode(final String base64) {
        try {
            return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(base64)), 0);
        } catch (final DataFormatException | IllegalArgumentException e) {
            throw new IllegalArgumentException("not a compressed HdrHistogram in base64: " + e.getMessage(), e);
        }
    }

    /** @return the JSON key for a percentile, e.g. {@code p99_9Us} for 99.9. */
    public static String percentileKey(final double percentile) {
        final String text = percentile == Math.rint(percentile)
                ? Long.toString((long) percentile) : Double.toString(percentile).replace('.', '_');
        return "p" + text + "Us";
    }

    /**
     * Writes this result to {@code dir/<scenario>-<UTC time>.json} and to {@code dir/<scenario>-latest.json}.
     *
     * @return the time-stamped file
     */
    public Path write(final Path dir) {
        final String scenario = String.valueOf(values.get("scenario"));
        final String stamp = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC).format(Instant.now());
        try {
            Files.createDirectories(dir);
            final String json = toJson();
            final Path file = dir.resolve(scenario + "-" + stamp + ".json");
            Files.writeString(file, json);
            Files.writeString(dir.resolve(scenario + "-latest.json"), json);
            return file;
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot write benchmark result to " + dir, e);
        }
    }

    /** @return the directory results go to: {@code -Dsluice.results=...} or {@code bench/results}. */
    public static Path resultsDir() {
        final String configured = System.getProperty("sluice.results");
        if (configured != null) {
            return Path.of(configured);
        }
        final Path bench = Path.of("bench");
        return (Files.isDirectory(bench) ? bench : Path.of(".")).resolve("results");
    }

    public String toJson() {
        final StringBuilder json = new StringBuilder();
        appendValue(json, values, 0);
        return json.append('\n').toString();
    }

    private static void appendValue(final StringBuilder json, final Object value, final int indent) {
        switch (value) {
            case null -> json.append("null");
            case BenchResult nested -> appendValue(json, nested.values, indent);
            case Map<?, ?> map -> {
                json.append("{\n");
                int i = 0;
                for (final Map.Entry<?, ?> entry : map.entrySet()) {
                    json.append("  ".repeat(indent + 1));
                    appendString(json, String.valueOf(entry.getKey()));
                    json.append(": ");
                    appendValue(json, entry.getValue(), indent + 1);
                    json.append(++i < map.size() ? ",\n" : "\n");
                }
                json.append("  ".repeat(indent)).append('}');
            }
            case List<?> list -> {
                json.append('[');
                for (int i = 0; i < list.size(); i++) {
                    if (i > 0) {
                        json.append(", ");
                    }
                    appendValue(json, list.get(i), indent + 1);
                }
                json.append(']');
            }
            case Double d -> json.append(d.isNaN() || d.isInfinite() ? "null" : String.format(Locale.ROOT, "%.3f", d));
            case Float f -> appendValue(json, f.doubleValue(), indent);
            case Number n -> json.append(n);
            case Boolean b -> json.append(b);
            default -> appendString(json, value.toString());
        }
    }

    private static void appendString(final StringBuilder json, final String text) {
        json.append('"');
        for (int i = 0; i < text.length(); i++) {
            final char c = text.charAt(i);
            switch (c) {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                case '\n' -> json.append("\\n");
                case '\t' -> json.append("\\t");
                default -> {
                    if (c < 0x20) {
                        json.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        json.append(c);
                    }
                }
            }
        }
        json.append('"');
    }
}
