package io.loadgen.drivers.queue;

import java.util.Locale;
import java.util.concurrent.locks.LockSupport;

/**
 * How a thread waits on a link that is empty (or, when bounded, full): the {@code queue.wait}
 * property. Immutable; {@link #idle()} is called on the waiting thread between polls.
 */
enum LinkWait {
    /** Busy-poll, hinting the CPU with {@link Thread#onSpinWait()}: lowest latency, burns a core per waiting thread. */
    SPIN("spin") {
        @Override
        void idle() {
            Thread.onSpinWait();
        }
    },
    /** {@link Thread#yield()} between polls: lets another runnable thread have the core. */
    YIELD("yield") {
        @Override
        void idle() {
            Thread.yield();
        }
    },
    /** {@code LockSupport.parkNanos(1)} between polls: sleeps for the OS timer's slack (tens of µs on Linux). */
    PARK("park") {
        @Override
        void idle() {
            LockSupport.parkNanos(1L);
        }
    },
    /** A lock and condition: the waiter sleeps until the other side signals ({@code put}/{@code take} for blocking queues). */
    BLOCK("block") {
        @Override
        void idle() {
            throw new UnsupportedOperationException("block waits on a condition, not by polling");
        }
    };

    private static final LinkWait[] VALUES = values();

    /** The name users type after {@code -p queue.wait=}. */
    final String userName;

    LinkWait(String userName) {
        this.userName = userName;
    }

    /** Waits a little between two polls; never called for {@link #BLOCK}. */
    abstract void idle();

    /** The wait called {@code name}, ignoring case, or null. */
    static LinkWait byName(String name) {
        String lower = name.trim().toLowerCase(Locale.ROOT);
        for (LinkWait w : VALUES) {
            if (w.userName.equals(lower)) {
                return w;
            }
        }
        return null;
    }

    /** Every name, comma-separated, for error messages. */
    static String names() {
        StringBuilder sb = new StringBuilder();
        for (LinkWait w : VALUES) {
            sb.append(sb.length() == 0 ? "" : ", ").append(w.userName);
        }
        return sb.toString();
    }
}
