package io.loadgen.drivers.ping;

import io.loadgen.core.driver.Completion;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

class PendingPingsTest {
    private static final Completion A = s -> { };
    private static final Completion B = s -> { };
    private static final Completion C = s -> { };

    @Test
    void sequenceNumbersCountUpAndRepliesFindTheirCompletion() {
        PendingPings p = new PendingPings(4);
        assertEquals(0, p.add(A, 100));
        assertEquals(1, p.add(B, 200));
        assertSame(B, p.remove(1));
        assertSame(A, p.remove(0));
        assertEquals(0, p.size());
    }

    @Test
    void aReplyForARequestNoLongerPendingFindsNothing() {
        PendingPings p = new PendingPings(4);
        long seq = p.add(A, 100);
        assertSame(A, p.remove(seq));
        assertNull(p.remove(seq), "second reply to the same request");
        assertNull(p.remove(7), "a number never handed out");
        assertNull(p.remove(-1));
    }

    @Test
    void fullRingRefusesUntilARequestEnds() {
        PendingPings p = new PendingPings(2);
        p.add(A, 100);
        p.add(B, 100);
        assertEquals(-1, p.add(C, 100));
        p.remove(0);
        assertEquals(2, p.add(C, 100), "slot of 0 is reused for 2");
        assertSame(B, p.remove(1));
        assertSame(C, p.remove(2));
    }

    @Test
    void anUnansweredOldRequestHoldsTheWindowOpenUntilItEnds() {
        // UDP replies may overtake each other: 1 is answered, 0 is not. The slot 2 would take is still 0's,
        // so the ring stays full until 0 ends (here: times out); then 2 gets a slot.
        PendingPings p = new PendingPings(2);
        p.add(A, 100);
        p.add(B, 200);
        assertSame(B, p.remove(1));
        assertEquals(1, p.size());
        assertEquals(-1, p.add(C, 300));
        assertSame(A, p.pollExpired(150));
        assertEquals(2, p.add(C, 300));
        assertSame(C, p.remove(2));
    }

    @Test
    void onlyRequestsPastTheirDeadlineExpireOldestFirst() {
        PendingPings p = new PendingPings(4);
        p.add(A, 100);
        p.add(B, 200);
        p.add(C, 300);
        assertNull(p.pollExpired(99));
        assertSame(A, p.pollExpired(200));
        assertSame(B, p.pollExpired(200), "a deadline equal to now has passed");
        assertNull(p.pollExpired(200));
        assertSame(C, p.poll());
        assertNull(p.poll());
    }

    @Test
    void capacityMustBeAPowerOfTwo() {
        assertThrows(IllegalArgumentException.class, () -> new PendingPings(3));
        assertThrows(IllegalArgumentException.class, () -> new PendingPings(0));
    }
}
