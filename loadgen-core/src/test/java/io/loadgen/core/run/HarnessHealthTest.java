package io.loadgen.core.run;

import io.loadgen.core.StopSignal;
import io.loadgen.core.diagnosis.Diagnosis;
import io.loadgen.core.diagnosis.Evidences;
import io.loadgen.core.driver.Status;
import io.loadgen.core.record.Histograms;
import io.loadgen.core.record.WorkerRecorders;
import io.loadgen.core.summary.HarnessReport;
import io.loadgen.core.summary.HarnessVerdict;
import io.loadgen.core.time.NanoClock;
import io.loadgen.core.wait.WaitStrategy;
import io.loadgen.core.workload.OperationPlan;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Harness health's sums, shares and GC counts, from exact inputs (no run, no clock). */
class HarnessHealthTest {
    private static final long MS = 1_000_000;

    private static LoadThread worker(int index) {
        return new Worker(new LoadThread.Setup(index, new WorkerRecorders(1), WaitStrategy.PARK, NanoClock.SYSTEM,
                new StopSignal(), new SchedulePosition(2), 1, OperationPlan.fixed("READ").forThread(index, 2, null),
                new String[]{"READ"}, new int[]{0}), op -> Status.OK);
    }

    /** A healthy run's diagnosis: nothing blames the harness. */
    private static final Diagnosis HEALTHY = Evidences.healthy().diagnose();

    /** An interval as the aggregator hands it to its sinks: measured or warm-up, with these events. */
    private static IntervalSnapshot interval(boolean measured, IntervalSnapshot.Event... events) {
        IntervalSnapshot.Builder b = new IntervalSnapshot.Builder();
        b.measured = measured;
        b.endNs = 1_000;
        b.lag = Histograms.newHistogram();
        b.operations = List.of();
        b.byTag = Map.of();
        b.events = List.of(events);
        b.driverCounters = Map.of();
        return new IntervalSnapshot(b);
    }

    private static IntervalSnapshot.Event gc(long lengthNs) {
        return new IntervalSnapshot.Event("gc", "harness", 1_000, lengthNs);
    }

    private static Histogram lag(long ns) {
        Histogram h = Histograms.newHistogram();
        h.recordValueWithCount(ns, 100);
        return h;
    }

    @Test
    void theHarnessShareIsItsTimeBetweenOverdueOperationsOverTheMeasuredWorkersTime() {
        LoadThread a = worker(0);
        LoadThread b = worker(1);
        HarnessHealth health = new HarnessHealth(null, new LoadThread[]{a, b});
        // During the warm-up: worker a, free at 100, issues an op due at 0 at 160, free again at 200.
        a.countBehind(0, 100, 160, 200);
        health.onInterval(interval(false));
        // Measured: b, free at 1000, issues an op due at 0 at 1300 (harness 300 ns), free at 2000 (own 700 ns);
        // a issues one on time (due 500, free since 200): not behind, not counted.
        b.countBehind(0, 1000, 1300, 2000);
        a.countBehind(500, 200, 500, 600);
        health.onInterval(interval(true));
        // Two workers x 1000 ns measured = 2000 ns of workers' time: harness 300 / 2000, behind 1000 / 2000.
        HarnessReport r = health.report(1000, true, lag(20_000), HEALTHY);
        assertEquals(0.15, r.harnessShare(), 1e-12);
        assertEquals(0.5, r.behindShare(), 1e-12);
        assertNull(r.hiccups(), "no meter, no hiccups");
        assertEquals("harness healthy: lag p99 20 us, hiccups not measured, no GC pause; the workers spent 50% of"
                + " their time behind schedule (the harness's own share: 15%)", r.verdict().text());
    }

    @Test
    void theHarnessGcPausesAreCountedFromTheIntervalsEventsButAreNoBlameByThemselves() {
        HarnessHealth health = new HarnessHealth(null, new LoadThread[]{worker(0)});
        health.onInterval(interval(true, gc(3 * MS),
                new IntervalSnapshot.Event("stop-the-world", "stw-mockdb", 1_100, 100 * MS), // the driver's, not the harness's
                gc(12 * MS)));
        assertNull(health.statusNote(interval(true)), "a pause that delayed no operation is not noted");
        HarnessReport r = health.report(1_000 * MS, true, lag(20_000), HEALTHY);
        assertEquals(List.of(2L, 15 * MS, 12 * MS), List.of(r.gcPauses(), r.gcPauseTotalNs(), r.gcPauseMaxNs()));
        assertEquals(List.of(), r.verdict().reasons());
        assertEquals("harness healthy: lag p99 20 us, hiccups not measured, 2 GC pauses, max 12 ms, total 15 ms",
                r.verdict().text());
        // When the diagnosis blames a stall that the GC explains, the verdict gives both reasons.
        Diagnosis stalled = Evidences.healthy().delay(new io.loadgen.core.diagnosis.Latencies(10_000, 0, 0, 0, 2 * MS,
                12 * MS, 12 * MS)).intended(new io.loadgen.core.diagnosis.Latencies(10_000, 4 * MS, 4 * MS, 4 * MS,
                6 * MS, 16 * MS, 16 * MS)).undelayed(Evidences.flat(4 * MS)).gc(2, 12 * MS).diagnose();
        assertEquals(List.of(HarnessVerdict.Reason.LAG, HarnessVerdict.Reason.GC),
                health.report(1_000 * MS, true, lag(20_000), stalled).verdict().reasons());
    }

    @Test
    void pausesDuringTheWarmUpAreLoggedButNotCounted() {
        HarnessHealth health = new HarnessHealth(null, new LoadThread[]{worker(0)});
        health.onInterval(interval(false, gc(30 * MS)));
        health.onInterval(interval(true));
        HarnessReport r = health.report(1_000 * MS, true, lag(20_000), HEALTHY);
        assertEquals(0, r.gcPauses());
        assertEquals(true, r.verdict().healthy(), r.verdict().text());
    }

    @Test
    void aPauseThatBeganBeforeTheRunStartedIsNotTheRuns() {
        // The run started at 5 s (epoch ms 5,000); a 40 ms collection at 1 s (the driver's warm-up, or the
        // collection the run makes just before t0) reaches the first interval's events but is not counted.
        HarnessHealth health = new HarnessHealth(null, new LoadThread[]{worker(0)});
        IntervalSnapshot.Builder b = new IntervalSnapshot.Builder();
        b.runStartMs = 5_000;
        b.measured = true;
        b.operations = List.of();
        b.byTag = Map.of();
        b.events = List.of(gc(40 * MS), new IntervalSnapshot.Event("gc", "harness", 5_200, 2 * MS));
        b.driverCounters = Map.of();
        health.onInterval(new IntervalSnapshot(b));
        HarnessReport r = health.report(1_000 * MS, true, lag(20_000), HEALTHY);
        assertEquals(List.of(1L, 2 * MS), List.of(r.gcPauses(), r.gcPauseMaxNs()));
    }

    @Test
    void anIntervalInWhichTheHarnessTookMostOfTheWorkersTimeIsNoted() {
        LoadThread a = worker(0);
        HarnessHealth health = new HarnessHealth(null, new LoadThread[]{a});
        a.countBehind(0, 100, 700, 1_000); // 600 ns of a 1000 ns interval
        health.onInterval(interval(true));
        assertEquals("harness saturated: share 60%", health.statusNote(interval(true)));
    }

    /** An interval of 1000 READs, intended {@code intendedNs} each but for the top 1%, and the harness's series. */
    private static IntervalSnapshot withOperations(long intendedP99Ns, long undelayedP99Ns, long delayMaxNs,
                                                   long hiccupMaxNs) {
        Histogram intended = Histograms.newHistogram();
        intended.recordValueWithCount(4 * MS, 985);
        intended.recordValueWithCount(intendedP99Ns, 15);
        Histogram undelayed = Histograms.newHistogram();
        undelayed.recordValueWithCount(4 * MS, 985);
        undelayed.recordValueWithCount(undelayedP99Ns, 15);
        Histogram delay = Histograms.newHistogram();
        delay.recordValueWithCount(0, 985);
        delay.recordValueWithCount(delayMaxNs, 15);
        Histogram hiccups = Histograms.newHistogram();
        hiccups.recordValue(hiccupMaxNs);
        IntervalSnapshot.Builder b = new IntervalSnapshot.Builder();
        b.measured = true;
        b.endNs = 1_000 * MS;
        b.lag = Histograms.newHistogram();
        b.harnessDelay = delay;
        b.undelayed = undelayed;
        b.operations = List.of(new IntervalSnapshot.Op("READ", intended, intended, Histograms.newHistogram(),
                Histograms.newHistogram(), new long[Status.count()]));
        b.byTag = Map.of(HarnessHealth.HICCUP_TAG, hiccups);
        b.events = List.of();
        b.driverCounters = Map.of();
        return new IntervalSnapshot(b);
    }

    @Test
    void theStatusNoteBlamesTheHarnessOnlyForWhatItsDelayDidToTheIntervalsP99() {
        HiccupMeter meter = new HiccupMeter(NanoClock.SYSTEM, ns -> { }, HiccupMeter.RESOLUTION_NS);
        HarnessHealth health = new HarnessHealth(meter, new LoadThread[]{worker(0)});
        // p99 10 ms, of which the harness delayed the slowest operations by 6 ms: without it, 4 ms.
        IntervalSnapshot stalled = withOperations(10 * MS, 4 * MS, 6 * MS, 1 * MS);
        health.onInterval(stalled);
        assertEquals("harness stalled 6 ms", health.statusNote(stalled));
        // The same p99 without the harness's delay: a 20 ms hiccup of the meter's thread is machine noise.
        IntervalSnapshot noise = withOperations(10 * MS, 10 * MS, 0, 20 * MS);
        health.onInterval(noise);
        assertEquals("machine noise 20 ms", health.statusNote(noise));
        // A 3 ms hiccup is within the meter's own 5 ms sleep: nothing said.
        IntervalSnapshot quiet = withOperations(10 * MS, 10 * MS, 0, 3 * MS);
        health.onInterval(quiet);
        assertNull(health.statusNote(quiet));
    }

    @Test
    void theHarnessDelayOfAnOperationIsItsLagOrWhatTheBacklogCarriedWhicheverIsLarger() {
        // On time (due at 100, the thread free since 50): its lag alone.
        assertEquals(7, LoadThread.harnessDelay(7, 100, 50, 300_000));
        // Behind by 200 ns after a 300 ms stall carried: at most its wait behind the previous one, 200.
        assertEquals(200, LoadThread.harnessDelay(7, 100, 300, 300 * MS));
        // Deep in the backlog of a 300 ms stall: the stall's 299 ms, not the 3 ns lag.
        assertEquals(299 * MS, LoadThread.harnessDelay(3, 0, 299 * MS, 300 * MS));
        // Small lags through a backlog that never clears do not add up: 5 then 5 stays 5.
        assertEquals(5, LoadThread.harnessDelay(5, 0, 1_000, LoadThread.harnessDelay(5, 0, 1_000, 5)));
    }
}
