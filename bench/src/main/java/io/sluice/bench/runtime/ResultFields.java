package io.sluice.bench.runtime;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads numbers back out of the JSON a benchmark wrote through {@link io.sluice.bench.report.BenchResult}, when it
 * ran in a child JVM: a number at the top level ({@code "roundTripsPerSecond": 123.4}) or inside a named section
 * ({@code "roundTrip": { ... "p99Us": 12.3 ... }}). Only for that writer's output, which never nests a section
 * inside a latency section; not a general JSON parser.
 */
final class ResultFields {
    private static final String NUMBER = "(-?[0-9]+(?:\\.[0-9]+)?(?:[eE][-+]?[0-9]+)?)";

    private ResultFields() {
    }

    /** @return the number named {@code key} (its first occurrence) */
    static double number(final String json, final String key) {
        return find(json, key, json);
    }

    /** @return the number named {@code key} inside the section named {@code section} */
    static double number(final String json, final String section, final String key) {
        final Matcher start = Pattern.compile("\"" + Pattern.quote(section) + "\"\\s*:\\s*\\{").matcher(json);
        if (!start.find()) {
            throw new IllegalArgumentException("no section \"" + section + "\" in " + json);
        }
        final int end = json.indexOf('}', start.end());
        return find(json.substring(start.end(), end < 0 ? json.length() : end), key, json);
    }

    private static double find(final String text, final String key, final String json) {
        final Matcher matcher = Pattern.compile("\"" + Pattern.quote(key) + "\"\\s*:\\s*" + NUMBER).matcher(text);
        if (!matcher.find()) {
            throw new IllegalArgumentException("no number \"" + key + "\" in " + json);
        }
        return Double.parseDouble(matcher.group(1));
    }
}
