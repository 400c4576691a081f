package io.loadgen.core.sweep;

import io.loadgen.core.driver.Status;
import io.loadgen.core.record.Histograms;
import io.loadgen.core.record.View;
import io.loadgen.core.schedule.Arrival;
import io.loadgen.core.summary.OpResult;
import io.loadgen.core.summary.RunResult;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** SLA evaluation on hand-made steps whose intended and service p99 are known exactly. */
class SlaVerdictTest {
    private static final long MS = 1_000_000L;

    /**
     * A 1 s step on one thread that kept up (it completed {@code rate} operations, none unissued), where every
     * operation took {@code intendedMs} from its intended start and {@code serviceMs} to serve.
     */
    static SweepStep step(int number, double rate, long intendedMs, long serviceMs) {
        return step(number, rate, intendedMs, serviceMs, (long) rate, 1_000_000_000L, 0);
    }

    /** A step on one thread with uniform arrivals that completed {@code completed} operations in {@code runTimeNs}. */
    static SweepStep step(int number, double rate, long intendedMs, long serviceMs, long completed, long runTimeNs,
                          long unissued) {
        return step(number, rate, intendedMs, serviceMs, completed, runTimeNs, unissued, 1, Arrival.UNIFORM);
    }

    static SweepStep step(int number, double rate, long intendedMs, long serviceMs, long completed, long runTimeNs,
                          long unissued, int threads, Arrival arrival) {
        int n = Math.toIntExact(completed);
        Map<View, Histogram> views = new EnumMap<>(View.class);
        views.put(View.INTENDED, repeated(n, intendedMs * MS));
        views.put(View.SERVICE, repeated(n, serviceMs * MS));
        views.put(View.CORRECTED, repeated(n, serviceMs * MS));
        long[] statuses = new long[Status.count()];
        statuses[Status.OK.ordinal()] = n;
        RunResult r = new RunResult("mockdb", rate, threads, runTimeNs, List.of(new OpResult("READ", views, statuses)),
                Histograms.newHistogram(), (long) (threads * 1e9 / rate), unissued, Map.of(), Map.of(), "duration");
        return new SweepStep(number, rate, r, arrival);
    }

    private static Histogram repeated(int n, long ns) {
        Histogram h = Histograms.newHistogram();
        h.recordValueWithCount(ns, n);
        return h;
    }

    /** A store that keeps up to 3000 ops/s (intended = service = 5 ms), then queues: intended grows, service stays 5 ms. */
    static List<SweepStep> knee() {
        long[][] rateIntendedService = {{1000, 5, 5}, {2000, 5, 5}, {3000, 6, 5}, {4000, 40, 5}, {5000, 400, 6}};
        List<SweepStep> steps = new ArrayList<>();
        for (long[] s : rateIntendedService) {
            steps.add(step(steps.size() + 1, s[0], s[1], s[2]));
        }
        return steps;
    }

    @Test
    void intendedFindsTheKneeWhileServiceClaimsEveryRate() {
        SlaVerdict v = SlaVerdict.of(Sla.parse("p99<10ms"), knee());
        assertEquals(OptionalDouble.of(3000), v.intendedUpTo());
        assertEquals(OptionalDouble.of(5000), v.serviceUpTo());
        assertEquals(4000, v.firstMiss().offeredOpsPerSec());
        assertEquals(List.of(
                "SLA p99<10ms: met up to 3000 ops/s measured from intended start; service time would claim 5000 ops/s.",
                "At 4000 ops/s, the next rate tested, intended p99 = 40.010 ms while service p99 = 5.001 ms."),
                v.lines());
    }

    @Test
    void stepsAreJudgedInRateOrderWhateverOrderTheyRan() {
        List<SweepStep> shuffled = new ArrayList<>(knee());
        java.util.Collections.reverse(shuffled);
        assertEquals(OptionalDouble.of(3000), SlaVerdict.of(Sla.parse("p99<10ms"), shuffled).intendedUpTo());
    }

    @Test
    void noRateMeetingItIsSaid() {
        SlaVerdict v = SlaVerdict.of(Sla.parse("p50<1ms"), knee());
        assertTrue(v.intendedUpTo().isEmpty());
        assertTrue(v.serviceUpTo().isEmpty());
        assertEquals("SLA p50<1ms: not met at any rate tested measured from intended start;"
                + " service time would not meet it either.", v.lines().get(0));
        assertTrue(v.lines().get(1).startsWith("At 1000 ops/s, the lowest rate tested, intended p50 = 5.001 ms"));
    }

    @Test
    void everyRateMeetingItAsksForHigherRates() {
        SlaVerdict v = SlaVerdict.of(Sla.parse("max<1s"), knee());
        assertEquals(OptionalDouble.of(5000), v.intendedUpTo());
        assertNull(v.firstMiss());
        assertEquals("No rate above it missed it; sweep higher rates to find where it stops.", v.lines().get(1));
    }

    @Test
    void aColdFirstStepDoesNotHideTheKneeButIsNamed() {
        List<SweepStep> steps = knee();
        steps.set(0, step(1, 1000, 90, 7)); // the first step ran on a cold JVM
        SlaVerdict v = SlaVerdict.of(Sla.parse("p99<10ms"), steps);
        assertEquals(OptionalDouble.of(3000), v.intendedUpTo());
        assertEquals(OptionalDouble.of(5000), v.serviceUpTo());
        assertEquals(1, v.lowerMisses().size());
        assertTrue(v.lines().get(1).endsWith("Lower rates missed it too (1000 ops/s): a cold start or a hiccup;"
                + " see the table, and consider --warmup."), v.lines().get(1));
    }

    /** The issue's sweep: the 200 ops/s step's p99 is fine, but it achieved 192.9 with 6 unissued. */
    static List<SweepStep> issueSweep() {
        List<SweepStep> steps = new ArrayList<>();
        for (double rate : new double[]{50, 100, 150}) {
            steps.add(step(steps.size() + 1, rate, 5, 5));
        }
        steps.add(step(4, 200, 20, 5, 193, Math.round(193 * 1e9 / 192.9), 6));
        return steps;
    }

    @Test
    void aStepThatFellBehindDoesNotMeetTheSlaWhateverItsPercentiles() {
        SlaVerdict v = SlaVerdict.of(Sla.parse("p99<50ms"), issueSweep());
        assertEquals(OptionalDouble.of(150), v.intendedUpTo());
        assertEquals(OptionalDouble.of(200), v.serviceUpTo(), "service time is the naive claim: it ignores keeping up");
        assertEquals(200, v.firstMiss().offeredOpsPerSec());
        assertEquals(List.of(
                "SLA p99<50ms: met up to 150 ops/s measured from intended start; service time would claim 200 ops/s.",
                "At 200 ops/s, the next rate tested, the step fell behind: achieved 192.9 of 200 ops/s (194.0 needed),"
                        + " 6 unissued, so it cannot meet the SLA whatever its percentiles"
                        + " (intended p99 = 20.005 ms while service p99 = 5.001 ms)."),
                v.lines());
    }

    @Test
    void aLowerStepThatFellBehindIsNamedAsSuch() {
        List<SweepStep> steps = knee();
        steps.set(0, step(1, 1000, 5, 5, 1000, 1_000_000_000L, 3));
        SlaVerdict v = SlaVerdict.of(Sla.parse("p99<10ms"), steps);
        assertEquals(OptionalDouble.of(3000), v.intendedUpTo());
        assertTrue(v.lines().get(1).contains("Lower rates missed it too (1000 ops/s fell behind):"), v.lines().get(1));
    }

    @Test
    void tableCsvAndJsonSayWhichStepsFellBehindAndWhy() throws Exception {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        SweepTable.write(issueSweep(), new java.io.PrintStream(bytes, true, java.nio.charset.StandardCharsets.UTF_8));
        String[] lines = bytes.toString(java.nio.charset.StandardCharsets.UTF_8).split("\n");
        assertEquals(6, lines.length);
        assertTrue(lines[0].endsWith("errors  unissued  kept up  diagnosis"), lines[0]);
        assertTrue(lines[3].endsWith("0         0      yes          -"), lines[3]); // these results have no diagnosis
        assertTrue(lines[4].endsWith("0         6       no          -"), lines[4]);
        assertEquals("The 200 ops/s step fell behind: achieved 192.9 of 200 ops/s (194.0 needed), 6 unissued;"
                + " it cannot meet an SLA.", lines[5]);
        java.nio.file.Path csv = java.nio.file.Files.createTempFile("sweep", ".csv");
        try {
            SweepFiles.writeCsv(issueSweep(), csv);
            List<String> rows = java.nio.file.Files.readAllLines(csv);
            assertTrue(rows.get(0).endsWith(",errors,unissued,kept_up,diagnosis"), rows.get(0));
            assertTrue(rows.get(3).endsWith(",0,0,true,-"), rows.get(3)); // built without a diagnosis
            assertTrue(rows.get(4).endsWith(",0,6,false,-"), rows.get(4));
        } finally {
            java.nio.file.Files.delete(csv);
        }
        com.fasterxml.jackson.databind.JsonNode json = SweepFiles.toJson(issueSweep());
        assertTrue(json.get(2).get("kept_up").asBoolean());
        assertFalse(json.get(3).get("kept_up").asBoolean());
        assertEquals(194.0, json.get(3).get("keep_up_min_ops_per_sec").asDouble(), 0.01);
    }

    @Test
    void tableAndCsvCarryOneRowPerStep() throws Exception {
        String[] cells = SweepTable.cells(knee().get(3));
        assertEquals(List.of("4000", "4000.0", "40.010", "40.010", "40.010", "40.010", "5.001", "0", "0", "yes",
                "-"), List.of(cells));
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        SweepTable.write(knee(), new java.io.PrintStream(bytes, true, java.nio.charset.StandardCharsets.UTF_8));
        String[] lines = bytes.toString(java.nio.charset.StandardCharsets.UTF_8).split("\n");
        assertEquals(6, lines.length);
        assertTrue(lines[0].startsWith("offered (ops/s)  achieved (ops/s)  intended p50 (ms)"), lines[0]);
        assertEquals(2, SweepFiles.toJson(knee()).get(1).get("step").asInt());
        assertEquals(2000.0, SweepFiles.toJson(knee()).get(1).get("target_ops_per_sec").asDouble());
    }
}
