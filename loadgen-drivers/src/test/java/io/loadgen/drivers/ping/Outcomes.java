package io.loadgen.drivers.ping;

import io.loadgen.core.driver.Completion;
import io.loadgen.core.driver.Status;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Test completions for a known number of submits: counts each status, and fails the test (through
 * {@link #doubleCompletions()}) if any completion is called twice. Completed from any thread.
 */
final class Outcomes {
    private final CountDownLatch done;
    private final AtomicIntegerArray byStatus = new AtomicIntegerArray(Status.count());
    private final AtomicInteger doubles = new AtomicInteger();

    Outcomes(int expected) {
        this.done = new CountDownLatch(expected);
    }

    /** A fresh completion that records its one status. */
    Completion next() {
        AtomicBoolean called = new AtomicBoolean();
        return status -> {
            if (!called.compareAndSet(false, true)) {
                doubles.incrementAndGet();
                return;
            }
            byStatus.incrementAndGet(status.ordinal());
            done.countDown();
        };
    }

    /** True when every expected completion arrived within {@code seconds}. */
    boolean await(long seconds) throws InterruptedException {
        return done.await(seconds, TimeUnit.SECONDS);
    }

    int count(Status status) {
        return byStatus.get(status.ordinal());
    }

    int doubleCompletions() {
        return doubles.get();
    }

    @Override
    public String toString() {
        return "OK=" + count(Status.OK) + " ERROR=" + count(Status.ERROR) + " TIMEOUT=" + count(Status.TIMEOUT) + " doubles=" + doubles.get()
                + " pending=" + done.getCount();
    }
}
