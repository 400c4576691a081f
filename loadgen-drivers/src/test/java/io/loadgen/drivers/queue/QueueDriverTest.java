package io.loadgen.drivers.queue;

import io.loadgen.core.driver.Driver;
import io.loadgen.core.driver.Status;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import static io.loadgen.drivers.queue.QueueDrivers.open;
import static io.loadgen.drivers.queue.QueueDrivers.roundTrips;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD;

/**
 * Round trips through real rings: every message comes back, in order, to the worker that sent it, for
 * every queue and wait. A wrong driver fails these rather than hangs: each has a timeout.
 */
class QueueDriverTest {
    private static final int BURST = 8;

    static Stream<Arguments> everyImplAndWait() {
        List<Arguments> all = new ArrayList<>();
        for (QueueImpl impl : QueueImpl.values()) {
            for (LinkWait wait : LinkWait.values()) {
                all.add(Arguments.of(impl.userName, wait.userName));
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("everyImplAndWait")
    @Timeout(value = 20, threadMode = SEPARATE_THREAD)
    void everyMessageComesBackInOrderForEveryQueueAndWait(String impl, String wait) throws Exception {
        // Three threads spinning on two cores hand over only when the scheduler switches, so spin
        // gets few round trips; the others get enough to interleave sends and echoes many ways.
        int ops = wait.equals("spin") ? 20 : 200;
        try (Driver driver = open(1, "queue.impl", impl, "queue.wait", wait,
                "queue.burst", "" + BURST, "queue.chain", "3")) {
            assertEquals(0, roundTrips(driver, 0, ops), "round trips not OK");
            assertEquals((long) ops * BURST, driver.stats().get("messages"));
        }
    }

    @Test
    @Timeout(value = 20, threadMode = SEPARATE_THREAD)
    void twoConcurrentWorkersEachGetOnlyTheirOwnMessagesBack() throws Exception {
        // MpmcArrayQueue stays correct even if a wrong driver let both workers share a ring, so a shared
        // ring would show up as messages of the other worker (UNEXPECTED_STATE), not as a hang.
        int ops = 300;
        try (Driver driver = open(2, "queue.impl", "MpmcArrayQueue", "queue.wait", "park",
                "queue.burst", "" + BURST, "queue.chain", "2")) {
            AtomicInteger notOk = new AtomicInteger();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread[] workers = new Thread[2];
            for (int w = 0; w < 2; w++) {
                int index = w;
                workers[w] = new Thread(() -> {
                    try {
                        notOk.addAndGet(roundTrips(driver, index, ops));
                    } catch (Throwable t) {
                        failure.set(t);
                    }
                }, "test-worker-" + w);
                workers[w].start();
            }
            for (Thread t : workers) {
                t.join(TimeUnit.SECONDS.toMillis(15));
                assertFalse(t.isAlive(), t.getName() + " still running");
            }
            assertNull(failure.get());
            assertEquals(0, notOk.get(), "round trips not OK");
            assertEquals(2L * ops * BURST, driver.stats().get("messages"));
        }
    }

    @Test
    @Timeout(value = 10, threadMode = SEPARATE_THREAD)
    void messagesBackOutOfOrderGiveUnexpectedState() throws Exception {
        // The worker's outgoing link swaps each pair of messages, so message 1 returns before message 0.
        SpscLink swapping = new PairSwappingLink(SpscLink.of(QueueImpl.SPSC_ARRAY, LinkWait.PARK, 16));
        Ring ring = new Ring(0, new SpscLink[]{swapping, SpscLink.of(QueueImpl.SPSC_ARRAY, LinkWait.PARK, 16)}, 4);
        ring.start();
        try {
            assertEquals(Status.UNEXPECTED_STATE, ring.roundTrip());
            // The whole burst was taken back, so the next trip still finds all four (and still out of order).
            assertEquals(Status.UNEXPECTED_STATE, ring.roundTrip());
            assertEquals(8L, ring.messagesReturned());
        } finally {
            ring.stop();
            assertEquals(0, ring.join(System.nanoTime() + TimeUnit.SECONDS.toNanos(5)));
        }
    }

    @Test
    @Timeout(value = 10, threadMode = SEPARATE_THREAD)
    void roundTripOnAClosedRingReturnsErrorInsteadOfWaiting() throws Exception {
        Ring ring = new Ring(0, new SpscLink[]{SpscLink.of(QueueImpl.SPSC_ARRAY, LinkWait.SPIN, 4),
                SpscLink.of(QueueImpl.SPSC_ARRAY, LinkWait.SPIN, 4)}, 2);
        ring.start();
        ring.stop();
        assertEquals(0, ring.join(System.nanoTime() + TimeUnit.SECONDS.toNanos(5)));
        assertEquals(Status.ERROR, ring.roundTrip());
    }

    @Test
    void providerOffersOnlyRoundtrip() {
        assertEquals(List.of("ROUNDTRIP"), new QueueDriverProvider().operations());
    }

    @Test
    @Timeout(value = 10, threadMode = SEPARATE_THREAD)
    void unboundedQueueAcceptsABurstAboveItsCapacity() throws Exception {
        try (Driver driver = open(1, "queue.impl", "ConcurrentLinkedQueue", "queue.wait", "park",
                "queue.burst", "64", "queue.capacity", "1")) {
            assertEquals(0, roundTrips(driver, 0, 20));
            assertEquals(64L * 20, driver.stats().get("messages"));
        }
    }

    /** Passes messages on in pairs, second first. Sender thread only (so its one held message needs no lock). */
    private static final class PairSwappingLink extends SpscLink {
        private final SpscLink inner;
        private Message held;

        PairSwappingLink(SpscLink inner) {
            this.inner = inner;
        }

        @Override
        boolean send(Message message) throws InterruptedException {
            if (held == null) {
                held = message;
                return true;
            }
            Message first = held;
            held = null;
            return inner.send(message) && inner.send(first);
        }

        @Override
        Message receive() throws InterruptedException {
            return inner.receive();
        }

        @Override
        void close() {
            super.close();
            inner.close();
        }
    }
}
