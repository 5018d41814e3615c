package io.sluice.bench.report;

import java.util.List;
import java.util.Map;

/**
 * The repeated runs of one scenario that go into the report. What the scenario is, its parsed JSON results (one per
 * run, in run order), the files they came from, and any run that produced nothing (a failure, a timeout) so the report
 * can say so.
 */
public record ScenarioResults(String name, String description, String comparison, String target, ReportSpec spec,
                              List<Map<String, Object>> runs, List<String> sources, List<String> problems) {
    public ScenarioResults {
        runs = List.copyOf(runs);
        sources = List.copyOf(sources);
        problems = List.copyOf(problems);
    }
}
