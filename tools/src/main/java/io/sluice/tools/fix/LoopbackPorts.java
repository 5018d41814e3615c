package io.sluice.tools.fix;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/** Picks free TCP ports on 127.0.0.1 for acceptors the demo, benchmarks and tests start as child processes. */
public final class LoopbackPorts {
    private LoopbackPorts() {
    }

    /** @return a port nothing listens on right now (the OS's choice of an ephemeral port). */
    public static int free() {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress("127.0.0.1", 0));
            return socket.getLocalPort();
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot find a free TCP port on 127.0.0.1", e);
        }
    }
}
