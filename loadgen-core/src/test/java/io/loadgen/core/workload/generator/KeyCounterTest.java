package io.loadgen.core.workload.generator;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class KeyCounterTest {

    @Test
    void lastValueIsHighestContiguousAcknowledgedKey() {
        KeyCounter counter = new KeyCounter(1000, 16);
        assertEquals(999, counter.lastValue(), "nothing acknowledged yet");
        for (int i = 0; i < 5; i++) {
            assertEquals(1000 + i, counter.next());
        }
        counter.acknowledge(1000);
        counter.acknowledge(1002);
        counter.acknowledge(1003);
        assertEquals(1000, counter.lastValue(), "1001 is still in flight");
        counter.acknowledge(1001);
        assertEquals(1003, counter.lastValue());
        counter.acknowledge(1004);
        assertEquals(1004, counter.lastValue());
    }

    @Test
    void reusedSlotIsNotMistakenForAnAcknowledgement() {
        KeyCounter counter = new KeyCounter(0, 4);
        for (int i = 0; i < 8; i++) {
            counter.next();
        }
        for (int k = 0; k < 4; k++) {
            counter.acknowledge(k);
        }
        assertEquals(3, counter.lastValue());
        counter.acknowledge(6); // slot of key 2, reused a window later
        assertEquals(3, counter.lastValue(), "4 and 5 are not acknowledged");
        counter.acknowledge(4);
        assertEquals(4, counter.lastValue());
    }

    @Test
    void acknowledgingBeyondTheWindowFails() {
        KeyCounter counter = new KeyCounter(0, 4);
        for (int i = 0; i < 6; i++) {
            counter.next();
        }
        assertThrows(IllegalStateException.class, () -> counter.acknowledge(4), "key 0 still outstanding");
        assertThrows(IllegalArgumentException.class, () -> counter.acknowledge(6), "never handed out");
    }

    @Test
    void concurrentInsertersNeverSeeAnUnacknowledgedKeyAsLast() throws InterruptedException {
        // A window larger than all keys: a descheduled thread can leave the other any distance ahead, and this
        // test is about ordering, not about the window's limit (tested on its own).
        KeyCounter counter = new KeyCounter(0, 1 << 20);
        int perThread = 200_000;
        AtomicReference<String> failure = new AtomicReference<>();
        Runnable inserter = () -> {
            for (int i = 0; i < perThread; i++) {
                long key = counter.next();
                if (counter.lastValue() >= key) {
                    failure.compareAndSet(null, "lastValue " + counter.lastValue() + " before key " + key + " was acknowledged");
                }
                if ((i & 63) == 0) {
                    Thread.yield(); // let the other thread overtake, so acknowledgements arrive out of order
                }
                counter.acknowledge(key);
            }
        };
        Thread a = new Thread(inserter);
        Thread b = new Thread(inserter);
        a.start();
        b.start();
        a.join();
        b.join();
        assertNull(failure.get());
        assertEquals(2L * perThread - 1, counter.lastValue(), "every key acknowledged, none left behind");
    }
}
