package io.loadgen.drivers.redis;

import io.loadgen.core.driver.Completion;
import io.loadgen.core.driver.Status;
import io.netty.channel.EventLoop;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiConsumer;

/**
 * The operations in flight on one connection, in the order they were sent, and the one timer that holds
 * each to {@code redis.timeout} from its start: an operation still unanswered at its deadline completes
 * with {@link Status#ERROR} then, within the loop's timer precision, however many commands it sends.
 * Deadlines are start + timeout, so they come in send order and the timer only ever looks at the head.
 *
 * <p>Confined to the connection's event loop, except {@link Op#accept}, which a failure may call from
 * another thread: an operation is completed exactly once, by whichever of its reply and its deadline
 * comes first.
 */
final class InFlight {
    private final EventLoop loop;
    private final long timeoutNs;
    private final LongAdder timeouts;
    private final ErrorCounter errors;
    private static final AtomicIntegerFieldUpdater<InFlight> OPEN =
            AtomicIntegerFieldUpdater.newUpdater(InFlight.class, "open");
    private final ArrayDeque<Op> queue = new ArrayDeque<>();
    /** Operations begun and not yet completed (by reply, failure or deadline). */
    private volatile int open;
    private final Runnable expireTask = this::expire;
    private boolean armed;

    /** Classifies and counts a failure that ended an operation. */
    interface ErrorCounter {
        void count(Throwable error);
    }

    InFlight(EventLoop loop, long timeoutNs, LongAdder timeouts, ErrorCounter errors) {
        this.loop = loop;
        this.timeoutNs = timeoutNs;
        this.timeouts = timeouts;
        this.errors = errors;
    }

    /** Starts tracking an operation sent now; its reply goes to the returned {@link Op}. Loop thread. */
    Op begin(Completion completion) {
        Op op = new Op(completion, System.nanoTime() + timeoutNs);
        queue.addLast(op);
        OPEN.incrementAndGet(this);
        if (!armed) {
            armed = true;
            loop.schedule(expireTask, timeoutNs, TimeUnit.NANOSECONDS);
        }
        return op;
    }

    /** Drops answered operations from the head. Loop thread. */
    private void settle() {
        Op head;
        while ((head = queue.peekFirst()) != null && head.done != 0) {
            queue.pollFirst();
        }
    }

    /** The timer: completes every overdue operation with TIMEOUT, then waits for the next deadline. */
    private void expire() {
        armed = false;
        long nowNs = System.nanoTime();
        Op head;
        while ((head = queue.peekFirst()) != null) {
            if (head.done == 0 && head.deadlineNs - nowNs > 0) {
                armed = true;
                loop.schedule(expireTask, head.deadlineNs - nowNs, TimeUnit.NANOSECONDS);
                return;
            }
            queue.pollFirst();
            if (head.claim()) {
                timeouts.increment(); // counted before the completion, so whoever it wakes sees the count
                head.completion.complete(Status.TIMEOUT);
            }
        }
    }

    /**
     * Operations begun and not yet completed: 0 when the connection is free. Counted down before the completion
     * runs, so a completion that issues the next operation at once sees its own connection free. Any thread.
     */
    int open() {
        return open;
    }

    /** Number of operations not yet settled (answered ones behind an unanswered head count too). Loop thread. */
    int size() {
        return queue.size();
    }

    /** One operation in flight: receives its outcome (status, or the failure) from the driver's commands. */
    final class Op implements BiConsumer<Status, Throwable> {
        private static final AtomicIntegerFieldUpdater<Op> DONE = AtomicIntegerFieldUpdater.newUpdater(Op.class, "done");

        private final Completion completion;
        private final long deadlineNs;
        private volatile int done;

        private Op(Completion completion, long deadlineNs) {
            this.completion = completion;
            this.deadlineNs = deadlineNs;
        }

        /** The operation's reply or failure; ignored when its deadline already completed it. */
        @Override
        public void accept(Status status, Throwable error) {
            if (claim()) {
                if (error != null) {
                    errors.count(error);
                }
                completion.complete(error != null || status == null ? Status.ERROR : status);
            }
            if (loop.inEventLoop()) {
                settle();
            }
        }

        /** Whether the operation has completed, by reply, failure or deadline. Any thread. */
        boolean isDone() {
            return done != 0;
        }

        /** True for the one caller, reply or deadline, that gets to complete the operation (and counts it done). */
        private boolean claim() {
            if (DONE.compareAndSet(this, 0, 1)) {
                OPEN.decrementAndGet(InFlight.this);
                return true;
            }
            return false;
        }
    }
}
