package io.sluice.replay;

/**
 * The first report where a replay's fresh engine did not write what the recorded engine wrote.
 *
 * @param reportNumber    the report's position in the recorded engine journal, counting reports from 0
 * @param excerptIndex    the Chronicle index of the recorded excerpt holding it (all reports of one input)
 * @param reportInExcerpt the report's position within that excerpt, from 0
 * @param sourceId        the gateway of the input that caused it
 * @param eventId         that input's event id in its gateway journal
 * @param input           the input, as YAML
 * @param expected        the recorded report as YAML (run timestamps zeroed), or "(no report)"
 * @param actual          the fresh engine's report as YAML (run timestamps zeroed), or "(no report)"
 */
public record Divergence(long reportNumber, long excerptIndex, int reportInExcerpt, int sourceId, long eventId,
                         String input, String expected, String actual) {
    /** @return a readable account of the divergence, for the console and for test failures. */
    public String describe() {
        return "first divergence at report " + reportNumber + " of the engine journal (excerpt index 0x"
                + Long.toHexString(excerptIndex) + ", report " + reportInExcerpt + " of that excerpt)\n"
                + "caused by input " + eventId + " of gateway " + sourceId + ":\n" + indent(input)
                + "expected (recorded):\n" + indent(expected)
                + "actual (this replay):\n" + indent(actual)
                + "(an engine config or engine version other than the recording's also diverges)";
    }

    private static String indent(final String yaml) {
        final StringBuilder text = new StringBuilder();
        for (final String line : yaml.strip().split("\n")) {
            text.append("  ").append(line).append('\n');
        }
        return text.toString();
    }
}
