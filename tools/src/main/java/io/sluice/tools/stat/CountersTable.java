package io.sluice.tools.stat;

import io.sluice.runtime.counters.CountersDirectory;

import java.util.List;
import java.util.Locale;

/**
 * Renders every process's counters as one human-readable table, AeronStat's way. A heading line per process (its name,
 * pid, and whether it still runs) and one line per counter, its label and its value.
 */
public final class CountersTable {
    private CountersTable() {
    }

    /** @return the table of {@code processes}, or a line saying there are none under {@code root} */
    public static String render(final String root, final List<CountersDirectory.ProcessCounters> processes) {
        if (processes.isEmpty()) {
            return "no counters under " + root + "/counters (no Sluice process has run on this root)\n";
        }
        int width = 0;
        for (final CountersDirectory.ProcessCounters process : processes) {
            for (final CountersDirectory.Counter counter : process.counters()) {
                width = Math.max(width, counter.label().text().length());
            }
        }
        final StringBuilder table = new StringBuilder();
        for (final CountersDirectory.ProcessCounters process : processes) {
            table.append(process.process()).append(" (pid ").append(process.pid()).append(", ")
                    .append(process.liveness().name().toLowerCase(Locale.ROOT)).append(")\n");
            for (final CountersDirectory.Counter counter : process.counters()) {
                final String label = counter.label().text();
                table.append("  ").append(label).append(" ".repeat(width - label.length()))
                        .append(String.format("%,20d", counter.value())).append('\n');
            }
        }
        return table.toString();
    }
}
