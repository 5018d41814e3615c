package io.sluice.tools.dump;

import io.sluice.contracts.AdminCommands;
import io.sluice.contracts.EngineSnapshots;
import io.sluice.contracts.EngineToGateway;
import io.sluice.contracts.GatewayRecords;
import io.sluice.contracts.GatewayToEngine;
import io.sluice.contracts.journal.Journals;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code ./sluice dump <journal dir> [-s] [-f] [-n index] [-x count]}: prints any Sluice journal as YAML.
 * A journal of method calls is read with the interface it was written with, which follows from the directory name
 * ({@link #interfaceOf}), and printed as Chronicle's own reader does ({@link MethodCallDump}); the market-data
 * journal, whose excerpts are batches of feed messages, batch by batch ({@link MarketDataDump}). Both run in one loop
 * ({@link DumpLoop}) that checks every record's checksum and tells the journal's end from a damaged excerpt header: a
 * damaged journal stops the dump with a message naming the journal, cycle file, excerpt index and byte offset, and
 * exit code {@value #EXIT_CORRUPT}, never a hang or a silent skip.
 */
public final class JournalDump {
    /** Exit code when the journal is damaged. */
    public static final int EXIT_CORRUPT = 3;
    private static final String USAGE = """
            Usage: ./sluice dump <journal dir> [-s] [-f] [-n <index>] [-x <count>]
              <journal dir>  e.g. data/engine, data/gateway-1, data/gateway-1-out, data/snapshots, data/marketdata
              -s show each excerpt's index, -f follow new records, -n <index> start there (0x... or decimal),
              -x <count> at most that many excerpts""";

    private JournalDump() {
    }

    public static void main(final String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** @return the exit code: 0, 1 (no journal), 2 (usage) or {@value #EXIT_CORRUPT} (damaged) */
    static int run(final String[] args, final PrintStream out, final PrintStream err) {
        if (args.length == 0 || args[0].startsWith("-")) {
            err.println(USAGE);
            return args.length == 0 ? 2 : 0;
        }
        final Path dir = Path.of(args[0]);
        boolean showIndex = false;
        boolean follow = false;
        long start = -1;
        long max = Long.MAX_VALUE;
        for (int i = 1; i < args.length; i++) {
            switch (args[i]) {
                case "-s" -> showIndex = true;
                case "-f" -> follow = true;
                case "-n" -> start = i + 1 < args.length ? Long.decode(args[++i]) : -2;
                case "-x" -> max = i + 1 < args.length ? Long.parseLong(args[++i]) : -2;
                default -> {
                    err.println("dump: unknown option " + args[i] + "\n" + USAGE);
                    return 2;
                }
            }
        }
        if (start == -2 || max == -2) {
            err.println(USAGE);
            return 2;
        }
        if (!Files.isDirectory(dir)) {
            err.println("dump: no journal directory " + dir.toAbsolutePath());
            return 1;
        }
        final DumpLoop.PrinterFactory printers;
        if (dir.toAbsolutePath().normalize().getFileName().toString().equals(Journals.MARKET_DATA)) {
            printers = MarketDataDump::new;
        } else {
            try {
                printers = MethodCallDump.of(interfaceOf(dir));
            } catch (final IllegalArgumentException e) {
                err.println("dump: " + e.getMessage());
                return 1;
            }
        }
        return DumpLoop.run(dir, printers, showIndex, follow, start, max, out, err);
    }

    /** @return the interface the journal in {@code dir} was written with, from its name. */
    public static Class<?> interfaceOf(final Path dir) {
        final String name = dir.toAbsolutePath().normalize().getFileName().toString();
        if (name.equals(Journals.ENGINE)) {
            return EngineToGateway.class;
        }
        if (name.equals(Journals.SNAPSHOTS)) {
            return EngineSnapshots.class;
        }
        if (name.equals(Journals.ADMIN)) {
            return AdminCommands.class;
        }
        if (name.startsWith(Journals.GATEWAY_PREFIX) && name.endsWith(Journals.OUT_SUFFIX)) {
            return GatewayRecords.class;
        }
        if (name.startsWith(Journals.GATEWAY_PREFIX)) {
            return GatewayToEngine.class;
        }
        throw new IllegalArgumentException("not a Sluice journal name: " + name + " (expected "
                + Journals.ENGINE + ", " + Journals.SNAPSHOTS + ", " + Journals.ADMIN + ", " + Journals.GATEWAY_PREFIX
                        + "<id> or " + Journals.GATEWAY_PREFIX
                + "<id>" + Journals.OUT_SUFFIX + ")");
    }
}
