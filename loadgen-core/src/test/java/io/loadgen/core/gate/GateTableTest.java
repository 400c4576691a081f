package io.loadgen.core.gate;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class GateTableTest {
    @Test
    void columnsAlignAndTheLastLineSaysTheOutcome() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        GateTable.write(List.of(
                new Verdict("READ.intended.p99 < 5ms", "4.2 ms", "< 5 ms", true),
                new Verdict("throughput > 9500/s", "9000/s", "> 9500/s", false)),
                new PrintStream(bytes, true, StandardCharsets.UTF_8));
        assertEquals("""
                rule                     observed  limit     result
                READ.intended.p99 < 5ms  4.2 ms    < 5 ms    PASS
                throughput > 9500/s      9000/s    > 9500/s  FAIL

                FAILED: 1 of 2 gates failed
                """, bytes.toString(StandardCharsets.UTF_8));
        assertEquals("PASSED: the 1 gate passed", GateTable.outcome(List.of(new Verdict("a", "b", "c", true))));
    }

    @Test
    void unitsKeepThreeSignificantDigitsInTheLargestReadableUnit() {
        assertEquals("712 ns", Units.latency(712));
        assertEquals("41.2 ms", Units.latency(41_234_567));
        assertEquals("411 ms", Units.latency(410_517_000));
        assertEquals("1 ms", Units.latency(999_700), "rounding up moves to the next unit");
        assertEquals("1.5 s", Units.latency(1.5e9));
        assertEquals("0.02%", Units.percent(0.0002));
        assertEquals("48.9/s", Units.rate(48.91));
        assertEquals("9914/s", Units.rate(9913.5));
        assertEquals("120", Units.seconds(120_000));
        assertEquals("2.5", Units.seconds(2_500));
    }
}
