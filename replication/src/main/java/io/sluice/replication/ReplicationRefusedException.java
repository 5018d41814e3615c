package io.sluice.replication;

/**
 * Replication stops rather than go on with journals it cannot prove equal. A replica root of another deployment, a
 * record whose index is not the next one, bytes that differ from what a journal holds at that index, a broker that lost
 * records. The message names the journal, the index and the reason; the process exits with
 * {@link ReplicateMain#EXIT_REFUSED}.
 */
public final class ReplicationRefusedException extends RuntimeException {
    public ReplicationRefusedException(final String message) {
        super(message);
    }

    /** @return a refusal about {@code journal} at {@code index}, written as {@code 0x...} and cycle/sequence */
    static ReplicationRefusedException at(final String role, final JournalName journal, final long index,
                                         final String reason) {
        return new ReplicationRefusedException(role + ": journal " + journal + ", index " + IndexText.of(index) + ": " + reason);
    }
}
