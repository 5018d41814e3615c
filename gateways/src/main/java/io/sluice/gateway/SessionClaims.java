package io.sluice.gateway;

import net.openhft.chronicle.core.pool.ClassAliasPool;
import net.openhft.chronicle.wire.SelfDescribingMarshallable;
import net.openhft.chronicle.wire.WireType;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The deployment's register of which gateway serves which FIX session, so that two gateways never configure
 * the same CompIDs by accident. Gateways are separate processes with separate configurations; what they share
 * is the journal root, so the register lives there, one file per gateway and session:
 * <pre>
 * &lt;root&gt;/sessions/&lt;SenderCompID&gt;/&lt;TargetCompID&gt;/gateway-&lt;id&gt;.yaml
 * </pre>
 * holding the gateway id and the session's firm.
 * At start a gateway claims every session it configures. It is refused if another gateway holds a claim on the
 * same CompIDs, unless both claims carry the same firm (one firm on purpose, which then shares self-match
 * prevention in the engine). Its own claims from an earlier start are kept (rewritten only if the firm changed), and
 * those of sessions it no longer configures are dropped. Each claim is written whole (to a temporary file, then moved into place), and the
 * other claims are checked again after writing: of two gateways starting at the same moment with clashing
 * sessions, neither goes ahead unseen; each that sees a clash takes back what it wrote and is refused.
 * <p>
 * CompIDs become directory names with {@code %XX} escapes for every byte but letters, digits, {@code _},
 * {@code -} and a {@code .} that is not the first, so every CompID has a directory of its own.
 */
final class SessionClaims {
    /** The register's directory under the journal root. */
    static final String DIRECTORY = "sessions";

    private static final Pattern CLAIM_FILE = Pattern.compile("gateway-(\\d+)\\.yaml");

    static {
        ClassAliasPool.CLASS_ALIASES.addAlias(Claim.class, "SessionClaim");
    }

    private SessionClaims() {
    }

    /**
     * Claims every session of {@code config} for its gateway.
     *
     * @throws IllegalArgumentException naming both gateways, the CompIDs, the claim file and the fix, if another
     *                                  gateway serves one of the sessions and they are not one firm on purpose
     * @throws UncheckedIOException     if the register cannot be read or written
     */
    static void claim(final GatewayConfig config) {
        final Path register = config.journalRoot().resolve(DIRECTORY);
        final int gatewayId = config.gatewayId();
        try {
            refuseClashes(register, config);
            final List<Path> created = new ArrayList<>();
            final Set<Path> mine = new HashSet<>();
            for (final SessionConfig session : config.sessions()) {
                final Path file = claimFile(register, session, gatewayId);
                final Claim claim = new Claim(gatewayId, session.firm());
                if (!Files.exists(file)) {
                    created.add(file);
                    write(file, claim);
                } else if (!holds(file, claim)) {
                    write(file, claim);
                }
                mine.add(file);
            }
            try {
                refuseClashes(register, config);
            } catch (final IllegalArgumentException clash) {
                for (final Path file : created) {
                    Files.deleteIfExists(file);
                }
                throw clash;
            }
            dropStale(register, gatewayId, mine);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot use the session register " + register.toAbsolutePath()
                    + ": " + e.getMessage(), e);
        }
    }

    /** @return the file of {@code gatewayId}'s claim on {@code session} */
    static Path claimFile(final Path register, final SessionConfig session, final int gatewayId) {
        return register.resolve(directoryName(session.senderCompId())).resolve(directoryName(session.targetCompId()))
                .resolve("gateway-" + gatewayId + ".yaml");
    }

    private static void refuseClashes(final Path register, final GatewayConfig config) throws IOException {
        final List<String> clashes = new ArrayList<>();
        for (final SessionConfig session : config.sessions()) {
            final Path directory = claimFile(register, session, config.gatewayId()).getParent();
            if (!Files.isDirectory(directory)) {
                continue;
            }
            try (DirectoryStream<Path> files = Files.newDirectoryStream(directory)) {
                for (final Path file : files) {
                    final Matcher name = CLAIM_FILE.matcher(file.getFileName().toString());
                    if (!name.matches() || Integer.parseInt(name.group(1)) == config.gatewayId()) {
                        continue;
                    }
                    final Claim other = read(file);
                    if (session.firm() == null || !session.firm().equals(other.firm())) {
                        clashes.add(clash(config.gatewayId(), session, file, other));
                    }
                }
            }
        }
        if (!clashes.isEmpty()) {
            throw new IllegalArgumentException(String.join("\n", clashes));
        }
    }

    private static String clash(final int gatewayId, final SessionConfig session, final Path file, final Claim other) {
        return "gateway " + gatewayId + " cannot serve FIX session " + session.senderCompId() + " -> "
                + session.targetCompId() + " (SenderCompID -> TargetCompID): gateway " + other.gatewayId()
                + " of this deployment already serves it (claim file " + file.toAbsolutePath() + ", firm "
                + firmText(other.firm()) + "; this gateway's session: firm " + firmText(session.firm()) + ")."
                + " Two gateways may serve the same CompIDs only as one firm on purpose: set the same 'firm' on this"
                + " session in both gateways' configs, or rename the session (other CompIDs) in one of them. If"
                + " gateway " + other.gatewayId() + " no longer serves this session, delete its claim file.";
    }

    private static String firmText(final String firm) {
        return firm == null ? "none" : "'" + firm + "'";
    }

    /** Deletes this gateway's claims on sessions it no longer configures. */
    private static void dropStale(final Path register, final int gatewayId, final Set<Path> mine) throws IOException {
        final String own = "gateway-" + gatewayId + ".yaml";
        try (Stream<Path> files = Files.find(register, 3, (file, attributes) -> attributes.isRegularFile()
                && file.getFileName().toString().equals(own))) {
            for (final Path file : files.toList()) {
                if (!mine.contains(file)) {
                    Files.deleteIfExists(file);
                }
            }
        }
    }

    private static void write(final Path file, final Claim claim) throws IOException {
        Files.createDirectories(file.getParent());
        final Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(temporary,
                "# A gateway's claim on this FIX session: see the README, gateway section.\n" + claim, StandardCharsets.UTF_8);
        Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** @return whether {@code file} already says {@code claim}: a restart then writes nothing (a full disk starts too) */
    private static boolean holds(final Path file, final Claim claim) throws IOException {
        try {
            return claim.equals(read(file));
        } catch (final IllegalArgumentException unreadable) {
            return false;
        }
    }

    private static Claim read(final Path file) throws IOException {
        final String text = Files.readString(file, StandardCharsets.UTF_8);
        try {
            final Claim claim = WireType.YAML_ONLY.fromString(Claim.class, text);
            if (claim == null || claim.gatewayId() <= 0) {
                throw new IllegalArgumentException("no gateway id");
            }
            return claim;
        } catch (final RuntimeException e) {
            throw new IllegalArgumentException("unreadable session claim " + file.toAbsolutePath() + " ("
                    + e.getMessage() + "): expected '!SessionClaim { gatewayId: <id>, firm: <firm> }'; delete it if"
                    + " no gateway serves that session any more");
        }
    }

    /** @return {@code compId} as one safe directory name, distinct for distinct CompIDs */
    static String directoryName(final String compId) {
        final StringBuilder name = new StringBuilder();
        final byte[] bytes = compId.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < bytes.length; i++) {
            final int b = bytes[i] & 0xFF;
            final boolean plain = (b >= 'A' && b <= 'Z') || (b >= 'a' && b <= 'z') || (b >= '0' && b <= '9')
                    || b == '_' || b == '-' || (b == '.' && i > 0);
            if (plain) {
                name.append((char) b);
            } else {
                name.append('%').append(Character.toUpperCase(Character.forDigit(b >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(b & 0xF, 16)));
            }
        }
        return name.toString();
    }

    /** One gateway's claim on one session, as its file holds it. */
    static final class Claim extends SelfDescribingMarshallable {
        private int gatewayId;
        private String firm;

        Claim(final int gatewayId, final String firm) {
            this.gatewayId = gatewayId;
            this.firm = firm == null ? "" : firm;
        }

        int gatewayId() {
            return gatewayId;
        }

        /** @return the claiming session's firm, or null for none. */
        String firm() {
            return firm == null || firm.isEmpty() ? null : firm;
        }
    }
}
