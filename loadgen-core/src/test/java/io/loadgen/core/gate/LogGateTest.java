package io.loadgen.core.gate;

import io.loadgen.core.BadInputException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;

import static io.loadgen.core.gate.TestLogs.MS;
import static io.loadgen.core.gate.TestLogs.US;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Rules judged on interval logs written by the run's own log writer, with known contents. */
class LogGateTest {
    @TempDir
    static Path dir;

    /**
     * An hour of 1 s intervals at 1000 ops/s: intended 1 ms and service 0.5 ms, except that from 120 s to 130 s
     * every intended latency is 50 ms. Those 10,000 of 3,600,000 operations (0.28%) leave the hour's p99 at 1 ms,
     * so a gate on the whole hour passes; the 10 s window 120-130 s has p99 = 50 ms and fails a windowed gate.
     */
    static Path hour;

    @BeforeAll
    static void writeTheHour() throws IOException {
        hour = new TestLogs()
                .seconds(0, 120, "READ.intended", 1000, MS)
                .seconds(120, 130, "READ.intended", 1000, 50 * MS)
                .seconds(130, 3600, "READ.intended", 1000, MS)
                .seconds(0, 3600, "READ.service", 1000, 500 * US)
                .write(dir.resolve("hour.hlog"));
    }

    static List<Verdict> gate(List<Path> files, TimeRange range, String... rules) throws IOException {
        List<Rule> parsed = new ArrayList<>();
        for (String r : rules) {
            parsed.add(RuleParser.parse(r));
        }
        return Gate.evaluate(files, range, parsed, null, null, w -> {
            throw new AssertionError("no warning expected: " + w);
        });
    }

    static List<Verdict> gate(Path file, String... rules) throws IOException {
        return gate(List.of(file), TimeRange.ALL, rules);
    }

    @Test
    void aBadTenSecondsAveragesAwayOverTheHourButFailsItsWindow() throws IOException {
        List<Verdict> v = gate(hour,
                "READ.intended.p99 < 5ms",
                "READ.intended.p99 < 5ms over 10s windows",
                "READ.intended.p99.9 < 5ms",
                "READ.service.p99 < 1ms over 10s windows",
                "throughput >= 1000/s");
        assertEquals(List.of(
                new Verdict("READ.intended.p99 < 5ms", "1 ms", "< 5 ms", true),
                new Verdict("READ.intended.p99 < 5ms over 10s windows", "50 ms @ 120-130 s, 1 of 360 windows failed",
                        "< 5 ms", false),
                new Verdict("READ.intended.p99.9 < 5ms", "50 ms", "< 5 ms", false),
                new Verdict("READ.service.p99 < 1ms over 10s windows", "500 us @ 0-10 s, worst of 360 windows",
                        "< 1 ms", true),
                new Verdict("throughput >= 1000/s", "1000/s", ">= 1000/s", true)), v);
    }

    @Test
    void anyPercentileIsComputableFromALog() throws IOException {
        // 100 s at 100 ops/s of 1 ms, but second 50 at 20 ms: 100 of 10,000 operations, the top 1%.
        Path file = new TestLogs()
                .seconds(0, 50, "READ.intended", 100, MS)
                .seconds(50, 51, "READ.intended", 100, 20 * MS)
                .seconds(51, 100, "READ.intended", 100, MS)
                .write(dir.resolve("percentiles.hlog"));
        List<Verdict> v = gate(file, "READ.intended.p99.5 < 5ms", "READ.intended.p(98.9) < 5ms", "*.intended.p97 < 2ms");
        assertEquals(List.of(
                new Verdict("READ.intended.p99.5 < 5ms", "20 ms", "< 5 ms", false),
                new Verdict("READ.intended.p(98.9) < 5ms", "1 ms", "< 5 ms", true),
                new Verdict("READ.intended.p97 < 2ms", "1 ms", "< 2 ms", true)), v);
    }

    @Test
    void throughputIsOperationsOverTheTimeCovered() throws IOException {
        // 2 minutes of 1 s intervals: READ at 300 ops/s, UPDATE at 100 ops/s.
        Path file = new TestLogs()
                .seconds(0, 120, "READ.intended", 300, MS)
                .seconds(0, 120, "UPDATE.intended", 100, MS)
                .write(dir.resolve("mix.hlog"));
        List<Verdict> v = gate(file, "throughput > 390/s", "READ.throughput >= 300/s over 60s windows",
                "*.throughput > 200/s", "UPDATE.intended.count >= 12000");
        assertEquals(List.of(
                new Verdict("throughput > 390/s", "400/s", "> 390/s", true),
                new Verdict("READ.throughput >= 300/s over 60s windows", "300/s @ 0-60 s, worst of 2 windows",
                        ">= 300/s", true),
                new Verdict("READ.throughput > 200/s", "300/s", "> 200/s", true),
                new Verdict("UPDATE.throughput > 200/s", "100/s", "> 200/s", false),
                new Verdict("UPDATE.intended.count >= 12000", "12000", ">= 12000", true)), v);
    }

    @Test
    void aTimeRangeReadsOnlyItsIntervalsAndWindowsCountFromItsStart() throws IOException {
        // 100-140 s: 40 s, 10 of them at 50 ms, so p99 is 50 ms; four windows from 100 s.
        List<Verdict> v = gate(List.of(hour), new TimeRange(100.0, 140.0),
                "READ.intended.p99 < 5ms", "READ.intended.p99 < 5ms over 10s windows", "throughput > 999/s");
        assertEquals(List.of(
                new Verdict("READ.intended.p99 < 5ms", "50 ms", "< 5 ms", false),
                new Verdict("READ.intended.p99 < 5ms over 10s windows", "50 ms @ 120-130 s, 1 of 4 windows failed",
                        "< 5 ms", false),
                new Verdict("throughput > 999/s", "1000/s", "> 999/s", true)), v);
        // Windows from 125 s: the spike's last 5 s fall in 125-135.
        List<Verdict> shifted = gate(List.of(hour), new TimeRange(125.0, 145.0), "READ.intended.max < 5ms over 10s windows");
        assertEquals("50 ms @ 125-135 s, 1 of 2 windows failed", shifted.get(0).observed());
    }

    @Test
    void aStallFailsThroughputInItsWindowAndAShortLastWindowIsNotJudgedForThroughput() throws IOException {
        // 60 s at 100 ops/s of 2 ms, except nothing completes from 30 s to 40 s; then a 2 ms tail interval with
        // one 9 ms operation, as a run's last sample often is.
        Path file = new TestLogs()
                .seconds(0, 30, "READ.intended", 100, 2 * MS)
                .seconds(30, 40, "READ.intended", 0, 0)
                .seconds(40, 60, "READ.intended", 100, 2 * MS)
                .add(60_000, 60_002, "READ.intended", 1, 9 * MS)
                .write(dir.resolve("stall.hlog"));
        List<Verdict> v = gate(file, "throughput > 50/s over 10s windows", "READ.intended.max < 5ms over 10s windows");
        assertEquals(List.of(
                // 6 windows judged: the 2 ms tail is too short to have a rate.
                new Verdict("throughput > 50/s over 10s windows", "0/s @ 30-40 s, 1 of 6 windows failed", "> 50/s", false),
                // The stalled window has no latencies to judge; the tail's one operation is judged.
                new Verdict("READ.intended.max < 5ms over 10s windows", "9 ms @ 60-70 s, 1 of 6 windows failed", "< 5 ms",
                        false)), v);
    }

    @Test
    void logsFromTwoMachinesMergeOnTimeAndGzipIsReadByContent() throws IOException {
        // Same StartTime; machine B has a 30 ms second at 10 s. Merged: 2 x 500 ops/s, and B's spike in 10-15 s.
        Path a = new TestLogs().seconds(0, 20, "READ.intended", 500, MS).write(dir.resolve("a.hlog"));
        Path b = gzip(new TestLogs()
                .seconds(0, 10, "READ.intended", 500, MS)
                .seconds(10, 11, "READ.intended", 500, 30 * MS)
                .seconds(11, 20, "READ.intended", 500, MS)
                .write(dir.resolve("b.hlog")));
        List<Verdict> v = gate(List.of(a, b), TimeRange.ALL, "throughput > 999/s",
                "READ.intended.max < 10ms over 5s windows");
        assertEquals(List.of(
                new Verdict("throughput > 999/s", "1000/s", "> 999/s", true),
                new Verdict("READ.intended.max < 10ms over 5s windows", "30 ms @ 10-15 s, 1 of 4 windows failed",
                        "< 10 ms", false)), v);
    }

    @Test
    void errorsCorrectedAndMissingTagsOnALogAreBadInputSayingWhatToDo() throws IOException {
        Path small = new TestLogs().seconds(0, 20, "READ.intended", 10, MS).write(dir.resolve("small.hlog"));
        BadInputException errors = assertThrows(BadInputException.class, () -> gate(small, "READ.errors < 0.1%"));
        assertEquals("rule 'READ.errors < 0.1%': this log has no OP.status lines (an older loadgen wrote it), so no"
                + " error counts; gate errors on the JSON summary (loadgen run --json FILE)", errors.getMessage());
        BadInputException corrected = assertThrows(BadInputException.class,
                () -> gate(small, "READ.corrected.p99 < 5ms"));
        assertEquals("rule 'READ.corrected.p99 < 5ms': interval logs have no corrected view (it is computed from the"
                + " whole run at its end); gate it on the JSON summary (loadgen run --json FILE), or use intended",
                corrected.getMessage());
        BadInputException lag = assertThrows(BadInputException.class, () -> gate(small, "harness.lag.p99 < 1ms"));
        assertEquals("rule 'harness.lag.p99 < 1ms': " + small + " has no harness.lag (the run had no --target, so no"
                + " schedule)", lag.getMessage());
        BadInputException verdict = assertThrows(BadInputException.class, () -> gate(small, "harness.verdict == healthy"));
        assertEquals("rule 'harness.verdict == healthy': interval logs have no harness verdict (it is judged on the"
                + " whole run at its end); gate it on the JSON summary (loadgen run --json FILE) or on the run"
                + " (run --gate)", verdict.getMessage());
        BadInputException op = assertThrows(BadInputException.class, () -> gate(small, "UPDATE.intended.p99 < 5ms"));
        assertEquals("rule 'UPDATE.intended.p99 < 5ms': " + small + " has no operation 'UPDATE'; it has READ",
                op.getMessage());
        BadInputException windowedOp = assertThrows(BadInputException.class,
                () -> gate(small, "UPDATE.intended.p99 < 5ms over 10s windows"));
        assertEquals("rule 'UPDATE.intended.p99 < 5ms over 10s windows': " + small + " has no operation 'UPDATE';"
                + " it has READ", windowedOp.getMessage());
    }

    @Test
    void aRangeWithNoIntervalsIsBadInput() {
        BadInputException e = assertThrows(BadInputException.class,
                () -> gate(List.of(hour), new TimeRange(4000.0, null), "READ.intended.p99 < 5ms"));
        assertEquals(hour + " has no tagged intervals between --start 4000.0 s and --end the end; give a log written"
                + " by loadgen run --hlog FILE, or widen the range", e.getMessage());
    }

    private static Path gzip(Path file) throws IOException {
        Path gz = file.resolveSibling(file.getFileName() + ".gz");
        try (InputStream in = Files.newInputStream(file); OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
            in.transferTo(out);
        }
        return gz;
    }
}
