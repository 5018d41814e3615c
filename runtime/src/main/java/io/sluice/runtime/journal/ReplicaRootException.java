package io.sluice.runtime.journal;

/**
 * An engine or gateway was started on a journal root that is still a replica (a replication receiver fills it). Its
 * journals must not be written by anything else until the root is promoted ({@code ./sluice promote}).
 */
public final class ReplicaRootException extends IllegalArgumentException {
    public ReplicaRootException(final String message) {
        super(message);
    }
}
