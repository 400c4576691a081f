package io.loadgen.drivers.queue;

import java.util.Queue;
import java.util.concurrent.BlockingQueue;

/**
 * One hop of a ring: a queue plus the way its two ends wait on it. Exactly one thread calls
 * {@link #send} and exactly one other thread calls {@link #receive} (single producer, single consumer,
 * whatever the queue underneath would allow); {@link #close} may be called from any thread.
 *
 * <p>{@link #of} combines any {@link QueueImpl} with any {@link LinkWait}, so each wait is written
 * once: {@link PollingSpscLink} polls and idles (spin, yield, park); {@link BlockingQueueSpscLink}
 * uses a blocking queue's own {@code put}/{@code take}; {@link LockedSpscLink} wraps a non-blocking
 * queue's {@code offer}/{@code poll} in a lock and conditions.
 *
 * <p>Shutdown: once closed, a waiting end gives up at its next poll or wake-up ({@link #send}
 * returns false, {@link #receive} returns null). An end blocked in {@code put}/{@code take} wakes only
 * when interrupted, so whoever closes a link also interrupts the threads that may wait on it.
 */
abstract class SpscLink {
    private volatile boolean open = true;

    /** A new, empty link; called on the main thread when the driver opens. */
    static SpscLink of(QueueImpl impl, LinkWait wait, int capacity) {
        Queue<Message> queue = impl.newQueue(capacity);
        if (wait != LinkWait.BLOCK) {
            return new PollingSpscLink(queue, wait);
        }
        if (queue instanceof BlockingQueue) {
            return new BlockingQueueSpscLink((BlockingQueue<Message>) queue);
        }
        return new LockedSpscLink(queue);
    }

    /**
     * Sends {@code message}, waiting while the queue is full. Producer thread only.
     *
     * @return false when the link was closed before the message could be sent
     */
    abstract boolean send(Message message) throws InterruptedException;

    /**
     * Takes the next message, waiting while the queue is empty. Consumer thread only.
     *
     * @return the message, or null when the link was closed while it was empty
     */
    abstract Message receive() throws InterruptedException;

    /** Makes both ends stop waiting (see the class comment). Any thread; closing twice is harmless. */
    void close() {
        open = false;
    }

    /** False once {@link #close} has been called. A volatile read, made only while waiting. */
    final boolean isOpen() {
        return open;
    }
}
