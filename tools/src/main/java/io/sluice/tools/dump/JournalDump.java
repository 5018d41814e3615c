package io.sluice.tools.dump;

import io.sluice.contracts.AdminCommands;
import io.sluice.contracts.EngineSnapshots;
import io.sluice.contracts.EngineToGateway;
import io.sluice.contracts.GatewayRecords;
import io.sluice.contracts.GatewayToEngine;
import io.sluice.contracts.journal.CorruptJournalException;
import io.sluice.contracts.journal.JournalReader;
import io.sluice.contracts.journal.Journals;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.Wire;
import net.openhft.chronicle.wire.WireType;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code ./sluice dump <journal dir> [-s] [-f] [-n index] [-x count]}: prints a Sluice journal as YAML, every
 * record type of it, as Chronicle's own reader does: each excerpt's calls are read with the interface the
 * journal was written with (which follows from the directory name, see {@link #interfaceOf}) and written back
 * through a method writer of that interface on a YAML wire. Every record's checksum is checked on the way
 * ({@link JournalReader}): a damaged journal stops the dump with a message naming the journal, cycle file,
 * excerpt index and byte offset, and exit code {@value #EXIT_CORRUPT}, never a hang or a silent skip. A journal
 * that ends before its last excerpt (an unreadable excerpt header) is reported the same way
 * ({@link JournalReader#readOneToEnd}). The market-data journal, whose excerpts are batches of feed messages rather
 * than method calls, is printed batch by batch ({@link MarketDataDump}).
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
        if (dir.toAbsolutePath().normalize().getFileName().toString().equals(Journals.MARKET_DATA)) {
            return MarketDataDump.run(dir, showIndex, follow, start, max, out, err);
        }
        final Class<?> type;
        try {
            type = interfaceOf(dir);
        } catch (final IllegalArgumentException e) {
            err.println("dump: " + e.getMessage());
            return 1;
        }
        try (ChronicleQueue journal = Journals.openReadOnly(dir); ExcerptTailer tailer = journal.createTailer()) {
            if (start >= 0 && !tailer.moveToIndex(start)) {
                err.println("dump: no excerpt at index 0x" + Long.toHexString(start) + " in " + dir.toAbsolutePath());
                return 1;
            }
            final Wire yaml = WireType.YAML_ONLY.apply(Bytes.allocateElasticOnHeap(1024));
            final IdleStrategy idle = new BackoffIdleStrategy();
            try (JournalReader reader = new JournalReader(journal, tailer, yaml.methodWriter(type))) {
                long printed = 0;
                while (printed < max) {
                    if (follow ? reader.readOne() : reader.readOneToEnd()) {
                        if (yaml.bytes().readRemaining() > 0) {
                            if (showIndex) {
                                out.println("# index 0x" + Long.toHexString(tailer.lastReadIndex()));
                            }
                            out.print(yaml.bytes());
                            yaml.clear();
                            printed++;
                        }
                        idle.reset();
                    } else if (follow) {
                        idle.idle();
                    } else {
                        break;
                    }
                }
            }
            out.flush();
            return 0;
        } catch (final CorruptJournalException e) {
            out.flush();
            err.println("dump: stopped on a damaged journal: " + e.getMessage());
            return EXIT_CORRUPT;
        }
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
