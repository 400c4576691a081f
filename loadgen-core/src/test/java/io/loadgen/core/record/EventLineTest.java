package io.loadgen.core.record;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The interval-log line a run event ({@code io.loadgen.core.driver.RunEvents}) becomes, and its parse back. */
class EventLineTest {
    @Test
    void eventLineRoundTrips() {
        EventLine line = new EventLine("stop-the-world", "stw-mockdb", 12.345, 166.6);
        assertEquals("[event: kind=stop-the-world source=stw-mockdb start=12.345 length_ms=166.600]", line.comment());
        assertEquals(line, EventLine.parse(line.comment()));
        assertNull(EventLine.parse("[run: driver=mockdb]"));
        assertNull(EventLine.parse("[event: something else]"));
        assertTrue(EventLine.parse(new EventLine("gc", "harness", -0.5, 1).comment()).startSec() < 0,
                "an event before the start (during the driver's warm-up) keeps its negative start");
    }

    @Test
    void rateChangeLineCarriesTheNewRateAndRoundTrips() {
        EventLine line = new EventLine("rate-change", "rate-file", 30, 0, 5000);
        assertEquals("[event: kind=rate-change source=rate-file start=30.000 length_ms=0.000 rate_ops_s=5000]",
                line.comment());
        assertEquals(line, EventLine.parse(line.comment()));
        assertEquals(1.5, EventLine.parse(new EventLine("rate-change", "api", 1, 0, 1.5).comment()).rateOpsPerSec());
    }
}
