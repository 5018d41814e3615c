package io.sluice.bench.replication;

import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * When a standby reached each step of a takeover, read from what it printed: its own step lines ({@code standby:
 * [HH:mm:ss.SSS UTC] fence took 360 ms: ...}, stamped by its clock, this host's) and, for lines without a stamp (the
 * engine's and gateway's start-up lines, printed beside its own), when they were first seen here.
 */
final class StandbyMilestones {
    private static final Pattern STEP = Pattern.compile("standby: \\[(\\d\\d:\\d\\d:\\d\\d\\.\\d\\d\\d) UTC] ([\\w-]+) took");
    private final Map<String, Long> seen = new LinkedHashMap<>();

    /** Notes every step line of {@code log} and each of {@code markers} found in it for the first time, at {@code nowMillis}. */
    void read(final String log, final long nowMillis, final Map<String, String> markers) {
        final Matcher step = STEP.matcher(log);
        while (step.find()) {
            seen.computeIfAbsent(step.group(2), name -> stampMillis(step.group(1), nowMillis));
        }
        markers.forEach((name, text) -> {
            if (log.contains(text)) {
                seen.putIfAbsent(name, nowMillis);
            }
        });
    }

    /** @return when the step or marker {@code name} was reached, wall-clock millis, or -1 if not (yet) */
    long at(final String name) {
        return seen.getOrDefault(name, -1L);
    }

    /** @return the wall-clock millis of a UTC time of day printed near {@code nowMillis} (within 12 hours) */
    private static long stampMillis(final String time, final long nowMillis) {
        final LocalDate today = LocalDate.ofEpochDay(Math.floorDiv(nowMillis, 86_400_000L));
        long millis = LocalTime.parse(time).atDate(today).toInstant(ZoneOffset.UTC).toEpochMilli();
        if (millis > nowMillis + 43_200_000L) {
            millis -= 86_400_000L;
        }
        return millis;
    }
}
