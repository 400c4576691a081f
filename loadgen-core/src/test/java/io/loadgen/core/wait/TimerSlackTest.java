package io.loadgen.core.wait;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** On Linux a thread lowers its own timer slack without privilege, and only its own. */
class TimerSlackTest {
    @Test
    void aThreadSetsItsOwnSlackAndNoOneElses() throws InterruptedException {
        assumeTrue(TimerSlack.currentThreadNs() >= 0, "no /proc/<tid>/timerslack_ns here (not Linux)");
        long mine = TimerSlack.currentThreadNs();
        AtomicLong seen = new AtomicLong(-2);
        Thread t = new Thread(() -> {
            assertTrue(TimerSlack.minimizeForCurrentThread());
            seen.set(TimerSlack.currentThreadNs());
        });
        t.start();
        t.join();
        assertEquals(1, seen.get(), "the worker's slack, read back");
        assertEquals(mine, TimerSlack.currentThreadNs(), "the test thread's own slack is untouched");
    }
}
