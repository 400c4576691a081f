package io.loadgen.drivers.queue;

import io.loadgen.core.driver.Driver;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.HashSet;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import static io.loadgen.drivers.queue.QueueDrivers.open;
import static io.loadgen.drivers.queue.QueueDrivers.queueThreadNames;
import static io.loadgen.drivers.queue.QueueDrivers.roundTrips;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The driver's echo threads: named for their worker and place in the ring, daemons, and all gone
 * once {@code close} returns, whichever way they were waiting. Runs on the test thread so that no
 * timeout thread of JUnit's comes or goes between the counts.
 */
class QueueDriverThreadsTest {

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
            // Polling links (close alone stops them), put/take (close plus interrupt), lock and condition (close signals).
            "SpscArrayQueue, spin", "SpscArrayQueue, yield", "SpscArrayQueue, park", "SpscArrayQueue, block",
            "ArrayBlockingQueue, spin", "ArrayBlockingQueue, park", "ArrayBlockingQueue, block",
            "LinkedTransferQueue, block"})
    void closeEndsEveryEchoThreadPromptly(String impl, String wait) throws Exception {
        Set<Thread> before = new HashSet<>(Thread.getAllStackTraces().keySet());
        int liveBefore = before.size();
        assertEquals(Set.of(), queueThreadNames(), "echo threads left by an earlier test");

        Driver driver = open(2, "queue.impl", impl, "queue.wait", wait, "queue.chain", "3", "queue.burst", "2");
        assertEquals(new TreeSet<>(Set.of("loadgen-queue-w0-echo1", "loadgen-queue-w0-echo2",
                "loadgen-queue-w1-echo1", "loadgen-queue-w1-echo2")), queueThreadNames());
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith("loadgen-queue-")) {
                assertTrue(t.isDaemon(), t.getName() + " is not a daemon");
            }
        }
        // Leave every echo thread waiting on an empty link, the state close must break.
        assertEquals(0, roundTrips(driver, 0, 5));
        assertEquals(0, roundTrips(driver, 1, 5));

        long startNs = System.nanoTime();
        driver.close();
        long closeMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);

        // close waits up to 5 s; an echo thread that ignored the close would use all of it.
        assertTrue(closeMs < 2_000, "close took " + closeMs + " ms");
        assertEquals(Set.of(), queueThreadNames());
        Set<Thread> added = new HashSet<>(Thread.getAllStackTraces().keySet());
        added.removeAll(before);
        assertEquals(Set.of(), added, "threads alive after close that were not before open");
        assertTrue(Thread.getAllStackTraces().size() <= liveBefore, "more live threads after close than before open");
    }
}
