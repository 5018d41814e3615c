package io.sluice.engine;

import io.sluice.contracts.AdminOutcome;
import io.sluice.contracts.CancelReject;
import io.sluice.contracts.ExecutionReport;
import io.sluice.contracts.MassCancelReport;
import io.sluice.engine.config.EngineConfig;

/**
 * What the engine thread counts as it goes: live commands, reports, the books' depth, idle turns. The engine config's
 * {@code counters} chooses, once at start, between the counters file ({@link MappedEngineCounters}, {@code
 * <root>/counters/engine.counters}, read by {@code ./sluice stat} and {@code ./sluice metrics}) and {@link #NONE},
 * which keeps nothing: no file and, on the hot path, no counter write and no flag tested per update (each call site
 * only ever sees one implementation in a process, so the JIT inlines it, the empty one to nothing).
 */
public interface EngineCounters extends AutoCloseable {
    /** The engine's process name, and so its counters file's: {@code <root>/counters/engine.counters}. */
    String PROCESS = "engine";

    /** Counts nothing: the engine with {@code counters: false}. */
    EngineCounters NONE = new Uncounted();

    /** @return the engine's counters as its config says: the counters file (created or rewritten), or {@link #NONE} */
    static EngineCounters open(final EngineConfig config) {
        return config.counters() ? new MappedEngineCounters(config) : NONE;
    }

    /** @return {@code engine}, counting each live command by type and noting the eventId consumed from its source */
    EngineInput counting(EngineInput engine);

    /** Counts a report written to the engine journal (live). */
    void onReport(ExecutionReport report);

    /** Counts a cancel reject written to the engine journal (live). */
    void onReport(CancelReject reject);

    /** Counts a mass cancel report written to the engine journal (live), and the orders it canceled. */
    void onReport(MassCancelReport report);

    /** Counts an admin outcome written to the engine journal (live), and whether it was a refusal. */
    void onReport(AdminOutcome outcome);

    /** After a turn of the engine loop that processed commands: the books' depth and the journal's last index. */
    void afterWork(Engine engine, long lastIndexAppended);

    /** After recovery, before the first live command: what the re-run inputs left (each firm's limits and use). */
    void afterRecovery(Engine engine);

    /** After a turn of the engine loop that found nothing to do. */
    void onIdle(Engine engine);

    @Override
    void close();

    /** {@link #NONE}: every update does nothing, and the commands go to the engine unwrapped. */
    final class Uncounted implements EngineCounters {
        private Uncounted() {
        }

        @Override
        public EngineInput counting(final EngineInput engine) {
            return engine;
        }

        @Override
        public void onReport(final ExecutionReport report) {
        }

        @Override
        public void onReport(final CancelReject reject) {
        }

        @Override
        public void onReport(final MassCancelReport report) {
        }

        @Override
        public void onReport(final AdminOutcome outcome) {
        }

        @Override
        public void afterWork(final Engine engine, final long lastIndexAppended) {
        }

        @Override
        public void afterRecovery(final Engine engine) {
        }

        @Override
        public void onIdle(final Engine engine) {
        }

        @Override
        public void close() {
        }
    }
}
