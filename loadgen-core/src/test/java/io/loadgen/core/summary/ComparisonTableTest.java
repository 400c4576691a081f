package io.loadgen.core.summary;

import io.loadgen.core.record.View;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ComparisonTableTest {

    @Test
    void headerNamesColumnsWithMillisecondUnits() {
        List<String> lines = print(KnownRuns.throttled());
        assertEquals(List.of("op", "view", "count", "p50", "(ms)", "p99", "(ms)", "p99.9", "(ms)", "max", "(ms)"),
                List.of(lines.get(0).trim().split("\\s+")));
    }

    @Test
    void oneRowPerOperationAndViewThenHarnessLagWithEachCount() {
        RunResult result = KnownRuns.throttled();
        List<String> lines = print(result);
        long readCorrected = result.operations().get(0).histogram(View.CORRECTED).getTotalCount();
        long updateCorrected = result.operations().get(1).histogram(View.CORRECTED).getTotalCount();
        assertEquals(List.of(
                List.of("READ", "intended", "1000"), List.of("READ", "service", "1000"),
                List.of("READ", "corrected", String.valueOf(readCorrected)),
                List.of("UPDATE", "intended", "100"), List.of("UPDATE", "service", "100"),
                List.of("UPDATE", "corrected", String.valueOf(updateCorrected)),
                List.of("harness", "lag", "1100")),
                lines.stream().skip(1).map(l -> List.of(l.split("\\s+")).subList(0, 3)).toList());
    }

    @Test
    void valuesAreMillisecondsWithThreeDecimals() {
        List<String> lines = print(KnownRuns.throttled());
        // READ service: p50 of 1..1000 µs reads 500.223 µs, max 1000.447 µs at 3 significant digits
        assertEquals(List.of("0.500", "0.990", "0.999", "1.000"), numbers(lines.get(2)));
        // READ intended is twice as slow: p50 1000 µs, max 2000 µs
        assertEquals("1.000", numbers(lines.get(1)).get(0));
        assertEquals("2.001", numbers(lines.get(1)).get(3));
        // harness lag: 20 µs everywhere
        assertEquals(List.of("0.020", "0.020", "0.020", "0.020"), numbers(lines.get(7)));
    }

    @Test
    void columnsStayAlignedForLongOperationNames() {
        RunResult base = KnownRuns.throttled();
        RunResult result = new RunResult(base.driver(), base.targetOpsPerSec(), base.threads(), base.runTimeNs(),
                List.of(KnownRuns.read(true), KnownRuns.empty("READ-MODIFY-WRITE")), base.lag(),
                base.expectedIntervalNs(), 0, Map.of(), Map.of(), "duration");
        List<String> lines = print(result);
        int width = lines.get(0).length();
        for (String line : lines) {
            assertEquals(width, line.length(), () -> "ragged line: '" + line + "'");
            assertEquals(lines.get(0).indexOf("view"), line.indexOf(line.split("\\s+")[1]),
                    () -> "view column misaligned: '" + line + "'");
        }
    }

    @Test
    void unthrottledRunHasNoCorrectedOrLagRow() {
        List<String> lines = print(KnownRuns.unthrottled());
        assertEquals(1 + 2 * 2, lines.size());
        assertTrue(lines.stream().noneMatch(l -> l.contains("corrected") || l.startsWith("harness")));
    }

    private static List<String> numbers(String row) {
        return List.of(row.trim().split("\\s+")).subList(3, 7);
    }

    private static List<String> print(RunResult result) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ComparisonTable.write(result, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8).lines().toList();
    }
}
