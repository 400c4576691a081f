package io.loadgen.drivers.support;

import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.ScheduledFuture;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * A connection's answers held for a delay (a local server's {@code --delay}), each written when due, in the
 * order held, and all dropped at once when the connection closes, so a client that sends and goes away leaves
 * nothing behind until the delay ends. Each is a task on the connection's event loop; Netty runs tasks due at
 * the same time in the order they were scheduled, so the head of the queue is always the one that runs, and
 * callers keep due times from going backwards (a later answer is never due before an earlier one).
 *
 * <p>One per connection, used on its event loop only; {@code total} counts what every connection holds.
 *
 * @param <T> what is held: a buffer to echo, or what a response will be built from
 */
public final class HeldWrites<T> {
    private final ArrayDeque<T> items = new ArrayDeque<>();
    private final ArrayDeque<ScheduledFuture<?>> tasks = new ArrayDeque<>();
    private final LongAdder total;
    private final Consumer<T> drop;
    private final Runnable writeHead;

    /**
     * @param write  writes an item when it is due (on the event loop)
     * @param drop   releases an item that will not be written (the connection closed)
     * @param total  counts the items held, shared by a server's connections
     */
    public HeldWrites(Consumer<T> write, Consumer<T> drop, LongAdder total) {
        this.drop = drop;
        this.total = total;
        this.writeHead = () -> {
            tasks.pollFirst();
            total.decrement();
            write.accept(items.pollFirst());
        };
    }

    /** Holds {@code item} for {@code delayNs}, then writes it. */
    public void hold(EventExecutor loop, T item, long delayNs) {
        items.addLast(item);
        total.increment();
        tasks.addLast(loop.schedule(writeHead, delayNs, TimeUnit.NANOSECONDS));
    }

    /** Items held, not yet written. */
    public int size() {
        return items.size();
    }

    public boolean isEmpty() {
        return items.isEmpty();
    }

    /** The connection closed: cancels every held write and drops its item. */
    public void dropAll() {
        for (ScheduledFuture<?> task; (task = tasks.pollFirst()) != null; ) {
            task.cancel(false);
            total.decrement();
            drop.accept(items.pollFirst());
        }
    }
}
