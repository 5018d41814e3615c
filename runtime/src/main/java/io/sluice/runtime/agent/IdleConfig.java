package io.sluice.runtime.agent;

import net.openhft.chronicle.wire.SelfDescribingMarshallable;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

import java.util.List;
import java.util.Locale;

/**
 * What a thread does when its agent found no work: the one idle vocabulary of every Sluice config and command line.
 * The strategy is named by Agrona's own alias ({@code noop}, {@code spin}, {@code yield}, {@code sleep-ns},
 * {@code sleep-ms}, {@code backoff}); the parameters keep Agrona's names and apply to the strategy that uses them.
 * In YAML, under the key {@code idle} of the engine's and the gateway's config, any key may be left out, and a
 * strategy with default parameters may be given by its alias alone:
 * <pre>
 *   idle: { strategy: backoff, maxSpins: 100, maxYields: 10, minParkPeriodNs: 1000, maxParkPeriodNs: 100000 },
 *   idle: yield,
 * </pre>
 * The default, backoff, spins a little, yields a little, then parks from 1 µs up to 100 µs: it behaves on a 2-core
 * machine, where a thread that spins takes a core from the others; {@code spin} is for hosts with a core to spare
 * per spinning thread. Parks that short need fine timer slack, which {@link AgentThread} gives every agent thread.
 */
public final class IdleConfig extends SelfDescribingMarshallable {
    /** Agrona's aliases, in the order the messages list them. */
    public static final List<String> ALIASES = List.of(NoOpIdleStrategy.ALIAS, BusySpinIdleStrategy.ALIAS,
            YieldingIdleStrategy.ALIAS, SleepingIdleStrategy.ALIAS, SleepingMillisIdleStrategy.ALIAS,
            BackoffIdleStrategy.ALIAS);
    static final long DEFAULT_MAX_SPINS = 100;
    static final long DEFAULT_MAX_YIELDS = 10;
    static final long DEFAULT_MIN_PARK_PERIOD_NS = 1_000;
    static final long DEFAULT_MAX_PARK_PERIOD_NS = 100_000;

    private String strategy = BackoffIdleStrategy.ALIAS;
    private long maxSpins = DEFAULT_MAX_SPINS;
    private long maxYields = DEFAULT_MAX_YIELDS;
    private long minParkPeriodNs = DEFAULT_MIN_PARK_PERIOD_NS;
    private long maxParkPeriodNs = DEFAULT_MAX_PARK_PERIOD_NS;
    private long sleepPeriodNs = 1_000_000;
    private long sleepPeriodMs = 1;

    /** The default: backoff, with the shared parameters. */
    public IdleConfig() {
    }

    /**
     * The strategy named {@code alias} with default parameters: what YAML's short form {@code idle: yield} reads as
     * (Chronicle Wire builds a scalar through this constructor). Checked by {@link #validate()}.
     */
    public IdleConfig(final String alias) {
        strategy(alias);
    }

    /**
     * @param alias one of {@link #ALIASES}, as on a command line ({@code --idle yield}); parameters take defaults
     * @throws IllegalArgumentException naming the aliases
     */
    public static IdleConfig of(final String alias) {
        return new IdleConfig(alias).validate();
    }

    /** @return {@code sleep-ns} with {@code nanos} between looks: for background threads such as disk keeping */
    public static IdleConfig sleepNanos(final long nanos) {
        return new IdleConfig(SleepingIdleStrategy.ALIAS).sleepPeriodNs(nanos).validate();
    }

    /**
     * @return {@code backoff} that neither spins nor yields, parking from {@code minParkNs} doubling up to
     * {@code maxParkNs}: for a background agent (replication) on a host whose cores the trading path needs, where each
     * spin would be a core taken from it
     */
    public static IdleConfig parking(final long minParkNs, final long maxParkNs) {
        final IdleConfig parking = new IdleConfig(BackoffIdleStrategy.ALIAS);
        parking.maxSpins = 0;
        parking.maxYields = 0;
        parking.minParkPeriodNs = minParkNs;
        parking.maxParkPeriodNs = maxParkNs;
        return parking.validate();
    }

    /** Sets how long {@code sleep-ns} sleeps. @return this */
    public IdleConfig sleepPeriodNs(final long nanos) {
        this.sleepPeriodNs = nanos;
        return this;
    }

    /** @throws IllegalArgumentException saying what is wrong; @return this */
    public IdleConfig validate() {
        if (strategy == null || !ALIASES.contains(strategy)) {
            throw new IllegalArgumentException("idle strategy '" + strategy + "' must be one of "
                    + String.join(", ", ALIASES) + " (Agrona's aliases)");
        }
        require(maxSpins >= 0 && maxYields >= 0, "idle maxSpins and maxYields must not be negative");
        require(minParkPeriodNs >= 1 && maxParkPeriodNs >= minParkPeriodNs,
                "idle minParkPeriodNs must be at least 1 and at most maxParkPeriodNs, got " + minParkPeriodNs + " and "
                        + maxParkPeriodNs);
        require(sleepPeriodNs >= 1 && sleepPeriodMs >= 1, "idle sleepPeriodNs and sleepPeriodMs must be at least 1");
        return this;
    }

    /** @return a new strategy of this kind, for one thread */
    public IdleStrategy newStrategy() {
        return switch (strategy) {
            case NoOpIdleStrategy.ALIAS -> NoOpIdleStrategy.INSTANCE;
            case BusySpinIdleStrategy.ALIAS -> new BusySpinIdleStrategy();
            case YieldingIdleStrategy.ALIAS -> new YieldingIdleStrategy();
            case SleepingIdleStrategy.ALIAS -> new SleepingIdleStrategy(sleepPeriodNs);
            case SleepingMillisIdleStrategy.ALIAS -> new SleepingMillisIdleStrategy(sleepPeriodMs);
            case BackoffIdleStrategy.ALIAS -> new BackoffIdleStrategy(maxSpins, maxYields, minParkPeriodNs, maxParkPeriodNs);
            default -> throw new IllegalArgumentException(validate().strategy);
        };
    }

    /** @return the strategy with the parameters it uses, for logs and benchmark reports */
    public String describe() {
        return switch (strategy) {
            case SleepingIdleStrategy.ALIAS -> strategy + " (" + sleepPeriodNs + " ns)";
            case SleepingMillisIdleStrategy.ALIAS -> strategy + " (" + sleepPeriodMs + " ms)";
            case BackoffIdleStrategy.ALIAS -> String.format(Locale.ROOT, "%s (%d spins, %d yields, then park %d-%d ns)",
                    strategy, maxSpins, maxYields, minParkPeriodNs, maxParkPeriodNs);
            default -> strategy;
        };
    }

    /** @return this config as a config file's {@code idle} value, every parameter given: for configs written by code */
    public String yaml() {
        return String.format(Locale.ROOT, "{ strategy: %s, maxSpins: %d, maxYields: %d, minParkPeriodNs: %d, "
                        + "maxParkPeriodNs: %d, sleepPeriodNs: %d, sleepPeriodMs: %d }", strategy, maxSpins, maxYields,
                minParkPeriodNs, maxParkPeriodNs, sleepPeriodNs, sleepPeriodMs);
    }

    /** @return the alias of the strategy */
    public String strategy() {
        return strategy;
    }

    public IdleConfig strategy(final String alias) {
        this.strategy = alias == null ? null : alias.trim().toLowerCase(Locale.ROOT);
        return this;
    }

    private static void require(final boolean condition, final String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }
}
