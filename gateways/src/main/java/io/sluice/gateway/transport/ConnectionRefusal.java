package io.sluice.gateway.transport;

/** Why the transport closed a connection as soon as it accepted it. */
public enum ConnectionRefusal {
    /** The gateway already holds its maximum number of connections. */
    GATEWAY_LIMIT,
    /** The source address already holds its maximum number of connections. */
    ADDRESS_LIMIT
}
