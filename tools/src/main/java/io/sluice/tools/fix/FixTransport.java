package io.sluice.tools.fix;

/** How a FIX client reaches a FIX acceptor on this host: TCP over loopback, or a Unix domain socket. */
public enum FixTransport {
    TCP,
    UDS;

    /** @return the transport named {@code text} ("tcp" or "uds", any case). */
    public static FixTransport parse(final String text) {
        return switch (text.toLowerCase(java.util.Locale.ROOT)) {
            case "tcp" -> TCP;
            case "uds", "unix" -> UDS;
            default -> throw new IllegalArgumentException("unknown transport '" + text + "': use tcp or uds");
        };
    }
}
