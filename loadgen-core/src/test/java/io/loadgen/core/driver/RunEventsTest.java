package io.loadgen.core.driver;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The run-event ring between drivers (any thread) and the sampler ({@code EventLineTest}: the log line each event becomes). */
class RunEventsTest {
    private static List<String> drain(RunEvents events) {
        List<String> got = new ArrayList<>();
        events.drain((kind, source, startMs, lengthNs) -> got.add(kind + "/" + source + "@" + startMs + "+" + lengthNs));
        return got;
    }

    @Test
    void eventsComeOutInTheOrderRecordedWithTheirKindAndSource() {
        RunEvents events = new RunEvents();
        int stw = events.kind("stop-the-world", "stw-mockdb");
        int gc = events.kind("gc", "harness");
        assertEquals(stw, events.kind("stop-the-world", "stw-mockdb"), "registering twice gives the same handle");
        events.record(stw, 1_000L, 150_000_000L);
        events.record(gc, 2_000L, 3_000_000L);
        assertEquals(List.of("stop-the-world/stw-mockdb@1000+150000000", "gc/harness@2000+3000000"), drain(events));
        assertEquals(List.of(), drain(events), "drained events are gone");
    }

    @Test
    void aFullRingDropsAndCountsInsteadOfWaiting() {
        RunEvents events = new RunEvents(4);
        int k = events.kind("stop-the-world", "test");
        for (int i = 0; i < 6; i++) {
            events.record(k, i, 1);
        }
        assertEquals(4, drain(events).size());
        assertEquals(2, events.dropped());
        events.record(k, 9, 1); // room again once drained, and the slots are reused
        assertEquals(List.of("stop-the-world/test@9+1"), drain(events));
    }

    @Test
    void noneKeepsNothing() {
        int k = RunEvents.NONE.kind("stop-the-world", "test");
        RunEvents.NONE.record(k, 1, 1);
        assertEquals(List.of(), drain(RunEvents.NONE));
    }

    @Test
    void recordingAllocatesNothing() {
        RunEvents events = new RunEvents(1 << 10);
        int k = events.kind("stop-the-world", "test");
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        for (int round = 0; round < 3; round++) { // warm the path up, then measure a whole ring of records
            long before = mx.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < 1 << 10; i++) {
                events.record(k, i, i);
            }
            long bytes = mx.getCurrentThreadAllocatedBytes() - before;
            events.drain((kind, source, startMs, lengthNs) -> { });
            if (round == 2) {
                assertEquals(0, bytes, "bytes allocated recording 1024 events");
            }
        }
    }

    @Test
    void kindsAndSourcesAreOneWordSoTheLineParsesBack() {
        RunEvents events = new RunEvents();
        assertThrows(IllegalArgumentException.class, () -> events.kind("Stop The World", "x"));
        assertThrows(IllegalArgumentException.class, () -> events.kind("gc", ""));
    }
}
