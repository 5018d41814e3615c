package io.sluice.tools.metrics;

import io.sluice.runtime.process.JavaProcess;
import io.sluice.runtime.process.PollUntil;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A strict parser of Prometheus's text exposition format (version 0.0.4), for tests: it throws on what a Prometheus
 * server would reject. The Prometheus Java client served here writes the format but has no parser, so this one checks
 * what a server would reject (a sample line that is not {@code name{label="value",...} number}, a label value with a
 * bad escape, a sample of a family without a {@code # TYPE} line (the family named as the sample, or, for a counter,
 * without its {@code _total}), a counter sample not ending in {@code _total}, a TYPE given twice, a duplicate series)
 * and throws on it rather than skipping.
 */
public final class PrometheusText {
    private static final Pattern SERVING = Pattern.compile("at http://127\\.0\\.0\\.1:(\\d+)/metrics");
    private static final Pattern NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Pattern TYPE = Pattern.compile("# TYPE (" + NAME + ") (counter|gauge|histogram|summary|untyped)");
    private static final Pattern HELP = Pattern.compile("# HELP (" + NAME + ") .*");
    private static final Pattern SAMPLE = Pattern.compile("(" + NAME + ")(?:\\{(.*)})? (\\S+)(?: -?\\d+)?");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\\\n]|\\\\[\\\\\"n])*)\"(,|$)");

    /** One series: its sample name (with {@code _total} for counters) and labels. */
    record Series(String name, Map<String, String> labels) {
        Series {
            labels = Map.copyOf(labels);
        }
    }

    /** What a scrape gave: each family's type, and each series' value. */
    public record Scrape(Map<String, String> types, Map<Series, Double> values) {
        /** @return the type of the family of sample {@code name} (declared with or without {@code _total}), or null */
        String typeOf(final String name) {
            final String type = types.get(name);
            return type != null || !name.endsWith("_total") ? type : types.get(name.substring(0, name.length() - 6));
        }

        /** @return the value of the series, failing if it is missing */
        public double value(final String name, final String... labelPairs) {
            final Map<String, String> labels = new TreeMap<>();
            for (int i = 0; i < labelPairs.length; i += 2) {
                labels.put(labelPairs[i], labelPairs[i + 1]);
            }
            final Double value = values.get(new Series(name, labels));
            if (value == null) {
                throw new AssertionError("no series " + name + labels + " in the scrape");
            }
            return value;
        }
    }

    private PrometheusText() {
    }

    public static Scrape parse(final String text) {
        final Map<String, String> types = new HashMap<>();
        final Map<Series, Double> values = new LinkedHashMap<>();
        int lineNumber = 0;
        for (final String line : text.split("\n")) {
            lineNumber++;
            if (line.isEmpty()) {
                continue;
            }
            if (line.startsWith("#")) {
                final Matcher type = TYPE.matcher(line);
                if (type.matches()) {
                    if (types.put(type.group(1), type.group(2)) != null) {
                        throw bad(lineNumber, line, "a second TYPE for the family");
                    }
                } else if (line.startsWith("# TYPE") || (line.startsWith("# HELP") && !HELP.matcher(line).matches())) {
                    throw bad(lineNumber, line, "malformed TYPE or HELP");
                }
                continue;
            }
            final Matcher sample = SAMPLE.matcher(line);
            if (!sample.matches()) {
                throw bad(lineNumber, line, "not a sample line");
            }
            final String name = sample.group(1);
            final String family = types.containsKey(name) ? name
                    : name.endsWith("_total") && "counter".equals(types.get(name.substring(0, name.length() - 6)))
                    ? name.substring(0, name.length() - 6) : null;
            if (family == null) {
                throw bad(lineNumber, line, "a sample of no declared family (or a counter sample without _total)");
            }
            if ("counter".equals(types.get(family)) && !name.endsWith("_total")) {
                throw bad(lineNumber, line, "a counter sample must end in _total");
            }
            final Map<String, String> labels = new TreeMap<>();
            if (sample.group(2) != null && !sample.group(2).isEmpty()) {
                final Matcher label = LABEL.matcher(sample.group(2));
                int at = 0;
                while (at < sample.group(2).length()) {
                    if (!label.find(at) || label.start() != at) {
                        throw bad(lineNumber, line, "malformed labels");
                    }
                    if (labels.put(label.group(1), unescape(label.group(2))) != null) {
                        throw bad(lineNumber, line, "a label given twice");
                    }
                    at = label.end();
                }
            }
            final double value;
            try {
                value = Double.parseDouble(sample.group(3));
            } catch (final NumberFormatException e) {
                throw bad(lineNumber, line, "not a number");
            }
            if (values.put(new Series(name, labels), value) != null) {
                throw bad(lineNumber, line, "a series given twice");
            }
        }
        return new Scrape(Map.copyOf(types), values);
    }

    private static String unescape(final String value) {
        return value.replace("\\n", "\n").replace("\\\"", "\"").replace("\\\\", "\\");
    }

    private static IllegalArgumentException bad(final int lineNumber, final String line, final String why) {
        return new IllegalArgumentException("line " + lineNumber + ": " + why + ": " + line);
    }

    /** @return the port {@code ./sluice metrics} ({@code --port 0}) serves on, once its log says so */
    public static int awaitPort(final JavaProcess metrics, final Duration timeout) {
        final AtomicInteger port = new AtomicInteger();
        PollUntil.await(() -> {
            final Matcher serving = SERVING.matcher(metrics.logText());
            if (serving.find()) {
                port.set(Integer.parseInt(serving.group(1)));
            }
            return port.get() != 0;
        }, timeout, () -> "the exporter to start: " + metrics.logText());
        return port.get();
    }

    /** @return the body of a scrape of {@code ./sluice metrics} serving on {@code port}, checked to be text */
    public static String fetch(final int port) {
        try (HttpClient http = HttpClient.newHttpClient()) {
            final HttpResponse<String> response = http.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + port + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, response.statusCode());
            assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"),
                    response.headers().toString());
            return response.body();
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
