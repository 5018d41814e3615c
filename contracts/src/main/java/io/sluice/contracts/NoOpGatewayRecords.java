package io.sluice.contracts;

/**
 * A {@link GatewayRecords} that ignores every record of a gateway's own journal. A reader of that journal extends it
 * and overrides only the records it reads; used as is, it reads past every record (a journal check). Method readers
 * dispatch to the overrides of a subclass as to any implementation.
 */
public class NoOpGatewayRecords implements GatewayRecords {
    @Override
    public void sent(final SentMessage message) {
    }

    @Override
    public void received(final SessionProgress progress) {
    }

    @Override
    public void reset(final SessionProgress progress) {
    }

    @Override
    public void checkpoint(final SessionCheckpoint checkpoint) {
    }

    @Override
    public void adminAnswered(final AdminOutcome outcome) {
    }

    @Override
    public void delivered(final Delivery delivery) {
    }
}
