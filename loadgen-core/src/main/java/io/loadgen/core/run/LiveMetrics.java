package io.loadgen.core.run;

import io.loadgen.core.diagnosis.CauseCode;
import io.loadgen.core.driver.Status;

import java.util.List;
import java.util.Set;

/**
 * What a live monitor (the {@code --metrics} endpoint) reads of a run: the last closed interval's percentiles per
 * operation type and view, the operations counted per status since the run began, the offered and achieved rate,
 * the harness's lag and hiccups, and the causes the diagnosis names for that interval, with the run's identity.
 * <pre><code>
 * LiveMetrics live = new LiveMetrics();
 * new LoadRun(options, provider, System.err).publishTo(live).run();   // in another thread
 * LiveMetrics.Reading r = live.latest();                           // any thread, any time; null before the first interval
 * </code></pre>
 *
 * <p>Threads: the run's interval aggregator publishes one immutable {@link Reading} per interval (a sink after the
 * harness's health, so nothing of this runs on a worker thread and the recording path is untouched); any thread
 * reads the latest through a volatile field, without a lock. One {@code LiveMetrics} may serve the runs of a
 * command one after another (the steps of {@code sweep} and {@code findmax}): each run starts its counts at zero
 * under its own run id.
 *
 * <p>The percentiles are the interval log's own numbers: {@link org.HdrHistogram.Histogram#getValueAtPercentile}
 * on the same interval histogram the log writes (the max is {@code getMaxValue()}), in ns.
 */
public final class LiveMetrics {
    /** The percentiles published per operation type and view; 100 is the max. */
    public static final List<Double> PERCENTILES = List.of(50.0, 90.0, 99.0, 99.9, 100.0);

    private volatile Reading latest;

    /** The last closed interval, or null before the first (or before any run published here). Any thread. */
    public Reading latest() {
        return latest;
    }

    void publish(Reading reading) {
        latest = reading;
    }

    /**
     * One closed interval of a run, immutable.
     *
     * @param run                who: the driver, the shard index (0 unsharded) and the run's id
     * @param endEpochMs         when the interval ended
     * @param measured           false during the warm-up
     * @param ops                per operation type, in the run's order
     * @param offeredOpsPerSec   this process's target rate (a shard's part of the total), or its phase's in a phased
     *                           run; NaN when unthrottled
     * @param achievedOpsPerSec  operations completed per second in the interval (the last full interval's when
     *                           the run's end cut this one short)
     * @param lagP99Ns           the interval's {@code harness.lag} p99; -1 when unthrottled or none recorded
     * @param lagMaxNs           its max; -1 likewise
     * @param hiccupMaxNs        the interval's longest {@code harness.hiccup}; -1 when not measured
     * @param behindNs           how long the most overdue operation had been due when the interval ended
     * @param harnessShare       the harness's own share of the workers' time in the interval, 0..1
     * @param causes             the causes the diagnosis names for this interval alone
     */
    public record Reading(RunLabels run, long endEpochMs, boolean measured, List<OpReading> ops,
                          double offeredOpsPerSec, double achievedOpsPerSec, long lagP99Ns, long lagMaxNs,
                          long hiccupMaxNs, long behindNs, double harnessShare, Set<CauseCode> causes) {
        public Reading {
            ops = List.copyOf(ops);
            causes = Set.copyOf(causes);
        }
    }

    /** A run's identity: its driver, its shard index (0 when unsharded) and its run id ({@code RunId}). */
    public record RunLabels(String driver, int shard, String runId) {
    }

    /**
     * One operation type in an interval.
     *
     * @param intendedNs     the successes' intended latency at {@link #PERCENTILES}; null when none succeeded
     * @param serviceNs      their service time at the same percentiles; null likewise
     * @param statusTotals   operations of this type per status ordinal ({@link Status}), since the run began
     */
    public record OpReading(String name, long[] intendedNs, long[] serviceNs, long[] statusTotals) {
        /** How many operations of this type ended with {@code status} since the run began. */
        public long total(Status status) {
            return statusTotals[status.ordinal()];
        }
    }
}
