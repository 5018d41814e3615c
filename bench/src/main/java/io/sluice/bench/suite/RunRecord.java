package io.sluice.bench.suite;

import io.sluice.bench.report.BenchResult;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What one run of one scenario in {@code bench all} left behind. Its arguments, exit code, wall time, whether it was
 * stopped for taking too long, the result files it wrote (names inside the results directory) and its log.
 */
public record RunRecord(String scenario, int repeat, List<String> args, int exitCode, boolean timedOut,
                        double seconds, List<String> results, String log) {
    public RunRecord {
        args = List.copyOf(args);
        results = List.copyOf(results);
    }

    /** @return true if the run exited normally and wrote at least one result */
    public boolean succeeded() {
        return exitCode == 0 && !timedOut && !results.isEmpty();
    }

    /** @return what went wrong, for the report, or null if nothing did */
    public String problem() {
        if (succeeded()) {
            return null;
        }
        final String what = timedOut ? "was stopped after " + Math.round(seconds) + " s"
                : exitCode != 0 ? "exited with " + exitCode : "wrote no result";
        return "run " + repeat + " " + what + " (log: " + log + ")";
    }

    BenchResult toResult() {
        return BenchResult.section().put("scenario", scenario).put("repeat", repeat).put("args", args)
                .put("exitCode", exitCode).put("timedOut", timedOut).put("seconds", seconds)
                .put("results", results).put("log", log);
    }

    static RunRecord fromJson(final Map<?, ?> json) {
        return new RunRecord(String.valueOf(json.get("scenario")), (int) number(json.get("repeat")), texts(json.get("args")),
                (int) number(json.get("exitCode")), Boolean.TRUE.equals(json.get("timedOut")), number(json.get("seconds")),
                texts(json.get("results")), String.valueOf(json.get("log")));
    }

    private static double number(final Object value) {
        return value instanceof Double number ? number : 0;
    }

    private static List<String> texts(final Object value) {
        final List<String> texts = new ArrayList<>();
        if (value instanceof List<?> list) {
            list.forEach(item -> texts.add(String.valueOf(item)));
        }
        return texts;
    }
}
