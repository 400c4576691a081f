package io.loadgen.drivers.redis;

import io.loadgen.core.driver.Completion;
import io.loadgen.core.driver.Status;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** A test {@link Completion} that keeps its status, when it came and how often it was called; any thread. */
final class RecordedCompletion implements Completion {
    private final CountDownLatch done = new CountDownLatch(1);
    private final AtomicInteger calls = new AtomicInteger();
    private volatile Status status;
    private volatile long completedNs;

    @Override
    public void complete(Status s) {
        completedNs = System.nanoTime();
        status = s;
        calls.incrementAndGet();
        done.countDown();
    }

    /** The status, once it came; fails the test when it does not come within {@code timeout}. */
    Status await(Duration timeout) throws InterruptedException {
        if (!done.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("operation did not complete within " + timeout);
        }
        return status;
    }

    boolean isDone() {
        return done.getCount() == 0;
    }

    Status status() {
        return status;
    }

    long completedNs() {
        return completedNs;
    }

    int calls() {
        return calls.get();
    }
}
