package io.loadgen.core.record;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.IntervalHistogramProvider;
import org.HdrHistogram.Recorder;
import org.HdrHistogram.SingleWriterRecorder;
import org.HdrHistogram.ValueRecorder;

/**
 * One worker's (or issuer's) latency recorders: one per operation type and view, plus one for the
 * scheduler's lag. A blocking worker records only on its own thread, so it gets HdrHistogram's
 * {@link SingleWriterRecorder} (no contention); an async issuer's completions record from I/O
 * threads, so it gets the multi-writer {@link Recorder}. Neither allocates when recording. Read only
 * by the interval sampler thread, through {@link #drainInto}.
 */
public final class WorkerRecorders {
    private final Slot[] intended;
    private final Slot[] service;
    private final Slot lag;

    /** A recorder seen as both its writer and its reader side (the same object). */
    private record Slot(ValueRecorder writer, IntervalHistogramProvider<Histogram> reader) {
    }

    /** Recorders for one blocking worker: single writer. */
    public WorkerRecorders(int opTypes) {
        this(opTypes, false);
    }

    /** @param multiWriter true when operations complete on threads other than the one issuing them */
    public WorkerRecorders(int opTypes, boolean multiWriter) {
        intended = new Slot[opTypes];
        service = new Slot[opTypes];
        for (int i = 0; i < opTypes; i++) {
            intended[i] = newSlot(multiWriter);
            service[i] = newSlot(multiWriter);
        }
        lag = newSlot(multiWriter);
    }

    private static Slot newSlot(boolean multiWriter) {
        if (multiWriter) {
            Recorder r = new Recorder(Histograms.LOWEST_NS, Histograms.HIGHEST_NS, Histograms.SIGNIFICANT_DIGITS);
            return new Slot(r, r);
        }
        SingleWriterRecorder r = new SingleWriterRecorder(Histograms.LOWEST_NS, Histograms.HIGHEST_NS,
                Histograms.SIGNIFICANT_DIGITS);
        return new Slot(r, r);
    }

    /** Records one completed operation; worker thread only. */
    public void record(int opType, long intendedStartNs, long actualStartNs, long endNs) {
        intended[opType].writer().recordValue(Histograms.clamp(endNs - intendedStartNs));
        service[opType].writer().recordValue(Histograms.clamp(endNs - actualStartNs));
    }

    /**
     * Records the scheduler's own delay for one operation: how long after it could have started (its
     * intended start, or when the worker became free if later) it did start. Worker thread only.
     */
    public void recordLag(long lagNs) {
        lag.writer().recordValue(Histograms.clamp(lagNs));
    }

    /**
     * Moves what was recorded since the last call into {@code target} (added, not replaced), using
     * {@code scratch} as the swap space. Sampler thread only.
     *
     * @param view {@link View#INTENDED} or {@link View#SERVICE}
     */
    public void drainInto(int opType, View view, Histogram scratch, Histogram target) {
        Slot r = view == View.INTENDED ? intended[opType] : service[opType];
        r.reader().getIntervalHistogramInto(scratch);
        target.add(scratch);
    }

    /** Like {@link #drainInto} for the lag recorder. Sampler thread only. */
    public void drainLagInto(Histogram scratch, Histogram target) {
        lag.reader().getIntervalHistogramInto(scratch);
        target.add(scratch);
    }
}
