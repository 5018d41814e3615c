package io.sluice.tools.admin;

import io.sluice.contracts.FirmLimit;
import io.sluice.engine.EngineCounters;
import io.sluice.engine.risk.FirmCounters;
import io.sluice.engine.risk.FirmKillSwitch;
import io.sluice.runtime.counters.CountersDirectory;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * {@code ./sluice admin limits FIRM}: one firm's limits and use as the engine's counters file shows them
 * ({@link FirmCounters}), read without writing anything. Either the text to print or the problem (no engine counters,
 * no such firm) is set.
 *
 * @param text    the report, or null
 * @param problem why there is none, or null
 */
record FirmLimitsReport(String text, String problem) {
    static FirmLimitsReport read(final Path root, final String firm) {
        CountersDirectory.ProcessCounters engine = null;
        for (final CountersDirectory.ProcessCounters process : new CountersDirectory(root).read()) {
            if (process.process().equals(EngineCounters.PROCESS)) {
                engine = process;
            }
        }
        if (engine == null) {
            return new FirmLimitsReport(null, "no engine counters under " + root.toAbsolutePath() + ": no engine has run");
        }
        final Map<String, Long> values = new LinkedHashMap<>();
        final Map<String, Long> positions = new LinkedHashMap<>();
        final TreeSet<String> firms = new TreeSet<>();
        for (final CountersDirectory.Counter counter : engine.counters()) {
            final String owner = counter.label().labels().get("firm");
            if (owner == null) {
                continue;
            }
            firms.add(owner);
            if (!owner.equals(firm)) {
                continue;
            }
            final Map<String, String> labels = counter.label().labels();
            switch (counter.label().metric()) {
                case FirmCounters.POSITION -> positions.put(labels.get("instrument"), counter.value());
                case FirmCounters.OPEN_NOTIONAL -> values.put("openNotional." + labels.get("side"), counter.value());
                case FirmCounters.LIMIT -> values.put("limit." + labels.get("limit"), counter.value());
                default -> values.put(counter.label().metric(), counter.value());
            }
        }
        if (values.isEmpty()) {
            return new FirmLimitsReport(null, "the engine has no firm " + firm + " (firms: "
                    + (firms.isEmpty() ? "none: its config has no risk section, or no order came yet" : firms) + ")");
        }
        final StringBuilder text = new StringBuilder();
        final long state = values.getOrDefault(FirmCounters.KILL_SWITCH, 0L);
        text.append("firm ").append(firm).append(" (engine ").append(engine.liveness().name().toLowerCase(Locale.ROOT))
                .append("): kill switch ").append(FirmKillSwitch.values()[(int) state].name().toLowerCase(Locale.ROOT))
                .append(", limit rejects ").append(values.getOrDefault(FirmCounters.LIMIT_REJECTS, 0L)).append('\n');
        text.append(String.format("  %-24s %16s  %s%n", "limit", "value", "use"));
        for (final FirmLimit limit : FirmLimit.values()) {
            final long value = values.getOrDefault("limit." + limit.configName(), FirmCounters.NO_LIMIT);
            text.append(String.format("  %-24s %16s  %s%n", limit.configName(),
                    value == FirmCounters.NO_LIMIT ? "none" : Long.toString(value), use(limit, values, positions)));
        }
        return new FirmLimitsReport(text.toString(), null);
    }

    private static String use(final FirmLimit limit, final Map<String, Long> values, final Map<String, Long> positions) {
        return switch (limit) {
            case MAX_OPEN_ORDERS -> values.getOrDefault(FirmCounters.OPEN_ORDERS, 0L) + " open";
            case MAX_OPEN_NOTIONAL -> "buy " + values.getOrDefault("openNotional.buy", 0L) + ", sell "
                    + values.getOrDefault("openNotional.sell", 0L) + " open";
            case MAX_POSITION -> positions.isEmpty() ? "-" : positions.toString().replaceAll("[{}]", "")
                    .replace("=", " ");
            case MAX_ORDERS_PER_SECOND -> values.getOrDefault(FirmCounters.ORDERS_IN_SECOND, 0L)
                    + " in the latest second";
            case KILL_ON_REJECTS_PER_SECOND, PRICE_COLLAR, MAX_ORDER_NOTIONAL -> "-";
        };
    }
}
