package io.sluice.replication;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Which deployment a journal root belongs to, and whether it is that deployment's primary (its journals are shipped
 * from here) or a replica (they are rebuilt here): the file {@code <root>/replication/identity}, written the first
 * time a shipper or receiver uses the root and checked every time after, so that a replica root can never receive
 * another deployment's journals, nor a primary root be shipped under another deployment's topics, nor a replica be
 * shipped as if it were a primary.
 */
final class RootIdentity {
    /** The file, relative to the root. */
    static final String RELATIVE_PATH = "replication/identity";

    /** What a root is to its deployment. */
    enum Role {
        PRIMARY, REPLICA
    }

    private RootIdentity() {
    }

    /**
     * Records that {@code root} is {@code role} of {@code deployment}, or checks that it already is.
     *
     * @throws ReplicationRefusedException naming the file, if it says otherwise
     */
    static void claim(final Path root, final String deployment, final Role role, final String process) {
        final Path file = root.resolve(RELATIVE_PATH);
        final String expected = "deployment: " + deployment + "\nrole: " + role.name().toLowerCase() + "\n";
        try {
            if (Files.exists(file)) {
                final String recorded = Files.readString(file, StandardCharsets.UTF_8);
                if (!recorded.equals(expected)) {
                    throw new ReplicationRefusedException(process + ": refused: the root " + root.toAbsolutePath()
                            + " belongs to " + recorded.strip().replace('\n', ',') + " (recorded in " + file.toAbsolutePath()
                            + "), not to deployment: " + deployment + ", role: " + role.name().toLowerCase()
                            + ". Use another root, or the deployment it belongs to.");
                }
                return;
            }
            Files.createDirectories(file.getParent());
            final Path temporary = file.resolveSibling("identity.tmp");
            Files.writeString(temporary, expected, StandardCharsets.UTF_8);
            Files.move(temporary, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot record or read " + file.toAbsolutePath(), e);
        }
    }
}
