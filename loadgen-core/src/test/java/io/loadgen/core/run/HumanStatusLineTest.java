package io.loadgen.core.run;

import io.loadgen.core.driver.Status;
import io.loadgen.core.record.Histograms;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The default status line: exact lines for fixed intervals. Units by size, rates with separators, the worst type
 * first, the width kept by leaving parts out whole, the partial tail as a count, unthrottled and phased runs, and
 * failures by status.
 */
class HumanStatusLineTest {
    private static final long MS = 1_000_000L;
    private static final long S = 1_000_000_000L;

    /** One operation type's interval: {@code ok} successes taking {@code intendedNs} / {@code serviceNs}, and failures. */
    private static IntervalSnapshot.Op op(String name, long ok, long intendedNs, long serviceNs, Object... failures) {
        SealedHistogram intended = new SealedHistogram(Histograms.newHistogram());
        intended.recordValueWithCount(intendedNs, ok);
        SealedHistogram service = new SealedHistogram(Histograms.newHistogram());
        service.recordValueWithCount(serviceNs, ok);
        SealedHistogram failedIntended = new SealedHistogram(Histograms.newHistogram());
        SealedHistogram failedService = new SealedHistogram(Histograms.newHistogram());
        long[] statuses = new long[Status.count()];
        statuses[Status.OK.ordinal()] = ok;
        for (int i = 0; i < failures.length; i += 2) {
            long n = ((Number) failures[i + 1]).longValue();
            statuses[((Status) failures[i]).ordinal()] += n;
            failedIntended.recordValueWithCount(MS, n);
            failedService.recordValueWithCount(MS, n);
        }
        return new IntervalSnapshot.Op(name, intended.seal(), service.seal(), failedIntended.seal(),
                failedService.seal(), statuses);
    }

    /** An interval of {@code lengthNs} ending {@code endNs} after the run's start, of 1 s intervals. */
    private static IntervalSnapshot interval(long endNs, long lengthNs, boolean last, long behindNs,
                                             IntervalSnapshot.Phase phase, IntervalSnapshot.Op... ops) {
        return interval(endNs, lengthNs, S, last, behindNs, phase, Map.of(), ops);
    }

    private static IntervalSnapshot interval(long endNs, long lengthNs, long intervalNs, boolean last, long behindNs,
                                             IntervalSnapshot.Phase phase, Map<String, Number> counters,
                                             IntervalSnapshot.Op... ops) {
        IntervalSnapshot.Builder b = new IntervalSnapshot.Builder();
        b.runStartNs = 0;
        b.runStartMs = 1_000_000;
        b.startNs = endNs - lengthNs;
        b.endNs = endNs;
        b.startMs = b.runStartMs + b.startNs / MS;
        b.endMs = b.runStartMs + endNs / MS;
        b.intervalNs = intervalNs;
        b.measured = true;
        b.last = last;
        b.phase = phase;
        b.behindNs = behindNs;
        b.operations = List.of(ops);
        b.byTag = Map.of();
        b.events = List.of();
        b.driverCounters = counters;
        return new IntervalSnapshot(b);
    }

    private static String line(int width, IntervalSnapshot s, double target, String note, String... counters) {
        return new HumanStatusLine(width).line(s, target, List.of(counters), note);
    }

    @Test
    void theIssuesExampleReadsAsWritten() {
        IntervalSnapshot s = interval(12 * S, S, false, 30 * MS, null, op("READ", 9_987, 255 * MS, 19_900_000));
        assertEquals("12s  9,987/s of 10,000/s  READ p99 intended 255 ms | service 19.9 ms  errors 0  behind 30 ms"
                + "  [machine noise 12 ms]", line(120, s, 10_000, "machine noise 12 ms"));
    }

    @Test
    void durationsTakeTheUnitTheirSizeCallsForAtThreeSignificantDigits() {
        assertEquals("0 ns", HumanStatusLine.duration(0));
        assertEquals("850 ns", HumanStatusLine.duration(850));
        assertEquals("999 ns", HumanStatusLine.duration(999));
        assertEquals("1 us", HumanStatusLine.duration(1_000));
        assertEquals("1 ms", HumanStatusLine.duration(999_999), "rounds up into the next unit, never 1000 us");
        assertEquals("12.3 us", HumanStatusLine.duration(12_345));
        assertEquals("999 us", HumanStatusLine.duration(999_000));
        assertEquals("1 ms", HumanStatusLine.duration(999_600));
        assertEquals("19.9 ms", HumanStatusLine.duration(19_949_999));
        assertEquals("30 ms", HumanStatusLine.duration(30 * MS), "no trailing zeros");
        assertEquals("255 ms", HumanStatusLine.duration(255_400_000));
        assertEquals("1.2 s", HumanStatusLine.duration(1_200 * MS));
        assertEquals("61.5 s", HumanStatusLine.duration(61_500 * MS));
        assertEquals("1234 s", HumanStatusLine.duration(1_234 * S), "whole seconds past 1000 s, never 1.23E+3");
    }

    @Test
    void ratesHaveThousandsSeparatorsAndElapsedTimeReadsLikeAClock() {
        HumanStatusLine h = new HumanStatusLine(120);
        assertEquals("9,987", h.rate(9_986.6));
        assertEquals("1,000,000", h.rate(1e6));
        assertEquals("250", h.rate(250));
        assertEquals("12.5", h.rate(12.5));
        assertEquals("0", h.rate(0));
        assertEquals("12s", HumanStatusLine.elapsed(12 * S + 3 * MS, S, false), "truncated, as a clock shows it");
        assertEquals("2m05s", HumanStatusLine.elapsed(125 * S, S, false));
        assertEquals("1h02m05s", HumanStatusLine.elapsed(3_725 * S, S, false));
        assertEquals("0.3s", HumanStatusLine.elapsed(300 * MS, 100 * MS, false), "100 ms intervals: tenths");
        assertEquals("0.43s", HumanStatusLine.elapsed(430 * MS, 10 * MS, false), "10 ms intervals: hundredths");
        assertEquals("5.2s", HumanStatusLine.elapsed(5_210 * MS, S, true), "a partial interval: a tenth at least");
    }

    @Test
    void theWorstTypeComesFirst() {
        IntervalSnapshot s = interval(3 * S, S, false, 0, null,
                op("READ", 500, 4 * MS, 3 * MS), op("UPDATE", 400, 255 * MS, 20 * MS), op("SCAN", 100, 20 * MS, 15 * MS));
        assertEquals("3s  1,000/s of 1,000/s  UPDATE p99 intended 255 ms | service 20 ms"
                + "  SCAN p99 intended 20 ms | service 15 ms  READ p99 intended 4 ms | service 3 ms  errors 0",
                line(200, s, 1_000, null));
    }

    @Test
    void aTypeThatOnlyFailedIsTheWorstAndSaysSo() {
        IntervalSnapshot s = interval(3 * S, S, false, 0, null,
                op("READ", 900, 4 * MS, 3 * MS), op("UPDATE", 0, 0, 0, Status.ERROR, 100));
        assertEquals("3s  1,000/s of 1,000/s  UPDATE all failed  READ p99 intended 4 ms | service 3 ms"
                + "  errors 100 (ERROR 100)", line(120, s, 1_000, null));
    }

    @Test
    void theLineKeepsItsWidthByLeavingOutWholePartsTheLeastImportantFirst() {
        IntervalSnapshot s = interval(12 * S, S, false, 30 * MS, null,
                op("READ", 5_000, 255 * MS, 19_900_000, Status.TIMEOUT, 18, Status.ERROR, 2),
                op("UPDATE", 4_980, 120 * MS, 8 * MS));
        String[] counters = {"18 timeouts", "2 server errors"};
        String note = "machine noise 12 ms";
        String all = "12s  10,000/s of 10,000/s  READ p99 intended 255 ms | service 19.9 ms"
                + "  UPDATE p99 intended 120 ms | service 8 ms  errors 20 (TIMEOUT 18, ERROR 2)  behind 30 ms"
                + "  18 timeouts, 2 server errors  [machine noise 12 ms]";
        assertEquals(all, line(all.length(), s, 10_000, note, counters));

        // Further types go first (and a marker says how many), then the driver's counters, the breakdown by
        // status, the harness note, the lateness, and the marker; each step is the longest line that fits.
        List<String> expected = List.of(
                "12s  10,000/s of 10,000/s  READ p99 intended 255 ms | service 19.9 ms  +1 op type"
                        + "  errors 20 (TIMEOUT 18, ERROR 2)  behind 30 ms  18 timeouts, 2 server errors"
                        + "  [machine noise 12 ms]",
                "12s  10,000/s of 10,000/s  READ p99 intended 255 ms | service 19.9 ms  +1 op type"
                        + "  errors 20 (TIMEOUT 18, ERROR 2)  behind 30 ms  18 timeouts  [machine noise 12 ms]",
                "12s  10,000/s of 10,000/s  READ p99 intended 255 ms | service 19.9 ms  +1 op type"
                        + "  errors 20 (TIMEOUT 18, ERROR 2)  behind 30 ms  [machine noise 12 ms]",
                "12s  10,000/s of 10,000/s  READ p99 intended 255 ms | service 19.9 ms  +1 op type"
                        + "  errors 20  behind 30 ms  [machine noise 12 ms]",
                "12s  10,000/s of 10,000/s  READ p99 intended 255 ms | service 19.9 ms  +1 op type"
                        + "  errors 20  behind 30 ms",
                "12s  10,000/s of 10,000/s  READ p99 intended 255 ms | service 19.9 ms  +1 op type  errors 20",
                "12s  10,000/s of 10,000/s  READ p99 intended 255 ms | service 19.9 ms  errors 20");
        List<String> got = new ArrayList<>();
        for (String e : expected) {
            String fitted = line(e.length(), s, 10_000, note, counters);
            got.add(fitted);
            assertTrue(fitted.length() <= e.length(), fitted);
        }
        assertEquals(expected, got);
        assertEquals(expected.get(1), line(expected.get(0).length() - 1, s, 10_000, note, counters),
                "one character short drops the next part");
        assertEquals(expected.get(6), line(20, s, 10_000, note, counters),
                "the time, the rate, the worst type and the error count show even past the width, whole");
    }

    @Test
    void theFinalPartialIntervalGivesItsCountNotARate() {
        IntervalSnapshot s = interval(5_210 * MS, 210 * MS, true, 0, null, op("READ", 412, 4_100_000, 4_050_000));
        assertEquals("5.2s  412 ops in the final 210 ms  READ p99 intended 4.1 ms | service 4.05 ms  errors 0",
                line(120, s, 1_000, null));
        IntervalSnapshot one = interval(5_006 * MS, 6 * MS, true, 0, null, op("READ", 1, 4_100_000, 4_050_000));
        assertEquals("5.0s  1 op in the final 6 ms  READ p99 intended 4.1 ms | service 4.05 ms  errors 0",
                line(120, one, 1_000, null));
    }

    @Test
    void anUnthrottledRunShowsItsRateAloneAndOneP99() {
        IntervalSnapshot s = interval(3 * S, S, false, 0, null, op("READ", 9_987, 19_900_000, 19_900_000));
        assertEquals("3s  9,987/s  READ p99 19.9 ms  errors 0", line(120, s, 0, null));
    }

    @Test
    void aPhasedRunNamesItsPhaseAndTheRateItAsksFor() {
        IntervalSnapshot s = interval(12 * S, S, false, 0, new IntervalSnapshot.Phase("ramp", 3_000),
                op("READ", 2_987, 4 * MS, 3 * MS));
        assertEquals("12s  phase ramp  2,987/s of 3,000/s  READ p99 intended 4 ms | service 3 ms  errors 0",
                line(120, s, 3_000, null));
    }

    @Test
    void theSinkPlumbsTheFormatTargetPhaseAndTheDriversCounters() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        RunOptions options = RunOptions.builder("stw-mockdb").target(10_000.0).duration(java.time.Duration.ofSeconds(30))
                .status(StatusFormat.HUMAN).statusWidth(150).build();
        StatusLineSink sink = StatusLineSink.of(options, new PrintStream(bytes, true, StandardCharsets.UTF_8),
                "stw-mockdb", null);
        Map<String, Number> counters = new LinkedHashMap<>();
        counters.put("stop_the_world_pauses", 0L);
        counters.put("stop_the_world_total_ms", 0.0);
        counters.put("hiccups", 1_000L);
        sink.onInterval(interval(S, S, S, false, 0, null, Map.copyOf(counters), op("READ", 10_000, 2 * MS, 1 * MS)));
        counters.put("stop_the_world_pauses", 1L);
        counters.put("stop_the_world_total_ms", 166.6); // not a count of events: never shown
        counters.put("hiccups", 2_200L);
        sink.onInterval(interval(2 * S, S, S, false, 350 * MS, null, counters, op("READ", 7_500, 410 * MS, 37 * MS)));
        List<String> lines = List.of(bytes.toString(StandardCharsets.UTF_8).split("\\R"));
        assertEquals(List.of(
                "1s  10,000/s of 10,000/s  READ p99 intended 2 ms | service 1 ms  errors 0  1,000 hiccups",
                "2s  7,500/s of 10,000/s  READ p99 intended 410 ms | service 37 ms  errors 0  behind 350 ms"
                        + "  1 stop the world pause, 1,200 hiccups"), lines);
    }

    @Test
    void ycsbStaysOneFlagAway() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        RunOptions options = RunOptions.builder("mockdb").target(1_000.0).status(StatusFormat.YCSB).build();
        StatusLineSink.of(options, new PrintStream(bytes, true, StandardCharsets.UTF_8), "mockdb", null)
                .onInterval(interval(S, S, false, 0, null, op("READ", 1_000, 4 * MS, 4 * MS)));
        String line = bytes.toString(StandardCharsets.UTF_8).strip();
        assertTrue(line.contains(" 1 sec: 1000 operations; 1000 current ops/sec; est completion in 9 seconds [READ: Count=1000,"),
                line);
        assertTrue(line.endsWith("[READ returns: 1000 OK]"), line);
        assertEquals(StatusFormat.HUMAN, RunOptions.builder("mockdb").build().statusFormat(), "the default");
        assertEquals(120, RunOptions.builder("mockdb").build().statusWidth());
    }
}
