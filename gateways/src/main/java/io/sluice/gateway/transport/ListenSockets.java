package io.sluice.gateway.transport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

/**
 * A gateway's listening sockets, bound before the transport that accepts on them. A gateway binds them as it starts; one
 * started by a standby binds them while it still waits for the promoted root, so that its clients' connections wait in
 * the backlog, unanswered, until it serves, and closes them again if the standby stands by again.
 */
public final class ListenSockets implements AutoCloseable {
    /** Connections the kernel queues on each socket until the gateway accepts them. */
    static final int BACKLOG = 256;

    private final List<ListenAddress> addresses;
    private final List<ServerSocketChannel> servers;

    private ListenSockets(final List<ListenAddress> addresses, final List<ServerSocketChannel> servers) {
        this.addresses = List.copyOf(addresses);
        this.servers = servers;
    }

    /**
     * Binds every address, in order (a Unix domain socket's stale file replaced).
     *
     * @throws UncheckedIOException naming the address that cannot be listened on (none is left bound)
     */
    public static ListenSockets bind(final List<ListenAddress> listens) {
        final ListenSockets sockets = new ListenSockets(listens, new ArrayList<>());
        try {
            for (final ListenAddress listen : listens) {
                sockets.servers.add(bind(listen));
            }
        } catch (final RuntimeException e) {
            sockets.close();
            throw e;
        }
        return sockets;
    }

    private static ServerSocketChannel bind(final ListenAddress listen) {
        try {
            if (listen.address() instanceof UnixDomainSocketAddress unix) {
                Files.deleteIfExists(unix.getPath());
            }
            final ServerSocketChannel server = ServerSocketChannel.open(listen.family());
            try {
                if (listen.family() == StandardProtocolFamily.INET) {
                    server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
                }
                server.bind(listen.address(), BACKLOG);
                server.configureBlocking(false);
            } catch (final IOException e) {
                server.close();
                throw e;
            }
            return server;
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot listen on " + ListenAddress.format(listen.address(), listen.tls())
                    + ": " + e, e);
        }
    }

    /** @return where the sockets listen, as configured, in order */
    List<ListenAddress> addresses() {
        return addresses;
    }

    /** @return the {@code index}th socket, bound to the {@code index}th address */
    ServerSocketChannel server(final int index) {
        return servers.get(index);
    }

    /** Closes every socket: connections still in a backlog are refused; a Unix domain socket's file is deleted. */
    @Override
    public void close() {
        try {
            for (int i = 0; i < servers.size(); i++) {
                servers.get(i).close();
                if (addresses.get(i).address() instanceof UnixDomainSocketAddress unix) {
                    Files.deleteIfExists(unix.getPath());
                }
            }
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
