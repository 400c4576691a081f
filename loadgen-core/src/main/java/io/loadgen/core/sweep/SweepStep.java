package io.loadgen.core.sweep;

import io.loadgen.core.record.Histograms;
import io.loadgen.core.record.View;
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
 */
public record SweepStep(int number, double offeredOpsPerSec, RunResult result) {

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

    /** Whether the step's run was stopped early (Ctrl-C), so its row covers only part of the duration. */
    public boolean cutShort() {
        String reason = result.stopReason();
        return !"duration".equals(reason) && !"operations".equals(reason);
    }
}
