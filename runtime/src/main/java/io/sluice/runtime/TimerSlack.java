package io.sluice.runtime;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Locale;
import java.util.Optional;

/**
 * Sets the calling thread's Linux timer slack ({@code prctl(PR_SET_TIMERSLACK)}), the amount by which the
 * kernel may delay a timed wake-up to batch it with others. The default is 50 µs, so every
 * {@code LockSupport.parkNanos(1_000)} of a back-off idle strategy really sleeps 50 µs or more, once per
 * hop: on a 2-core machine, where threads must back off instead of spinning, that slack dominates
 * latency. Every agent thread sets {@link #FINE_NANOS} in its {@code onStart}
 * ({@link io.sluice.runtime.agent.AgentThread}), engine and gateway alike; threads and processes it starts inherit
 * the value. Uses the JDK's foreign function API (no native library of our
 * own); on other systems it does nothing.
 */
public final class TimerSlack {
    /** The slack a back-off idle thread asks for: parks then last about as long as asked. */
    public static final long FINE_NANOS = 1_000;
    private static final int PR_SET_TIMERSLACK = 29;
    private static final int PR_GET_TIMERSLACK = 30;
    private static final MethodHandle PRCTL = prctl();

    private TimerSlack() {
    }

    /**
     * Sets the calling thread's timer slack to {@code nanos} (at least 1).
     *
     * @return true if the kernel took it; false where there is no {@code prctl} (not Linux) or it refused
     */
    public static boolean set(final long nanos) {
        if (PRCTL == null || nanos < 1) {
            return false;
        }
        try {
            return (int) PRCTL.invokeExact(PR_SET_TIMERSLACK, nanos, 0L, 0L, 0L) == 0;
        } catch (final Throwable e) {
            return false;
        }
    }

    /** @return the calling thread's timer slack in nanoseconds, or -1 where it cannot be read (not Linux). */
    public static long current() {
        if (PRCTL == null) {
            return -1;
        }
        try {
            return (int) PRCTL.invokeExact(PR_GET_TIMERSLACK, 0L, 0L, 0L, 0L);
        } catch (final Throwable e) {
            return -1;
        }
    }

    private static MethodHandle prctl() {
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")) {
            return null;
        }
        try {
            final Linker linker = Linker.nativeLinker();
            final Optional<MemorySegment> symbol = linker.defaultLookup().find("prctl");
            return symbol.map(address -> linker.downcallHandle(address,
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG,
                            ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG),
                    Linker.Option.firstVariadicArg(1))).orElse(null);
        } catch (final RuntimeException | LinkageError e) {
            return null;
        }
    }
}
