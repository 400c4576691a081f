package io.loadgen.core.sweep;

import io.loadgen.core.record.Histograms;
import io.loadgen.core.record.View;
import io.loadgen.core.schedule.Arrival;
import io.loadgen.core.summary.OpResult;
import io.loadgen.core.summary.RunResult;
import org.HdrHistogram.Histogram;

/**
 * One step of a sweep: the rate it offered and the run's full result. Immutable once built (the
 * result's histograms are read only); main thread.
 *
 * @param number           1-based position in the sweep, in the order run
 * @param offeredOpsPerSec the target rate of this step's run
 * @param result           what the step's run measured
 * @param arrival          how the step's intended starts were spaced (Poisson counts vary; see {@link KeepUpRule})
 */
public record SweepStep(int number, double offeredOpsPerSec, RunResult result, Arrival arrival) {

    /** A step with uniform arrivals. */
    public SweepStep(int number, double offeredOpsPerSec, RunResult result) {
        this(number, offeredOpsPerSec, result, Arrival.UNIFORM);
    }

    /** Completed operations per second of measured run time. */
    public double achievedOpsPerSec() {
        return result.throughputOpsPerSec();
    }

    /** One view summed over every operation type the step issued (ns). */
    public Histogram view(View view) {
        Histogram sum = Histograms.newHistogram();
        for (OpResult op : result.operations()) {
            sum.add(op.histogram(view));
        }
        return sum;
    }

    /** Operations that returned anything but OK, over all types. */
    public long errors() {
        long n = 0;
        for (OpResult op : result.operations()) {
            n += op.errors();
        }
        return n;
    }

    public long unissued() {
        return result.unissuedOps();
    }

    /**
     * The step's primary cause ({@code ok}, {@code target_slow}, {@code concurrency_limited}, ...: the run's
     * diagnosis), or {@code -} for a step without one.
     */
    public String diagnosis() {
        return result.diagnosis() == null ? "-" : result.diagnosis().primary().code().key();
    }

    /** Whether the step kept up with its offered rate ({@link KeepUpRule}); one that did not cannot meet an SLA. */
    public boolean keptUp() {
        return KeepUpRule.keptUp(this);
    }

    /** Why the step did not keep up, e.g. {@code fell behind: achieved 192.9 of 200 ops/s (194.0 needed), 6 unissued}; empty when it did. */
    public String shortfall() {
        return KeepUpRule.shortfall(this);
    }

    /** Whether the step's run was stopped early (Ctrl-C), so its row covers only part of the duration. */
    public boolean cutShort() {
        String reason = result.stopReason();
        return !"duration".equals(reason) && !"operations".equals(reason);
    }
}
