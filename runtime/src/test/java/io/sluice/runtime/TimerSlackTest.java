package io.sluice.runtime;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TimerSlackTest {
    @Test
    @EnabledOnOs(OS.LINUX)
    void setsTheCallingThreadsSlackAndThreadsItStartsInheritIt() throws InterruptedException {
        final AtomicLong inherited = new AtomicLong();
        final Thread thread = new Thread(() -> {
            assertTrue(TimerSlack.set(TimerSlack.FINE_NANOS));
            assertEquals(TimerSlack.FINE_NANOS, TimerSlack.current());
            final Thread child = new Thread(() -> inherited.set(TimerSlack.current()));
            child.start();
            try {
                child.join();
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        thread.start();
        thread.join();
        assertEquals(TimerSlack.FINE_NANOS, inherited.get());
    }

    @Test
    void refusesASlackBelowOneNanosecond() {
        assertFalse(TimerSlack.set(0));
    }
}
