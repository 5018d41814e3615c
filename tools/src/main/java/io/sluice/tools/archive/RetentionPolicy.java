package io.sluice.tools.archive;

import io.sluice.contracts.journal.Journals;
import io.sluice.engine.config.EngineConfig;
import io.sluice.engine.snapshot.SnapshotPositions;
import io.sluice.gateway.SessionStoreRecovery;
import io.sluice.runtime.counters.AcknowledgedIndexReader;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.RollCycles;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.NanoClock;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Which day files ({@code yyyyMMdd'F'.cq4} cycles) of a stopped deployment's journals may leave it. Those older than
 * the last {@code keepDays} UTC days (today included) that nothing still needs. Kept whatever their age:
 * <ul>
 *   <li>today's cycle, and the newest cycle of every journal (its writer goes on there);</li>
 *   <li>what the engine's restart reads: from the newest snapshot it would use ({@link SnapshotPositions}), the engine
 *   journal from that snapshot's engine index (its consumption order is read on from there) and each gateway journal
 *   from the snapshot's position in it; with no usable snapshot, all of both, since the restart re-runs every input;</li>
 *   <li>what a replay from any snapshot still kept needs, in the same way, and the snapshot journal from the newest
 *   usable snapshot on;</li>
 *   <li>what each gateway's restart reads: its own journal from its newest checkpoint ({@link SessionStoreRecovery}; all
 *   of it without one), its command journal from the day of that checkpoint, and the engine journal from the
 *   excerpt of the last report it delivered (all of it if it delivered none);</li>
 *   <li>what the replication shipper, if the deployment has one, has not had Kafka acknowledge yet;</li>
 *   <li>every day of the admin journal, and of anything else under the root (snapshots do not record the admin
 *   journal's position yet), which this policy leaves alone.</li>
 * </ul>
 * FIX resends need nothing beyond {@code keepDays}: the messages of a day that has left are answered with
 * SequenceReset-GapFill. Reads every journal read-only; decides, moves nothing.
 */
public final class RetentionPolicy {
    private static final Pattern CYCLE_FILE = Pattern.compile("(\\d{8})F\\.cq4");
    private static final Pattern GATEWAY = Pattern.compile(Pattern.quote(Journals.GATEWAY_PREFIX) + "(\\d+)");
    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("yyyyMMdd");

    /** One day file of one journal, and what becomes of it. */
    public record Decision(String journal, Path file, int cycle, boolean move, String reason) {
        /** @return the day the file holds, e.g. 2026-11-25 */
        public LocalDate day() {
            return LocalDate.ofEpochDay(cycle);
        }
    }

    /**
     * What the policy decided.
     *
     * @param decisions one per day file, by journal then day
     * @param notes     what the decisions rest on (the snapshot used, what has none), for the operator
     */
    public record Plan(List<Decision> decisions, List<String> notes) {
        /** @return the files to move */
        public List<Decision> moves() {
            return decisions.stream().filter(Decision::move).toList();
        }
    }

    /** A day from which on a journal is needed, and by what. */
    private record Need(int fromCycle, String reason) {
    }

    private final Path root;
    private final int keepDays;
    private final int today;
    private final EngineConfig config;
    private final NanoClock clock;
    private final Map<String, List<Need>> needs = new TreeMap<>();
    private final List<String> notes = new ArrayList<>();

    /**
     * @param root     the deployment's journal root
     * @param keepDays how many UTC days, today included, are kept whatever else is needed (at least 1)
     * @param today    today's UTC day
     * @param config   the engine config the engine restarts with (its gateways; snapshots are checked against it),
     *                 or null: the gateways are the {@code gateway-N} journals under the root, and snapshots are not
     *                 checked against a config
     * @param clock    paces the reader of the shipper's acknowledged index ({@link AcknowledgedIndexReader})
     */
    public RetentionPolicy(final Path root, final int keepDays, final LocalDate today, final EngineConfig config,
                           final NanoClock clock) {
        if (keepDays < 1) {
            throw new IllegalArgumentException("--keep-days must be at least 1 (today), got " + keepDays);
        }
        this.root = root;
        this.keepDays = keepDays;
        this.today = (int) today.toEpochDay();
        this.config = config;
        this.clock = clock;
    }

    /** @return which day files may move and why each other one stays */
    public Plan plan() {
        final Map<String, List<Integer>> journals = journals();
        final int[] gatewayIds = config != null ? config.gatewayIds() : gatewayIds(journals);
        engineRestartAndReplays(journals, gatewayIds);
        gatewayRestarts(journals);
        replication(journals);
        final List<Decision> decisions = new ArrayList<>();
        final int windowStart = today - keepDays + 1;
        for (final Map.Entry<String, List<Integer>> journal : journals.entrySet()) {
            final String name = journal.getKey();
            final List<Integer> cycles = journal.getValue();
            final int newest = cycles.get(cycles.size() - 1);
            for (final int cycle : cycles) {
                decisions.add(decide(name, cycle, newest, windowStart));
            }
        }
        return new Plan(List.copyOf(decisions), List.copyOf(notes));
    }

    private Decision decide(final String journal, final int cycle, final int newest, final int windowStart) {
        final Path file = root.resolve(journal).resolve(fileName(cycle));
        if (cycle >= today) {
            return new Decision(journal, file, cycle, false, "today (UTC)");
        }
        if (cycle == newest) {
            return new Decision(journal, file, cycle, false, "the journal's newest day: its writer goes on there");
        }
        if (!journal.equals(Journals.ENGINE) && !journal.equals(Journals.SNAPSHOTS) && !isGateway(journal)
                && !isGatewayOut(journal)) {
            return new Decision(journal, file, cycle, false, journal.equals(Journals.ADMIN)
                    ? "the admin journal keeps every day: snapshots do not record its position yet"
                    : "not a journal this policy knows: left alone");
        }
        final List<String> reasons = new ArrayList<>();
        for (final Need need : needs.getOrDefault(journal, List.of())) {
            if (need.fromCycle() <= cycle) {
                reasons.add(need.reason());
            }
        }
        if (!reasons.isEmpty()) {
            return new Decision(journal, file, cycle, false, "needed by " + String.join("; and by ", reasons));
        }
        if (cycle >= windowStart) {
            return new Decision(journal, file, cycle, false, "within --keep-days " + keepDays);
        }
        return new Decision(journal, file, cycle, true, "older than " + keepDays + " days, needed by no restart, replay"
                + " or resend");
    }

    private void engineRestartAndReplays(final Map<String, List<Integer>> journals, final int[] gatewayIds) {
        if (!journals.containsKey(Journals.ENGINE)) {
            return;
        }
        final List<SnapshotPositions.Snapshot> snapshots = SnapshotPositions.read(root, config, gatewayIds);
        SnapshotPositions.Snapshot newest = null;
        for (final SnapshotPositions.Snapshot snapshot : snapshots) {
            if (snapshot.usable()) {
                newest = snapshot;
            } else {
                notes.add(String.format("snapshot at index 0x%x (engine index 0x%x) would not be used by a restart: %s",
                        snapshot.beginIndex(), snapshot.engineIndex(), snapshot.unusable()));
            }
        }
        if (config == null) {
            notes.add("no --config: snapshots were checked for being whole and matching the journals, not against the"
                    + " engine config a restart runs with (pass --config engine.yaml to check them as the restart does)");
        }
        if (newest == null) {
            final String why = "the engine's restart: there is no valid snapshot, so it re-runs every input from the"
                    + " start (everything the engine needs is kept)";
            notes.add("no valid snapshot: every day of the engine and gateway journals is kept");
            need(Journals.ENGINE, Integer.MIN_VALUE, why);
            for (final int id : gatewayIds) {
                need(Journals.GATEWAY_PREFIX + id, Integer.MIN_VALUE, why);
            }
            return;
        }
        notes.add(String.format("newest valid snapshot: engine index 0x%x (%,d inputs), snapshot journal index 0x%x",
                newest.engineIndex(), newest.inputs(), newest.beginIndex()));
        need(Journals.SNAPSHOTS, cycleOf(newest.beginIndex()),
                String.format("the newest valid snapshot (snapshot journal index 0x%x)", newest.beginIndex()));
        needFrom(newest, gatewayIds, "the engine's restart from the newest valid snapshot");
        final int snapshotsKeptFrom = Math.min(cycleOf(newest.beginIndex()), today - keepDays + 1);
        for (final SnapshotPositions.Snapshot kept : snapshots) {
            if (kept != newest && kept.usable() && cycleOf(kept.beginIndex()) >= snapshotsKeptFrom) {
                needFrom(kept, gatewayIds, String.format("a replay from the kept snapshot at engine index 0x%x",
                        kept.engineIndex()));
            }
        }
    }

    /** What a start from {@code snapshot} reads: the engine journal from its index, each gateway's from its position. */
    private void needFrom(final SnapshotPositions.Snapshot snapshot, final int[] gatewayIds, final String who) {
        need(Journals.ENGINE, cycleOf(snapshot.engineIndex()),
                String.format("%s (it reads on from engine index 0x%x)", who, snapshot.engineIndex()));
        for (final int id : gatewayIds) {
            final SnapshotPositions.Source source = snapshot.source(id);
            if (source == null) {
                need(Journals.GATEWAY_PREFIX + id, Integer.MIN_VALUE,
                        who + " (it includes no input of gateway " + id + ", so it reads that journal from the start)");
            } else {
                need(Journals.GATEWAY_PREFIX + id, cycleOf(source.journalIndex()), String.format(
                        "%s (it reads on after event %d at index 0x%x)", who, source.eventId(), source.journalIndex()));
            }
        }
    }

    private void gatewayRestarts(final Map<String, List<Integer>> journals) {
        for (final String commands : journals.keySet()) {
            if (!isGateway(commands)) {
                continue;
            }
            final String name = commands + Journals.OUT_SUFFIX;
            final String gateway = "gateway " + commands.substring(Journals.GATEWAY_PREFIX.length());
            if (!journals.containsKey(name)) {
                final String why = gateway + "'s restart (its own journal " + name + " holds nothing, so it counts every"
                        + " command and delivers every report of the engine journal from the start)";
                need(commands, Integer.MIN_VALUE, why);
                need(Journals.ENGINE, Integer.MIN_VALUE, why);
                continue;
            }
            final SessionStoreRecovery recovered;
            try (ChronicleQueue out = Journals.openReadOnly(root.resolve(name))) {
                recovered = SessionStoreRecovery.read(out);
            }
            final long checkpoint = recovered.lastCheckpointIndex();
            if (checkpoint < 0) {
                final String why = gateway + "'s restart (its journal holds no checkpoint: a gateway of journal format 5"
                        + " writes one at every start and every new day; until then it reads its journals whole)";
                need(name, Integer.MIN_VALUE, why);
                need(commands, Integer.MIN_VALUE, why);
            } else {
                need(name, cycleOf(checkpoint), String.format("%s's restart (it recovers its sessions from its newest"
                        + " checkpoint, index 0x%x)", gateway, checkpoint));
                need(commands, cycleOf(checkpoint), String.format("%s's restart (it re-reads the commands written since"
                        + " its newest checkpoint, index 0x%x of %s)", gateway, checkpoint, name));
            }
            final long delivered = recovered.deliveredEngineIndex();
            if (delivered == 0) {
                need(Journals.ENGINE, Integer.MIN_VALUE, gateway + "'s restart (it has recorded no report delivered, so"
                        + " it reads the engine journal from the start)");
            } else {
                need(Journals.ENGINE, cycleOf(delivered), String.format("%s's restart (it resumes delivering reports at"
                        + " engine index 0x%x)", gateway, delivered));
            }
        }
    }

    private void replication(final Map<String, List<Integer>> journals) {
        if (!Files.exists(AcknowledgedIndexReader.path(root))) {
            return;
        }
        for (final String name : journals.keySet()) {
            try (AcknowledgedIndexReader reader = new AcknowledgedIndexReader(root, name, clock)) {
                final long acknowledged = reader.acknowledgedIndex();
                if (acknowledged == AcknowledgedIndexReader.NOTHING_ACKNOWLEDGED) {
                    need(name, Integer.MIN_VALUE, "replication (the shipper has had Kafka acknowledge none of it)");
                } else {
                    need(name, cycleOf(acknowledged), String.format("replication (the shipper has had Kafka"
                            + " acknowledge it up to index 0x%x only)", acknowledged));
                }
            }
        }
    }

    private void need(final String journal, final int fromCycle, final String reason) {
        needs.computeIfAbsent(journal, j -> new ArrayList<>()).add(new Need(fromCycle, reason));
    }

    /** @return every journal directory under the root with its day files' cycles, oldest first (none: left out) */
    private Map<String, List<Integer>> journals() {
        final Map<String, List<Integer>> journals = new TreeMap<>();
        try (Stream<Path> dirs = Files.list(root)) {
            for (final Path dir : dirs.filter(d -> Files.exists(d.resolve("metadata.cq4t"))).toList()) {
                final List<Integer> cycles = new ArrayList<>();
                try (Stream<Path> files = Files.list(dir)) {
                    for (final Path file : files.toList()) {
                        final Matcher matcher = CYCLE_FILE.matcher(file.getFileName().toString());
                        if (matcher.matches()) {
                            try {
                                cycles.add((int) LocalDate.parse(matcher.group(1), DAY).toEpochDay());
                            } catch (final DateTimeParseException notADay) {
                                // not a day file: left alone
                            }
                        }
                    }
                }
                if (!cycles.isEmpty()) {
                    cycles.sort(Comparator.naturalOrder());
                    journals.put(dir.getFileName().toString(), cycles);
                }
            }
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot list " + root.toAbsolutePath(), e);
        }
        return journals;
    }

    private static int[] gatewayIds(final Map<String, List<Integer>> journals) {
        return journals.keySet().stream().map(GATEWAY::matcher).filter(Matcher::matches)
                .mapToInt(m -> Integer.parseInt(m.group(1))).sorted().toArray();
    }

    private static boolean isGateway(final String name) {
        return GATEWAY.matcher(name).matches();
    }

    private static boolean isGatewayOut(final String name) {
        return name.endsWith(Journals.OUT_SUFFIX) && isGateway(name.substring(0, name.length() - Journals.OUT_SUFFIX.length()));
    }

    /** @return the day (cycle) of the excerpt at {@code index} of a daily journal */
    static int cycleOf(final long index) {
        return RollCycles.FAST_DAILY.toCycle(index);
    }

    /** @return the name of the day file of {@code cycle}, as Chronicle names it (see {@link Journals#cycleFile}) */
    static String fileName(final int cycle) {
        return LocalDate.ofEpochDay(cycle).format(DAY) + "F.cq4";
    }

    /** @return today's UTC day by {@code clock} */
    static LocalDate todayUtc(final EpochClock clock) {
        return LocalDate.ofInstant(Instant.ofEpochMilli(clock.time()), ZoneOffset.UTC);
    }
}
