package io.loadgen.drivers.queue;

import io.loadgen.core.BadInputException;
import io.loadgen.core.driver.DriverProperties;
import io.loadgen.core.driver.PropertySpec;

import java.util.List;

/**
 * The {@code queue} properties, declared, defaulted, parsed and checked in one place. Immutable;
 * built on the main thread when the driver opens.
 *
 * @param impl     the queue every link of every ring uses
 * @param linkWait how both ends of a link wait on it
 * @param burst    messages sent per round trip
 * @param chain    threads in a ring, the worker included (so also links); 2 = ping-pong
 * @param capacity each link's capacity; at least {@code burst} for a bounded queue, ignored by unbounded ones
 */
record QueueSettings(QueueImpl impl, LinkWait linkWait, int burst, int chain, int capacity) {
    static final String IMPL = "queue.impl";
    static final String WAIT = "queue.wait";
    static final String BURST = "queue.burst";
    static final String CHAIN = "queue.chain";
    static final String CAPACITY = "queue.capacity";

    /** Caps that catch a typo before it allocates gigabytes or starts thousands of threads. */
    static final int MAX_CHAIN = 64;
    static final int MAX_BURST_OR_CAPACITY = 1 << 24;

    static final List<PropertySpec> SPECS = List.of(
            new PropertySpec(IMPL, "SpscArrayQueue", "queue between two threads of a ring: " + QueueImpl.names()),
            new PropertySpec(WAIT, "spin", "how a thread waits on an empty or full queue: spin (busy poll),"
                    + " yield, park (parkNanos(1) between polls), block (put/take, or a lock and condition)"),
            new PropertySpec(BURST, "1", "messages sent per ROUNDTRIP; it completes when all are back"),
            new PropertySpec(CHAIN, "2", "threads in each worker's ring, the worker included: 2 = ping-pong,"
                    + " N = worker + N-1 echo threads linked by N queues"),
            new PropertySpec(CAPACITY, "1024", "capacity of each queue; at least " + BURST
                    + " for bounded queues, ignored by ConcurrentLinkedQueue and LinkedTransferQueue"));

    /**
     * Reads and checks the properties.
     *
     * @throws BadInputException naming the property and the fix
     */
    static QueueSettings from(DriverProperties properties) {
        QueueImpl impl = QueueImpl.byName(properties.getString(IMPL));
        if (impl == null) {
            throw new BadInputException("property " + IMPL + ": unknown queue '" + properties.getString(IMPL)
                    + "'; choose one of: " + QueueImpl.names());
        }
        LinkWait wait = LinkWait.byName(properties.getString(WAIT));
        if (wait == null) {
            throw new BadInputException("property " + WAIT + ": unknown wait '" + properties.getString(WAIT)
                    + "'; choose one of: " + LinkWait.names());
        }
        int burst = intIn(properties, BURST, 1, MAX_BURST_OR_CAPACITY);
        int chain = intIn(properties, CHAIN, 2, MAX_CHAIN);
        int capacity = intIn(properties, CAPACITY, 1, MAX_BURST_OR_CAPACITY);
        if (impl.bounded && capacity < burst) {
            throw new BadInputException("property " + CAPACITY + " (" + capacity + ") is below " + BURST + " (" + burst
                    + "); " + impl.userName + " is bounded and each queue must hold a whole burst, so raise "
                    + CAPACITY + " or lower " + BURST);
        }
        return new QueueSettings(impl, wait, burst, chain, capacity);
    }

    private static int intIn(DriverProperties properties, String key, int min, int max) {
        long v = properties.getLong(key);
        if (v < min || v > max) {
            throw new BadInputException("property " + key + " must be between " + min + " and " + max + ", got " + v);
        }
        return (int) v;
    }
}
