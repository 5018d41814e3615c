package io.sluice.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Where and how a set of results was measured, for the head of RESULTS.md. The machine (CPU model, cores, memory, load
 * average when the runs started and when they ended), the JDK, the JVM flags, the date, the git commit, the profile and
 * how many times each scenario ran. Read from {@code /proc} on Linux; "unknown" elsewhere.
 */
public record RunEnvironment(String date, String profile, int repeats, String cpuModel, int cores, long memoryMegabytes,
                             double loadAverageStart, double loadAverageEnd, String jdk, String os,
                             List<String> jvmOptions, String gitCommit, double wallSeconds) {
    static final String UNKNOWN = "unknown";

    public RunEnvironment {
        jvmOptions = List.copyOf(jvmOptions);
    }

    /** @return this environment with the end-of-run load average and wall time filled in */
    public RunEnvironment finished(final double loadAverage, final double seconds) {
        return new RunEnvironment(date, profile, repeats, cpuModel, cores, memoryMegabytes, loadAverageStart,
                loadAverage, jdk, os, jvmOptions, gitCommit, seconds);
    }

    /** @return the environment as a JSON section */
    public BenchResult toResult() {
        return BenchResult.section().put("date", date).put("profile", profile).put("repeats", repeats)
                .put("cpuModel", cpuModel).put("cores", cores).put("memoryMegabytes", memoryMegabytes)
                .put("loadAverageStart", loadAverageStart).put("loadAverageEnd", loadAverageEnd)
                .put("jdk", jdk).put("os", os).put("jvmOptions", jvmOptions).put("gitCommit", gitCommit)
                .put("wallSeconds", wallSeconds);
    }

    /** @return the environment {@link #toResult} wrote, as read by {@link ResultJson} */
    public static RunEnvironment fromJson(final Map<?, ?> json) {
        final List<String> options = new ArrayList<>();
        if (json.get("jvmOptions") instanceof List<?> list) {
            list.forEach(option -> options.add(String.valueOf(option)));
        }
        return new RunEnvironment(text(json, "date"), text(json, "profile"), (int) number(json, "repeats"),
                text(json, "cpuModel"), (int) number(json, "cores"), (long) number(json, "memoryMegabytes"),
                number(json, "loadAverageStart"), number(json, "loadAverageEnd"), text(json, "jdk"), text(json, "os"),
                options, text(json, "gitCommit"), number(json, "wallSeconds"));
    }

    private static String text(final Map<?, ?> json, final String key) {
        final Object value = json.get(key);
        return value == null ? UNKNOWN : ValueText.plain(value);
    }

    private static double number(final Map<?, ?> json, final String key) {
        return json.get(key) instanceof Double number ? number : Double.NaN;
    }
}
