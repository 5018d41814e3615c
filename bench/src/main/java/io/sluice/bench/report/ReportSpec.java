package io.sluice.bench.report;

import java.util.ArrayList;
import java.util.List;

/**
 * What the report shows of one scenario's JSON, beyond the full list of figures it always gives. The headline figures,
 * the comparisons with a peer or a baseline measured in the same run (shown as both absolute figures and their ratio),
 * and the latency sections worth a table row and a line on the percentile chart. Paths are
 * {@link ResultPath}s. A scenario that declares no latencies gets every latency section outside arrays.
 * Filled once where the scenario is registered, read-only after.
 */
public final class ReportSpec {
    private final List<Figure> headline = new ArrayList<>();
    private final List<Comparison> comparisons = new ArrayList<>();
    private final List<Figure> latencies = new ArrayList<>();

    /** One named value. */
    public record Figure(String label, ResultPath path) {
    }

    /** A figure of the subject beside the same figure of its baseline; the ratio is subject ÷ baseline. */
    public record Comparison(String label, String subject, ResultPath subjectPath, String baseline,
                             ResultPath baselinePath) {
    }

    /** Adds a headline figure. */
    public ReportSpec headline(final String label, final String path) {
        headline.add(new Figure(label, ResultPath.of(path)));
        return this;
    }

    /** Adds a comparison: {@code label} of {@code subject} (at {@code subjectPath}) against {@code baseline}. */
    public ReportSpec compare(final String label, final String subject, final String subjectPath,
                              final String baseline, final String baselinePath) {
        comparisons.add(new Comparison(label, subject, ResultPath.of(subjectPath), baseline, ResultPath.of(baselinePath)));
        return this;
    }

    /** Adds a latency section (an object written by {@link BenchResult#putLatencyNanos}). */
    public ReportSpec latency(final String label, final String path) {
        latencies.add(new Figure(label, ResultPath.of(path)));
        return this;
    }

    public List<Figure> headline() {
        return List.copyOf(headline);
    }

    public List<Comparison> comparisons() {
        return List.copyOf(comparisons);
    }

    public List<Figure> latencies() {
        return List.copyOf(latencies);
    }
}
