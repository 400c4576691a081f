package io.loadgen.core.findmax;

import io.loadgen.core.diagnosis.Cause;
import io.loadgen.core.diagnosis.CauseCode;
import io.loadgen.core.gate.Rule;
import io.loadgen.core.record.Histograms;
import io.loadgen.core.record.StatusTags;
import io.loadgen.core.record.View;
import io.loadgen.core.run.IntervalHistograms;
import io.loadgen.core.schedule.Arrival;
import io.loadgen.core.summary.CorrectedBasis;
import io.loadgen.core.summary.HarnessReport;
import io.loadgen.core.summary.OpResult;
import io.loadgen.core.summary.RunInfo;
import io.loadgen.core.summary.RunResult;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A sharded step judged whole: every shard's report ({@link ShardSync.Report}) merged interval by interval (the
 * shards started on the same instant with the same interval, so interval i of each covers the same time) into one
 * run's result and one recorder, then judged as an unsharded step ({@link FindMaxStep}) against the whole rate. Every
 * shard merges the same reports in the same order with the same bootstrap seed, so every shard reaches the same
 * verdict. The step is fixed-length (the run ends by its duration), so keeping up is {@code KeepUpRule}'s, as a
 * sweep's step. Stateless.
 */
final class ShardedStep {
    private ShardedStep() {
    }

    static FindMaxStep judge(int number, double totalRate, Arrival arrival, List<ShardSync.Report> reports,
                             List<Rule> rules, long seed, String driver) {
        int n = Integer.MAX_VALUE;
        Set<String> tags = new LinkedHashSet<>();
        for (ShardSync.Report r : reports) {
            n = Math.min(n, r.lengths().size());
            tags.addAll(r.byTag().keySet());
        }
        tags.remove(StepRecorder.ALL); // the merged recorder adds it up again
        StepRecorder merged = new StepRecorder(new StabilityDetector(totalRate, Double.MAX_VALUE, Double.MAX_VALUE),
                reason -> { });
        Map<String, Histogram> totals = new LinkedHashMap<>();
        long startMs = 0;
        for (int i = 0; i < n; i++) {
            Map<String, Histogram> byTag = new LinkedHashMap<>();
            for (String tag : tags) {
                Histogram sum = StatusTags.isStatusTag(tag) ? StatusTags.newHistogram() : Histograms.newHistogram();
                for (ShardSync.Report r : reports) {
                    List<Histogram> list = r.byTag().get(tag);
                    if (list != null && i < list.size()) {
                        sum.add(list.get(i));
                    }
                }
                byTag.put(tag, sum);
                totals.computeIfAbsent(tag, k -> StatusTags.isStatusTag(k) ? StatusTags.newHistogram()
                        : Histograms.newHistogram()).add(sum);
            }
            long lengthMs = Math.round(reports.get(0).lengths().get(i) * 1000);
            merged.onInterval(new IntervalHistograms(0, startMs, startMs + lengthMs, true, byTag));
            startMs += lengthMs;
        }
        List<OpResult> ops = new ArrayList<>();
        for (String tag : tags) {
            if (!tag.endsWith(".intended") || tag.contains(".failed.")) {
                continue;
            }
            String op = tag.substring(0, tag.length() - ".intended".length());
            Map<View, Histogram> views = new EnumMap<>(View.class);
            Histogram service = totals.getOrDefault(op + ".service", Histograms.newHistogram());
            views.put(View.INTENDED, totals.get(tag));
            views.put(View.SERVICE, service);
            views.put(View.CORRECTED, service.copy());
            Histogram status = totals.get(StatusTags.tag(op));
            long[] statuses = status == null ? new long[io.loadgen.core.driver.Status.count()] : StatusTags.counts(status);
            ops.add(new OpResult(op, views, statuses));
        }
        int threads = 0;
        long unissued = 0;
        long inFlight = 0;
        long runTimeNs = 0;
        Cause blamed = null;
        for (ShardSync.Report r : reports) {
            threads += r.threads();
            unissued += r.unissued();
            inFlight += r.inFlight();
            runTimeNs = Math.max(runTimeNs, r.runTimeNs());
            if (blamed == null && r.fault() != null) {
                blamed = new Cause(CauseCode.ofKey(r.fault()), "shard " + r.shard() + ": " + r.faultText(), Map.of());
            }
        }
        Map<String, Number> harness = new LinkedHashMap<>();
        harness.put("in_flight_at_end", inFlight);
        RunResult result = new RunResult(driver, totalRate, threads, runTimeNs, ops, mergedLag(reports),
                (long) (threads * 1e9 / totalRate), unissued, Map.of(), harness, "duration",
                CorrectedBasis.serial((long) (threads * 1e9 / totalRate)), mergedWatch(reports), RunInfo.NONE, null);
        return FindMaxStep.judge(number, totalRate, result, arrival, merged, rules, seed, blamed);
    }

    /** Every shard's scheduler lag in one histogram: the step's lag is any shard's. */
    private static Histogram mergedLag(List<ShardSync.Report> reports) {
        Histogram lag = Histograms.newHistogram();
        for (ShardSync.Report r : reports) {
            if (r.watch().lag() != null) {
                lag.add(r.watch().lag());
            }
        }
        return lag;
    }

    /**
     * Every shard's hiccups in one histogram, so a step that failed shows the stalls of every machine it ran on. No
     * verdict: that is each shard's, and a shard's harness fault already blames the step
     * ({@link ShardSync.Report#fault()}).
     */
    private static HarnessReport mergedWatch(List<ShardSync.Report> reports) {
        Histogram hiccups = null;
        for (ShardSync.Report r : reports) {
            if (r.watch().hiccups() != null) {
                if (hiccups == null) {
                    hiccups = Histograms.newHistogram();
                }
                hiccups.add(r.watch().hiccups());
            }
        }
        return hiccups == null ? HarnessReport.NONE : HarnessReport.NONE.withHiccups(hiccups);
    }

    /** This shard's report of its step: its counts, its harness cause if any, its recorder's intervals, its watch. */
    static ShardSync.Report report(int shard, double offered, RunResult result, StepRecorder recorder) {
        Number inFlight = result.harness().get("in_flight_at_end");
        Cause blamed = result.diagnosis() != null && result.diagnosis().primary().code().blamesHarness()
                ? result.diagnosis().primary() : null;
        Map<String, List<Histogram>> byTag = new LinkedHashMap<>();
        for (String tag : recorder.tags()) {
            if (!tag.equals(StepRecorder.ALL)) {
                byTag.put(tag, recorder.intervals(tag));
            }
        }
        return new ShardSync.Report(shard, offered, result.threads(), result.totalOperations(), result.unissuedOps(),
                inFlight == null ? 0 : inFlight.longValue(), result.runTimeNs(),
                blamed == null ? null : blamed.code().key(), blamed == null ? null : blamed.text(), recorder.lengths(),
                byTag, new ShardSync.Watch(result.throttled() ? result.lag() : null, result.health().hiccups()));
    }
}
