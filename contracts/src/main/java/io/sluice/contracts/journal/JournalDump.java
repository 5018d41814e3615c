package io.sluice.contracts.journal;

import io.sluice.contracts.EngineToGateway;
import io.sluice.contracts.GatewayDeliveries;
import io.sluice.contracts.GatewayToEngine;
import net.openhft.chronicle.queue.ChronicleReaderMain;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code ./sluice dump <journal dir> [ChronicleReaderMain options]}: prints a Sluice journal as YAML with
 * Chronicle's own {@link ChronicleReaderMain}, passing it the interface the journal was written with
 * ({@code -r}), which it needs to turn method-writer excerpts back into text. The interface follows from
 * the directory name (see {@link Journals}). Extra options go to Chronicle's reader unchanged, e.g.
 * {@code -f} to follow, {@code -n 0x...} to start at an index, {@code -s} to show indices.
 */
public final class JournalDump {
    private JournalDump() {
    }

    public static void main(final String[] args) {
        if (args.length == 0 || args[0].startsWith("-")) {
            System.err.println("""
                    Usage: ./sluice dump <journal dir> [options of Chronicle's ChronicleReaderMain]
                      <journal dir>  e.g. data/engine, data/gateway-1, data/gateway-1-out
                      -f follow new records, -s show indices, -n <index> start there, -x <n> at most n records""");
            System.exit(args.length == 0 ? 2 : 0);
        }
        final Path dir = Path.of(args[0]);
        if (!Files.isDirectory(dir)) {
            System.err.println("dump: no journal directory " + dir.toAbsolutePath());
            System.exit(1);
        }
        final List<String> readerArgs = new ArrayList<>(List.of("-d", dir.toString(), "-r", interfaceOf(dir).getName()));
        readerArgs.addAll(List.of(args).subList(1, args.length));
        ChronicleReaderMain.main(readerArgs.toArray(String[]::new));
    }

    /** @return the interface the journal in {@code dir} was written with, from its name. */
    public static Class<?> interfaceOf(final Path dir) {
        final String name = dir.toAbsolutePath().normalize().getFileName().toString();
        if (name.equals(Journals.ENGINE)) {
            return EngineToGateway.class;
        }
        if (name.startsWith(Journals.GATEWAY_PREFIX) && name.endsWith(Journals.OUT_SUFFIX)) {
            return GatewayDeliveries.class;
        }
        if (name.startsWith(Journals.GATEWAY_PREFIX)) {
            return GatewayToEngine.class;
        }
        throw new IllegalArgumentException("not a Sluice journal name: " + name + " (expected "
                + Journals.ENGINE + ", " + Journals.GATEWAY_PREFIX + "<id> or " + Journals.GATEWAY_PREFIX
                + "<id>" + Journals.OUT_SUFFIX + ")");
    }
}
