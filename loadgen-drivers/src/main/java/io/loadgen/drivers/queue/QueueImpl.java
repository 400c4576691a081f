package io.loadgen.drivers.queue;

import org.jctools.queues.MpmcArrayQueue;
import org.jctools.queues.MpscArrayQueue;
import org.jctools.queues.SpscArrayQueue;

import java.util.Queue;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.LinkedTransferQueue;

/**
 * The queue implementations a link can use: the {@code queue.impl} property. Immutable;
 * {@link #newQueue} is called on the main thread when the driver opens.
 *
 * <p>The {@code java.util.concurrent} linked queues allocate a node per {@code offer}; that allocation
 * is part of what they cost, so it is part of what this driver measures.
 */
enum QueueImpl {
    ARRAY_BLOCKING("ArrayBlockingQueue", true) {
        @Override
        Queue<Message> newQueue(int capacity) {
            return new ArrayBlockingQueue<>(capacity);
        }
    },
    LINKED_BLOCKING("LinkedBlockingQueue", true) {
        @Override
        Queue<Message> newQueue(int capacity) {
            return new LinkedBlockingQueue<>(capacity);
        }
    },
    CONCURRENT_LINKED("ConcurrentLinkedQueue", false) {
        @Override
        Queue<Message> newQueue(int capacity) {
            return new ConcurrentLinkedQueue<>();
        }
    },
    LINKED_TRANSFER("LinkedTransferQueue", false) {
        @Override
        Queue<Message> newQueue(int capacity) {
            return new LinkedTransferQueue<>();
        }
    },
    /** JCTools; rounds the capacity up to a power of two. */
    SPSC_ARRAY("SpscArrayQueue", true) {
        @Override
        Queue<Message> newQueue(int capacity) {
            return new SpscArrayQueue<>(capacity);
        }
    },
    /** JCTools; rounds the capacity up to a power of two. */
    MPSC_ARRAY("MpscArrayQueue", true) {
        @Override
        Queue<Message> newQueue(int capacity) {
            return new MpscArrayQueue<>(Math.max(2, capacity));
        }
    },
    /** JCTools; rounds the capacity up to a power of two, at least 2. */
    MPMC_ARRAY("MpmcArrayQueue", true) {
        @Override
        Queue<Message> newQueue(int capacity) {
            return new MpmcArrayQueue<>(Math.max(2, capacity));
        }
    };

    private static final QueueImpl[] VALUES = values();

    /** The class's simple name, which is what users type after {@code -p queue.impl=}. */
    final String userName;
    /** True when the queue holds at most {@code capacity} messages (so a burst must fit). */
    final boolean bounded;

    QueueImpl(String userName, boolean bounded) {
        this.userName = userName;
        this.bounded = bounded;
    }

    /** A new, empty queue; {@code capacity} is ignored by unbounded implementations. */
    abstract Queue<Message> newQueue(int capacity);

    /** The implementation called {@code name}, ignoring case, or null. */
    static QueueImpl byName(String name) {
        String trimmed = name.trim();
        for (QueueImpl q : VALUES) {
            if (q.userName.equalsIgnoreCase(trimmed)) {
                return q;
            }
        }
        return null;
    }

    /** Every name, comma-separated, for error messages. */
    static String names() {
        StringBuilder sb = new StringBuilder();
        for (QueueImpl q : VALUES) {
            sb.append(sb.length() == 0 ? "" : ", ").append(q.userName);
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return userName;
    }
}
