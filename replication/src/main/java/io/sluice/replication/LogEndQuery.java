package io.sluice.replication;

import org.agrona.concurrent.Agent;

import java.util.Map;

/**
 * Reads where each journal ends in the deployment's log, on a thread of its own, for the shipper's resume.
 * <p>
 * A resume waits on Kafka (a fetch or a few, {@link LogRecords}), for seconds while a restarted broker's client
 * reconnects. Asked here, it leaves the shipper's agent free meanwhile: it beats, so neither its lease nor a standby's
 * watch sees a live primary fall silent. The shipper asks ({@link #ask}), looks each round ({@link #state}), and takes
 * the answer or the failure, which makes the query idle again. An answer carries the count of aborted transactions it
 * was asked after, so that one asked before an abort is told from a fresh one.
 */
final class LogEndQuery implements Agent {
    /** Where the query is; written by the shipper (ask, take) and by this agent (answer), each only in its turn. */
    enum State {
        /** Nothing asked, or the last answer taken. */
        IDLE,
        /** Asked: this agent reads the log. */
        ASKED,
        /** Answered: {@link #answer()} holds each journal's last excerpt in the log. */
        ANSWERED,
        /** Kafka did not answer in time, or the log holds what no shipper wrote: {@link #failure()} says which. */
        FAILED
    }

    private final LogRecords records;
    private volatile State state = State.IDLE;
    private long askedAfterAborts;
    private Map<String, LogRecords.LastExcerpt> answer;
    private RuntimeException failure;

    /** @param records read on this agent's thread only, and closed with it */
    LogEndQuery(final LogRecords records) {
        this.records = records;
    }

    State state() {
        return state;
    }

    /** Asks where each journal ends now, after {@code aborts} aborted transactions. Only when {@link State#IDLE}. */
    void ask(final long aborts) {
        askedAfterAborts = aborts;
        state = State.ASKED;
    }

    /** @return how many transactions had been aborted when the answer (or failure) in hand was asked for */
    long askedAfterAborts() {
        return askedAfterAborts;
    }

    /** @return each journal's last excerpt in the log, by name; the query is idle again */
    Map<String, LogRecords.LastExcerpt> answer() {
        final Map<String, LogRecords.LastExcerpt> taken = answer;
        answer = null;
        state = State.IDLE;
        return taken;
    }

    /** @return why the query failed; the query is idle again */
    RuntimeException failure() {
        final RuntimeException taken = failure;
        failure = null;
        state = State.IDLE;
        return taken;
    }

    @Override
    public int doWork() {
        if (state != State.ASKED) {
            return 0;
        }
        try {
            answer = records.lastExcerpts(records.bounds());
            state = State.ANSWERED;
        } catch (final RuntimeException e) {
            failure = e;
            state = State.FAILED;
        }
        return 1;
    }

    @Override
    public void onClose() {
        records.close();
    }

    @Override
    public String roleName() {
        return "shipper-log-end-query";
    }
}
