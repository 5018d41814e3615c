package io.sluice.tools.fix;

import java.util.Locale;

/**
 * How a FIX client reaches a FIX acceptor on this host. TCP over loopback, a Unix domain socket, or TLS over TCP (the
 * JDK's TLS, keys made by keytool for the run).
 */
public enum FixTransport {
    TCP,
    UDS,
    TLS;

    /** @return the transport named {@code text} ("tcp" or "uds", any case). */
    public static FixTransport parse(final String text) {
        return switch (text.toLowerCase(Locale.ROOT)) {
            case "tcp" -> TCP;
            case "uds", "unix" -> UDS;
            case "tls" -> TLS;
            default -> throw new IllegalArgumentException("unknown transport '" + text + "': use tcp, uds or tls");
        };
    }
}
