package io.loadgen.drivers.queue;

import java.util.Queue;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A link that wraps a non-blocking queue's {@code offer}/{@code poll} in a {@link ReentrantLock}
 * with a condition signalled on every send (and one on every receive, for a full bounded queue):
 * the {@code block} wait for {@code ConcurrentLinkedQueue} and the JCTools queues. One sending
 * thread, one receiving thread. {@link #close} wakes both, so no interrupt is needed (one still works).
 */
final class LockedSpscLink extends SpscLink {
    private final Queue<Message> queue;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    private final Condition notFull = lock.newCondition();

    LockedSpscLink(Queue<Message> queue) {
        this.queue = queue;
    }

    @Override
    boolean send(Message message) throws InterruptedException {
        final ReentrantLock l = lock;
        l.lockInterruptibly();
        try {
            while (!queue.offer(message)) {
                if (!isOpen()) {
                    return false;
                }
                notFull.await();
            }
            notEmpty.signal();
            return true;
        } finally {
            l.unlock();
        }
    }

    @Override
    Message receive() throws InterruptedException {
        final ReentrantLock l = lock;
        l.lockInterruptibly();
        try {
            Message m;
            while ((m = queue.poll()) == null) {
                if (!isOpen()) {
                    return null;
                }
                notEmpty.await();
            }
            notFull.signal();
            return m;
        } finally {
            l.unlock();
        }
    }

    /** Closes, then wakes both ends under the lock, so neither can miss it between its check and its wait. */
    @Override
    void close() {
        super.close();
        lock.lock();
        try {
            notEmpty.signalAll();
            notFull.signalAll();
        } finally {
            lock.unlock();
        }
    }
}
