package io.loadgen.core.run;

import io.loadgen.core.diagnosis.Cause;
import io.loadgen.core.diagnosis.CauseCode;
import io.loadgen.core.diagnosis.Diagnoser;
import io.loadgen.core.diagnosis.Evidence;
import io.loadgen.core.diagnosis.Latencies;
import io.loadgen.core.driver.Status;
import io.loadgen.core.record.Histograms;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Turns each closed interval into a {@link LiveMetrics.Reading} and publishes it: the interval histograms'
 * percentiles (the interval log's own numbers), the status counts added up since the run began, the rates, the
 * harness's lag, hiccups and share, and the diagnosis of this interval alone ({@link Diagnoser} on the interval's
 * {@link Evidence}, as the run's is judged at its end). One of the aggregator's sinks, after the harness's health;
 * aggregator thread only. It allocates one small reading per interval there, nothing elsewhere.
 */
final class LiveMetricsSink implements IntervalSink {
    private final LiveMetrics live;
    private final LiveMetrics.RunLabels labels;
    private final RunOptions options;
    private final HarnessHealth health;
    private final int inFlightPerThread;
    private final boolean async;
    /** Per type, per status ordinal: operations since the run began. */
    private final long[][] totals;
    /** Every type's successes (and, in {@link #all}, failures too) of the interval, for its diagnosis; reused. */
    private final Histogram successes = Histograms.newHistogram();
    private final Histogram successService = Histograms.newHistogram();
    private final Histogram all = Histograms.newHistogram();
    private final Histogram allService = Histograms.newHistogram();
    private double achievedOpsPerSec;

    LiveMetricsSink(LiveMetrics live, LiveMetrics.RunLabels labels, int types, RunOptions options,
                    HarnessHealth health, int inFlightPerThread, boolean async) {
        this.live = live;
        this.labels = labels;
        this.options = options;
        this.health = health;
        this.inFlightPerThread = inFlightPerThread;
        this.async = async;
        this.totals = new long[types][Status.count()];
    }

    @Override
    public void onInterval(IntervalSnapshot s) {
        List<LiveMetrics.OpReading> ops = new ArrayList<>(s.operations().size());
        long completed = 0;
        for (int o = 0; o < s.operations().size(); o++) {
            IntervalSnapshot.Op op = s.operations().get(o);
            for (int k = 0; k < Status.count(); k++) {
                totals[o][k] += op.statusCount(Status.byOrdinal(k));
            }
            completed += op.operations();
            ops.add(new LiveMetrics.OpReading(op.name(), percentiles(op.intended()), percentiles(op.service()),
                    totals[o].clone()));
        }
        if (!s.partial()) {
            achievedOpsPerSec = completed * 1e9 / Math.max(1, s.lengthNs());
        }
        Histogram lag = s.lag();
        boolean lagged = lag != null && lag.getTotalCount() > 0;
        double offered = s.phase() != null ? s.phase().targetOpsPerSec()
                : options.throttled() ? options.targetOpsPerSec() : Double.NaN;
        double[] shares = health.intervalShares(s.lengthNs());
        live.publish(new LiveMetrics.Reading(labels, s.endMs(), s.measured(), ops, offered, achievedOpsPerSec,
                lagged ? lag.getValueAtPercentile(99) : -1, lagged ? lag.getMaxValue() : -1,
                health.intervalHiccupMaxNs(), s.behindNs(), shares[1], causes(s, completed, offered, shares)));
    }

    /** The interval log's percentiles of {@code h}: getValueAtPercentile, the max as getMaxValue; null when empty. */
    static long[] percentiles(Histogram h) {
        if (h.getTotalCount() == 0) {
            return null;
        }
        long[] ns = new long[LiveMetrics.PERCENTILES.size()];
        for (int i = 0; i < ns.length; i++) {
            double p = LiveMetrics.PERCENTILES.get(i);
            ns[i] = p >= 100 ? h.getMaxValue() : h.getValueAtPercentile(p);
        }
        return ns;
    }

    /** The diagnosis of this interval alone: its evidence as the run's is gathered, over the interval's length. */
    private Set<CauseCode> causes(IntervalSnapshot s, long completed, double offered, double[] shares) {
        successes.reset();
        successService.reset();
        all.reset();
        allService.reset();
        long[] byStatus = new long[Status.count()];
        for (IntervalSnapshot.Op op : s.operations()) {
            successes.add(op.intended());
            successService.add(op.service());
            all.add(op.intended());
            all.add(op.failedIntended());
            allService.add(op.service());
            allService.add(op.failedService());
            for (int k = 0; k < byStatus.length; k++) {
                byStatus[k] += op.statusCount(Status.byOrdinal(k));
            }
        }
        List<Evidence.StatusCount> failures = new ArrayList<>();
        long failed = 0;
        for (int k = 0; k < byStatus.length; k++) {
            if (!Status.byOrdinal(k).isOk() && byStatus[k] > 0) {
                failed += byStatus[k];
                failures.add(new Evidence.StatusCount(Status.byOrdinal(k).name(), byStatus[k]));
            }
        }
        failures.sort((a, b) -> Long.compare(b.count(), a.count()));
        boolean throttled = options.throttled();
        long[] gc = health.intervalGcPauses();
        Histogram delay = s.harnessDelay();
        long delayAt = delay != null && delay.getTotalCount() > 0 && delay.getMaxValue() > 0
                ? s.startNs() - s.runStartNs() : -1;
        Evidence e = new Evidence(labels.driver(), throttled, throttled ? offered : 0, Math.max(1, s.lengthNs()),
                completed, failed, failures, null, 0, options.threads(), inFlightPerThread, async,
                Latencies.of(all), Latencies.of(allService), throttled ? Latencies.of(delay) : Latencies.NONE,
                health.intervalHiccupMaxNs(), gc[0], gc[1], shares[0], shares[1], options.maxErrorRate(),
                Latencies.of(successes), Latencies.of(successService),
                throttled ? Latencies.of(s.undelayed()) : Latencies.NONE, delayAt, options.interval().toNanos(), 0);
        Set<CauseCode> codes = EnumSet.noneOf(CauseCode.class);
        for (Cause c : Diagnoser.diagnose(e).causes()) {
            codes.add(c.code());
        }
        return codes;
    }
}
