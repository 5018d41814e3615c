package io.sluice.gateway;

import io.sluice.runtime.process.JavaProcess;
import io.sluice.testkit.fix.TestFixClient;

import java.io.IOException;
import java.net.UnixDomainSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A deployment of one gateway in a test's directory, for the tests that run the gateway as a real child process
 * and kill or restart it: gateway 1, its journals under {@code journals/}, listening on the Unix domain socket
 * {@code gw.sock}, with one session, {@value #SESSION} (password {@value #PASSWORD}), and the backoff idle strategy.
 */
final class OneSessionGateway {
    /** The one session's SenderCompID. */
    static final String SESSION = "CLIENT1";
    /** The one session's password. */
    static final String PASSWORD = "secret1";

    private final Path dir;
    private final Path journals;
    private final Path socket;
    private final Path config;

    /** Writes the gateway's configuration ({@code gateway.yaml}) into {@code dir}; starts nothing. */
    OneSessionGateway(final Path dir) throws IOException {
        this.dir = dir;
        journals = dir.resolve("journals");
        socket = dir.resolve("gw.sock");
        config = dir.resolve("gateway.yaml");
        Files.writeString(config, """
                !GatewayConfig {
                  gatewayId: 1,
                  journalRoot: "%s",
                  listen: "unix:%s",
                  idle: backoff,
                  sessions: [ !Session { senderCompId: %s, targetCompId: SLUICE, password: %s } ]
                }
                """.formatted(journals, socket, SESSION, PASSWORD));
    }

    /** @return the deployment's journal root: the gateway's journals, the engine's and the admin journal */
    Path journals() {
        return journals;
    }

    /** Starts the gateway process, its log {@code <name>.log}, and waits until it listens. */
    JavaProcess start(final String name) throws Exception {
        return GatewayProcess.startListening(dir, name, config);
    }

    /** Starts the gateway process, its log {@code <name>.log}, without waiting for it (for starts it refuses). */
    JavaProcess launch(final String name) throws Exception {
        return GatewayProcess.start(dir, name, config);
    }

    /** @return a client of the session, connected, whose next message will carry MsgSeqNum {@code nextSeq} */
    TestFixClient connect(final long nextSeq) throws IOException {
        return new TestFixClient(UnixDomainSocketAddress.of(socket), SESSION, nextSeq);
    }
}
