package io.sluice.replication;

/**
 * A newer shipper of the same deployment (the same {@code transactional.id}) called {@code initTransactions()}, so
 * Kafka fenced this one's producer. By Kafka's definition this shipper is a zombie. It stops rather than
 * re-initialise and fence the other back, which would leave two shippers fencing each other in turn. The process exits
 * with {@link ReplicateMain#EXIT_FENCED}; a supervisor should not restart it.
 */
public final class ShipperFencedException extends RuntimeException {
    ShipperFencedException(final String deployment, final String transactionalId, final Throwable cause) {
        super(Shipper.ROLE + ": fenced by a newer shipper of deployment " + deployment + " (transactional.id "
                + transactionalId + "): this shipper stops; run one shipper per deployment", cause);
    }
}
