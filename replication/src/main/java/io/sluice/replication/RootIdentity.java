package io.sluice.replication;

import io.sluice.runtime.journal.RootRole;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Which deployment a journal root belongs to, and whether it is that deployment's primary (its journals are shipped
 * from here) or a replica (they are rebuilt here): the file {@code <root>/replication/identity}, written the first
 * time a shipper or receiver uses the root and checked every time after, so that a replica root can never receive
 * another deployment's journals, nor a primary root be shipped under another deployment's topics, nor a replica be
 * shipped as if it were a primary. A promoted root is its deployment's primary: it is shipped (a standby that took over
 * ships it under a new epoch of the deployment's transactional.id), and nothing receives into it again.
 */
final class RootIdentity {
    /** The file, relative to the root. */
    static final String RELATIVE_PATH = RootRole.IDENTITY_PATH;

    /** What a root is to its deployment. */
    enum Role {
        PRIMARY, REPLICA,
        /** A replica that {@code ./sluice promote} made the deployment's new primary: no receiver writes into it. */
        PROMOTED
    }

    private RootIdentity() {
    }

    /**
     * Records that {@code root} is {@code role} of {@code deployment}, or checks that it already is ({@link Role#PRIMARY}:
     * or its promoted replica).
     *
     * @throws ReplicationRefusedException naming the file, if it says otherwise
     */
    static void claim(final Path root, final String deployment, final Role role, final String process) {
        final Path file = root.resolve(RELATIVE_PATH);
        final String expected = "deployment: " + deployment + "\nrole: " + role.name().toLowerCase() + "\n";
        try {
            if (Files.exists(file)) {
                final String recorded = Files.readString(file, StandardCharsets.UTF_8);
                if (!recorded.equals(expected) && !(role == Role.PRIMARY && recorded.equals("deployment: " + deployment
                        + "\nrole: " + Role.PROMOTED.name().toLowerCase() + "\n"))) {
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
            Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot record or read " + file.toAbsolutePath(), e);
        }
    }

    /** What the identity file of a root says. */
    record Recorded(String deployment, Role role) {
    }

    /**
     * @return what {@code root}'s identity file records, or null if the root has none (it was never replicated)
     * @throws ReplicationRefusedException if the file cannot be understood, naming it
     */
    static Recorded read(final Path root) {
        final Path file = root.resolve(RELATIVE_PATH);
        if (!Files.exists(file)) {
            return null;
        }
        try {
            final String[] lines = Files.readString(file, StandardCharsets.UTF_8).split("\n");
            if (lines.length == 2 && lines[0].startsWith("deployment: ") && lines[1].startsWith("role: ")) {
                for (final Role role : Role.values()) {
                    if (lines[1].equals("role: " + role.name().toLowerCase())) {
                        return new Recorded(lines[0].substring("deployment: ".length()), role);
                    }
                }
            }
            throw new ReplicationRefusedException("cannot understand " + file.toAbsolutePath()
                    + ": expected 'deployment: <id>' and 'role: primary|replica|promoted'");
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot read " + file.toAbsolutePath(), e);
        }
    }

    /** Records that the replica {@code root} of {@code deployment} is promoted (replacing the file atomically). */
    static void promote(final Path root, final String deployment) {
        final Path file = root.resolve(RELATIVE_PATH);
        try {
            final Path temporary = file.resolveSibling("identity.tmp");
            Files.writeString(temporary, "deployment: " + deployment + "\nrole: "
                    + Role.PROMOTED.name().toLowerCase() + "\n", StandardCharsets.UTF_8);
            Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot write " + file.toAbsolutePath(), e);
        }
    }
}
