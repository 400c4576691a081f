package io.loadgen.drivers.queue;

import io.loadgen.core.driver.Driver;
import io.loadgen.core.driver.Operation;
import io.loadgen.core.driver.Status;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Round trips of a message burst through each worker's own {@link Ring} of threads and queues.
 * Worker threads call {@link #execute} concurrently, each on the ring at its worker index, so no two
 * threads ever send on the same link; {@link #stats} and {@link #close} are called once, after they stop.
 */
final class QueueDriver implements Driver {
    private static final Logger LOG = LogManager.getLogger(QueueDriver.class);
    /** How long {@link #close} waits for all echo threads to end. */
    static final long CLOSE_WAIT_NS = TimeUnit.SECONDS.toNanos(5);

    private final Ring[] rings;

    private QueueDriver(Ring[] rings) {
        this.rings = rings;
    }

    /**
     * Builds one ring per worker and starts its echo threads. On failure, stops what it started.
     *
     * @param threads how many workers will call {@link #execute}
     */
    static QueueDriver open(QueueSettings settings, int threads) {
        Ring[] rings = new Ring[threads];
        QueueDriver driver = new QueueDriver(rings);
        try {
            for (int w = 0; w < threads; w++) {
                SpscLink[] links = new SpscLink[settings.chain()];
                for (int k = 0; k < links.length; k++) {
                    links[k] = SpscLink.of(settings.impl(), settings.linkWait(), settings.capacity());
                }
                rings[w] = new Ring(w, links, settings.burst());
                rings[w].start();
            }
            return driver;
        } catch (RuntimeException | Error e) {
            driver.close();
            throw e;
        }
    }

    @Override
    public Status execute(Operation op) throws InterruptedException {
        return rings[op.workerIndex()].roundTrip();
    }

    /** {@code messages}: messages that completed a round trip, over all workers. */
    @Override
    public Map<String, Number> stats() {
        long messages = 0;
        for (Ring ring : rings) {
            messages += ring == null ? 0 : ring.messagesReturned();
        }
        return Map.of("messages", messages);
    }

    /** Stops every ring, then waits up to {@link #CLOSE_WAIT_NS} in all for the echo threads to end. */
    @Override
    public void close() {
        for (Ring ring : rings) {
            if (ring != null) {
                ring.stop();
            }
        }
        long deadlineNs = System.nanoTime() + CLOSE_WAIT_NS;
        int alive = 0;
        try {
            for (Ring ring : rings) {
                alive += ring == null ? 0 : ring.join(deadlineNs);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            LOG.warn("interrupted while waiting for the queue driver's echo threads to end");
            return;
        }
        if (alive > 0) {
            LOG.warn("{} echo thread(s) of the queue driver did not end within {} ms", alive,
                    TimeUnit.NANOSECONDS.toMillis(CLOSE_WAIT_NS));
        }
    }
}
