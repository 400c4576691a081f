package io.loadgen.core.record;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * One worker's latency recorders: a {@link SingleWriterRecorder} per operation type and view, plus
 * one for the scheduler's lag. Written only by its worker thread (single writer, no contention, no
 * allocation); read only by the interval sampler thread, through {@link #drainInto}.
 */
public final class WorkerRecorders {
    private final SingleWriterRecorder[] intended;
    private final SingleWriterRecorder[] service;
    private final SingleWriterRecorder lag;

    public WorkerRecorders(int opTypes) {
        intended = new SingleWriterRecorder[opTypes];
        service = new SingleWriterRecorder[opTypes];
        for (int i = 0; i < opTypes; i++) {
            intended[i] = newRecorder();
            service[i] = newRecorder();
        }
        lag = newRecorder();
    }

    private static SingleWriterRecorder newRecorder() {
        return new SingleWriterRecorder(Histograms.LOWEST_NS, Histograms.HIGHEST_NS, Histograms.SIGNIFICANT_DIGITS);
    }

    /** Records one completed operation; worker thread only. */
    public void record(int opType, long intendedStartNs, long actualStartNs, long endNs) {
        intended[opType].recordValue(Histograms.clamp(endNs - intendedStartNs));
        service[opType].recordValue(Histograms.clamp(endNs - actualStartNs));
    }

    /**
     * Records the scheduler's own delay for one operation: how long after it could have started (its
     * intended start, or when the worker became free if later) it did start. Worker thread only.
     */
    public void recordLag(long lagNs) {
        lag.recordValue(Histograms.clamp(lagNs));
    }

    /**
     * Moves what was recorded since the last call into {@code target} (added, not replaced), using
     * {@code scratch} as the swap space. Sampler thread only.
     *
     * @param view {@link View#INTENDED} or {@link View#SERVICE}
     */
    public void drainInto(int opType, View view, Histogram scratch, Histogram target) {
        SingleWriterRecorder r = view == View.INTENDED ? intended[opType] : service[opType];
        r.getIntervalHistogramInto(scratch);
        target.add(scratch);
    }

    /** Like {@link #drainInto} for the lag recorder. Sampler thread only. */
    public void drainLagInto(Histogram scratch, Histogram target) {
        lag.getIntervalHistogramInto(scratch);
        target.add(scratch);
    }
}
