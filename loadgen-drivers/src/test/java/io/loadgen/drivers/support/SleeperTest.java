package io.loadgen.drivers.support;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SleeperTest {

    @Test
    void neverReturnsBeforeTheDeadline() throws InterruptedException {
        for (int i = 0; i < 20; i++) {
            long deadlineNs = System.nanoTime() + TimeUnit.MICROSECONDS.toNanos(300);
            Sleeper.sleepUntil(deadlineNs);
            assertTrue(System.nanoTime() - deadlineNs >= 0, "returned early");
        }
    }

    @Test
    void returnsAtOnceForAPastDeadline() throws InterruptedException {
        long startNs = System.nanoTime();
        Sleeper.sleepUntil(startNs - TimeUnit.SECONDS.toNanos(1));
        // Nothing to wait for: 100 ms is thousands of times what a call with no park takes.
        assertTrue(System.nanoTime() - startNs < TimeUnit.MILLISECONDS.toNanos(100));
    }

    @Test
    void interruptEndsTheSleepWithInterruptedException() {
        Thread.currentThread().interrupt();
        long startNs = System.nanoTime();
        assertThrows(InterruptedException.class, () -> Sleeper.sleepUntil(startNs + TimeUnit.SECONDS.toNanos(10)));
        // Without the interrupt check the call would park (or spin) for the full 10 s.
        assertTrue(System.nanoTime() - startNs < TimeUnit.SECONDS.toNanos(5));
        assertTrue(!Thread.currentThread().isInterrupted(), "flag should be cleared, as the exception reports it");
    }
}
