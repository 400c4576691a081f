package io.loadgen.core.run;

import io.loadgen.core.driver.Status;
import io.loadgen.core.record.Histograms;
import io.loadgen.core.record.View;
import org.HdrHistogram.Histogram;

import java.util.List;

/**
 * The run's totals, what its summary reports: per operation type the successes' and failures' intended
 * and service histograms and the status counts, and the lag, summed over the measured intervals. The
 * warm-up is cut here: the first measured interval forgets what the warm-up added (it stays in the
 * interval log), and a run that ends during its warm-up reports what it measured rather than nothing.
 * Filled on the aggregator thread; read by the main thread after joining it.
 */
final class RunTotals implements IntervalSink {
    private final Histogram[] intended;
    private final Histogram[] service;
    private final Histogram[] failedIntended;
    private final Histogram[] failedService;
    private final long[] statusCounts;
    private final Histogram lag = Histograms.newHistogram();
    private final Histogram harnessDelay = Histograms.newHistogram();
    private final Histogram undelayed = Histograms.newHistogram();
    private boolean holdsWarmup;
    private boolean started;
    private long measuredFromNs;
    private long measuredToNs;

    RunTotals(int opTypes) {
        intended = newHistograms(opTypes);
        service = newHistograms(opTypes);
        failedIntended = newHistograms(opTypes);
        failedService = newHistograms(opTypes);
        statusCounts = new long[opTypes * Status.count()];
    }

    private static Histogram[] newHistograms(int n) {
        Histogram[] h = new Histogram[n];
        for (int i = 0; i < n; i++) {
            h[i] = Histograms.newHistogram();
        }
        return h;
    }

    @Override
    public void onInterval(IntervalSnapshot s) {
        if (!started) {
            started = true;
            measuredFromNs = s.startNs();
        }
        if (s.measured() && holdsWarmup) {
            forgetWarmup(s.startNs());
        }
        holdsWarmup = !s.measured();
        List<IntervalSnapshot.Op> ops = s.operations();
        for (int o = 0; o < ops.size(); o++) {
            IntervalSnapshot.Op op = ops.get(o);
            intended[o].add(op.intended());
            service[o].add(op.service());
            failedIntended[o].add(op.failedIntended());
            failedService[o].add(op.failedService());
            for (int k = 0; k < Status.count(); k++) {
                statusCounts[o * Status.count() + k] += op.statusCount(Status.byOrdinal(k));
            }
        }
        if (s.lag() != null) {
            lag.add(s.lag());
        }
        if (s.harnessDelay() != null) {
            harnessDelay.add(s.harnessDelay());
        }
        if (s.undelayed() != null) {
            undelayed.add(s.undelayed());
        }
        measuredToNs = s.endNs();
    }

    private void forgetWarmup(long measuredFromNs) {
        for (Histogram[] byType : List.of(intended, service, failedIntended, failedService)) {
            for (Histogram h : byType) {
                h.reset();
            }
        }
        lag.reset();
        harnessDelay.reset();
        undelayed.reset();
        java.util.Arrays.fill(statusCounts, 0);
        this.measuredFromNs = measuredFromNs;
    }

    /** The successes' total of one view (intended or service). */
    Histogram total(int op, View view) {
        return view == View.INTENDED ? intended[op] : service[op];
    }

    /** The failures' total of one view (intended or service). */
    Histogram failedTotal(int op, View view) {
        return view == View.INTENDED ? failedIntended[op] : failedService[op];
    }

    /** Status counts over the measured time, by {@code type * Status.count() + status}. */
    long[] statusCounts() {
        return statusCounts;
    }

    Histogram lag() {
        return lag;
    }

    /** The successes' intended latency less the harness's delay of each, all types (empty when unthrottled). */
    Histogram undelayed() {
        return undelayed;
    }

    /** The harness's own delay of the measured operations (empty when unthrottled). */
    Histogram harnessDelay() {
        return harnessDelay;
    }

    /** Whether the run ended before its warm-up did: then nothing was left out, and the totals hold it all. */
    boolean endedInWarmup() {
        return holdsWarmup;
    }

    /** Measured time: from the end of the warm-up (or the start, if it never ended) to the last interval's end. */
    long measuredNs() {
        return Math.max(0, measuredToNs - measuredFromNs);
    }
}
