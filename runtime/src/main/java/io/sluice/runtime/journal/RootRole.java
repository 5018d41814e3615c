package io.sluice.runtime.journal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What a journal root is to replication, as recorded in {@code <root>/replication/identity}. The shipper, the receiver
 * and {@code ./sluice promote} write it ({@code deployment: <id>} and {@code role: primary|replica|promoted}); an
 * engine and a gateway check it before they open a root's journals, so that neither writes into a replica that a
 * receiver fills. A root without the file was never replicated; a primary or promoted root is served.
 */
public final class RootRole {
    /** The identity file, relative to the root. */
    public static final String IDENTITY_PATH = "replication/identity";
    /** The identity file's line of a replica root. */
    public static final String REPLICA_LINE = "role: replica";

    private RootRole() {
    }

    /**
     * @param process who asks, for the message ({@code engine}, {@code gateway 2})
     * @throws ReplicaRootException if {@code root} is a replica, naming the file and saying how to promote it
     */
    public static void requireNotReplica(final Path root, final String process) {
        final Path file = root.resolve(IDENTITY_PATH);
        if (!Files.isRegularFile(file)) {
            return;
        }
        final String identity;
        try {
            identity = Files.readString(file, StandardCharsets.UTF_8);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot read " + file.toAbsolutePath(), e);
        }
        if (identity.lines().anyMatch(REPLICA_LINE::equals)) {
            throw new ReplicaRootException(process + ": refused to start on " + root.toAbsolutePath()
                    + ": it is a replica root (" + file.toAbsolutePath() + ": " + identity.strip().replace('\n', ',')
                    + "), filled by a replication receiver. To take over on it, stop the receiver and promote it first:"
                    + " ./sluice promote --root " + root.toAbsolutePath());
        }
    }
}
