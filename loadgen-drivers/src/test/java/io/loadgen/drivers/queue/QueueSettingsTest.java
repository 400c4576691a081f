package io.loadgen.drivers.queue;

import io.loadgen.core.BadInputException;
import io.loadgen.core.driver.DriverProperties;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class QueueSettingsTest {

    private static QueueSettings settings(String... keyValues) {
        Map<String, String> given = new HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            given.put(keyValues[i], keyValues[i + 1]);
        }
        return QueueSettings.from(DriverProperties.of("queue", QueueSettings.SPECS, given));
    }

    private static String rejected(String... keyValues) {
        String message = assertThrows(BadInputException.class, () -> settings(keyValues)).getMessage();
        assertFalse(message.contains("\n"), "one line: " + message);
        return message;
    }

    private static void assertMentions(String message, String... parts) {
        for (String part : parts) {
            assertTrue(message.contains(part), "'" + part + "' missing from: " + message);
        }
    }

    @Test
    void defaultsArePingPongOfOneMessageOverASpinningSpscArrayQueue() {
        assertEquals(new QueueSettings(QueueImpl.SPSC_ARRAY, LinkWait.SPIN, 1, 2, 1024), settings());
    }

    @Test
    void queueAndWaitNamesIgnoreCase() {
        QueueSettings s = settings("queue.impl", "linkedblockingqueue", "queue.wait", "BLOCK");
        assertEquals(QueueImpl.LINKED_BLOCKING, s.impl());
        assertEquals(LinkWait.BLOCK, s.linkWait());
    }

    @Test
    void unknownQueueIsRejectedListingEveryQueue() {
        assertMentions(rejected("queue.impl", "DisruptorQueue"), "queue.impl", "'DisruptorQueue'",
                "ArrayBlockingQueue", "LinkedBlockingQueue", "ConcurrentLinkedQueue", "LinkedTransferQueue",
                "SpscArrayQueue", "MpscArrayQueue", "MpmcArrayQueue");
    }

    @Test
    void unknownWaitIsRejectedListingEveryWait() {
        assertMentions(rejected("queue.wait", "sleep"), "queue.wait", "'sleep'", "spin", "yield", "park", "block");
    }

    @Test
    void burstBelowOneIsRejected() {
        assertMentions(rejected("queue.burst", "0"), "queue.burst", "between 1 and");
    }

    @Test
    void chainBelowTwoIsRejected() {
        assertMentions(rejected("queue.chain", "1"), "queue.chain", "between 2 and");
    }

    @Test
    void capacityBelowBurstIsRejectedForABoundedQueue() {
        assertMentions(rejected("queue.impl", "ArrayBlockingQueue", "queue.burst", "16", "queue.capacity", "8"),
                "queue.capacity", "queue.burst", "ArrayBlockingQueue");
    }

    @Test
    void capacityBelowBurstIsAllowedForAnUnboundedQueue() {
        assertEquals(16, settings("queue.impl", "LinkedTransferQueue", "queue.burst", "16", "queue.capacity", "8").burst());
    }

    @Test
    void nonNumericBurstIsRejectedNamingIt() {
        assertMentions(rejected("queue.burst", "eight"), "queue.burst", "'eight'");
    }

    @Test
    void absurdChainIsRejectedBeforeStartingThreads() {
        assertMentions(rejected("queue.chain", "100000"), "queue.chain", "64");
    }
}
