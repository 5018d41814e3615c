package io.sluice.replication;

import java.util.regex.Pattern;

/**
 * How a deployment's journals map onto Kafka (topic format {@value LogFrame#FORMAT}): one topic with one partition. The
 * topic {@code sluice.<deployment>.log} carries every journal's excerpts in the order the shipper read them, causes
 * before effects ({@link CausalGate}), in frames of several excerpts ({@link LogFrame}). One partition
 * keeps one order for the whole deployment, so any prefix of the log, such as what survives the loss of the primary,
 * is a state the primary passed through, with no transaction to wait for. Formats 1 and 2 had a topic per journal,
 * {@code sluice.<deployment>.<journal>}: a shipper or receiver that finds one refuses, saying so.
 */
public final class LogTopic {
    /** The prefix of every Sluice replication topic. */
    public static final String PREFIX = "sluice.";
    /** The name of the log under a deployment's prefix. */
    static final String LOG = "log";

    private static final Pattern DEPLOYMENT = Pattern.compile("[A-Za-z0-9_-]{1,100}");

    private LogTopic() {
    }

    /** @throws IllegalArgumentException if {@code deployment} cannot be part of a topic name */
    public static String checkDeployment(final String deployment) {
        if (deployment == null || !DEPLOYMENT.matcher(deployment).matches()) {
            throw new IllegalArgumentException("deployment '" + deployment + "' must be 1 to 100 of A-Z a-z 0-9 _ -");
        }
        return deployment;
    }

    /** @return the log topic of {@code deployment} */
    public static String of(final String deployment) {
        return prefix(deployment) + LOG;
    }

    /** @return what every topic of {@code deployment} starts with */
    public static String prefix(final String deployment) {
        return PREFIX + deployment + ".";
    }

    /**
     * @return true if {@code topic} is a topic of {@code deployment} of topic format 1 or 2, a topic per journal
     * ({@code sluice.<deployment>.<journal>}), written by an older shipper
     */
    public static boolean isOlderFormat(final String deployment, final String topic) {
        final String prefix = prefix(deployment);
        return topic.startsWith(prefix) && JournalName.parse(topic.substring(prefix.length())) != null;
    }

    /** @return the refusal of a deployment whose topics include {@code topic}, of an older format */
    static String olderFormatRefusal(final String topic) {
        return "topic " + topic + " is of topic format 1 or 2 (a topic per journal), written by an older shipper; this "
                + "version ships one log per deployment (topic format " + LogFrame.FORMAT + "): ship the journals afresh"
                + " under a new deployment id, or finish this one with the older version";
    }
}
