package io.loadgen.core.sweep;

import io.loadgen.core.BadInputException;
import io.loadgen.core.record.Histograms;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SlaTest {
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "p99<10ms      | p99<10ms    | 99.0  | 10000000",
        "p50<250us     | p50<250us   | 50.0  | 250000",
        "P90 < 1.5ms   | p90<1.5ms   | 90.0  | 1500000",
        "p95<2s        | p95<2s      | 95.0  | 2000000000",
        "p99.9<20ms    | p99.9<20ms  | 99.9  | 20000000",
        "max<100ms     | max<100ms   | 100.0 | 100000000",
        "p99<10µs      | p99<10us    | 99.0  | 10000"})
    void validFormsParse(String text, String canonical, double percentile, long limitNs) {
        Sla sla = Sla.parse(text);
        assertEquals(canonical, sla.text());
        assertEquals(percentile, sla.percentile());
        assertEquals(limitNs, sla.limitNs());
    }

    @ParameterizedTest(name = "''{0}''")
    @ValueSource(strings = {"p99<10", "p99>10ms", "p98<10ms", "99<10ms", "p99<10min", "p99<", "", "p99<0ms",
        "p99<1.0000001us"})
    void badFormsNameTheAcceptedForm(String text) {
        String message = assertThrows(BadInputException.class, () -> Sla.parse(text)).getMessage();
        assertTrue(message.startsWith("--sla '" + text + "'"), message);
        assertTrue(message.contains("write PERCENTILE<LIMIT, e.g. p99<10ms"), message);
        assertFalse(message.contains("\n"), "one line: " + message);
    }

    @Test
    void theLimitIsStrict() {
        // 100 values of 1..100 ms: p99 is 99 ms (to histogram precision), max 100 ms.
        Histogram h = Histograms.newHistogram();
        for (long ms = 1; ms <= 100; ms++) {
            h.recordValue(ms * 1_000_000);
        }
        assertTrue(Sla.parse("p99<100ms").metBy(h));
        assertFalse(Sla.parse("p99<99ms").metBy(h), "99 ms is not below 99 ms");
        assertFalse(Sla.parse("max<100ms").metBy(h));
        assertTrue(Sla.parse("max<101ms").metBy(h));
        assertFalse(Sla.parse("p99<1s").metBy(Histograms.newHistogram()), "nothing measured meets nothing");
    }
}
