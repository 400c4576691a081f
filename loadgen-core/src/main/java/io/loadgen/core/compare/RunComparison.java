package io.loadgen.core.compare;

import io.loadgen.core.gate.CompareOptions;
import io.loadgen.core.gate.Estimator;
import io.loadgen.core.gate.Estimate;
import io.loadgen.core.BadInputException;
import io.loadgen.core.DamagedInputException;
import io.loadgen.core.gate.GateView;
import io.loadgen.core.gate.RunIntervals;
import io.loadgen.core.gate.Stat;
import io.loadgen.core.gate.Verdict;
import io.loadgen.core.stats.Bootstrap;
import io.loadgen.core.stats.IntervalSeries;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code loadgen compare BASELINE CANDIDATE}: is the candidate slower, or is the difference noise? For each
 * operation type, view (intended, service; corrected when both runs have it) and statistic (p50, p90, p99, p99.9,
 * max), and each operation's throughput and error rate: the change {@code candidate / baseline - 1}, a confidence
 * interval of it, and a verdict. Stateless.
 *
 * <p><b>The interval.</b> Each run's interval log holds its intervals' histograms; a circular moving-block bootstrap
 * over them ({@link Bootstrap}: blocks of {@code n^(1/3)} consecutive intervals, 1,000 resamples) gives the spread
 * of each figure that the run's own interval-to-interval variation implies. The two runs are resampled
 * independently; replicate {@code r} of the candidate is paired with replicate {@code r} of the baseline, and the
 * 2.5th and 97.5th percentiles of {@code candidate_r / baseline_r - 1} are the change's 95 % interval. Throughput
 * and the error rate resample one run's interval indices and add its success, error and operation counts and
 * interval lengths over them. The seed is fixed by default, so the same inputs give the same output.
 *
 * <p><b>The verdict.</b> {@code slower} when the interval lies entirely on the worse side of 0 (latency and error
 * rate above, throughput below) <em>and</em> the change is at least {@code --min-change} (default 5 %) that way;
 * {@code faster} the mirror; {@code same} otherwise; {@code unknown} when there is no interval: a run has fewer
 * than 8 intervals or fewer than 10 operations beyond the percentile ({@link Bootstrap#enoughFor}, "too few samples
 * to say"), the statistic is the max (one operation, whatever the run's length: no interval-to-interval variation
 * says how it would vary, so its change is shown and not judged), or an input is a JSON summary (no intervals;
 * its change is shown). Significance alone is not enough because the bootstrap cannot see what varies between
 * runs but not within one (another tenant for a whole run, a JIT outcome): two runs of one build on this
 * project's CI machine differ by up to ~4 % in p50 (measured; see {@link CompareOptions#DEFAULT_MIN_CHANGE}).
 *
 * <p><b>Assumptions</b>: each run is stationary after its warm-up (the same load throughout; a ramp is not), the
 * dependence between intervals dies out within a few blocks, and the two runs are independent.
 */
public final class RunComparison {
    /** The statistics of each view, in the order rows come. */
    public static final List<Stat> STATS = List.of(Stat.percentile(50), Stat.percentile(90), Stat.percentile(99),
            Stat.percentile(99.9), Stat.MAX);
    private static final GateView[] VIEWS = {GateView.INTENDED, GateView.SERVICE, GateView.CORRECTED};

    /**
     * A comparison's outcome: its rows and how they were computed.
     *
     * @param baseline    the baseline's name
     * @param candidate   the candidate's name
     * @param rows        per operation, view and statistic, then the operation's throughput and error rate
     * @param options     resamples, level, seed, min-change
     * @param baseBlock   the baseline's block length (intervals), 0 without intervals
     * @param candBlock   the candidate's block length
     * @param baseIntervals the baseline's interval count
     * @param candIntervals the candidate's interval count
     */
    public record Result(String baseline, String candidate, List<CompareRow> rows, CompareOptions options,
                         int baseBlock, int candBlock, int baseIntervals, int candIntervals) {
    }

    private RunComparison() {
    }

    /**
     * @throws BadInputException     when the runs' operation types differ
     * @throws DamagedInputException when an input is damaged (corrupt lines, a torn tail, a shard missing)
     */
    public static Result compare(RunIntervals base, RunIntervals cand, CompareOptions o) {
        for (RunIntervals run : new RunIntervals[]{base, cand}) {
            if (!run.damage().isEmpty()) {
                Verdict d = run.damage().get(0);
                throw new DamagedInputException(d.subject() + ": " + d.observed() + "; compare reads only whole runs");
            }
        }
        if (!new java.util.HashSet<>(base.operations()).equals(new java.util.HashSet<>(cand.operations()))) {
            throw new BadInputException("the baseline " + base.source() + " has operation types "
                    + String.join(", ", base.operations()) + " but the candidate " + cand.source() + " has "
                    + String.join(", ", cand.operations()) + "; compare two runs of the same workload");
        }
        List<CompareRow> rows = new ArrayList<>();
        for (String op : base.operations()) {
            for (GateView view : VIEWS) {
                if (!base.has(op, view) || !cand.has(op, view)) {
                    continue;
                }
                List<Estimate> estimates = Estimator.latencies(base, cand, op, op, view, STATS, o);
                for (int i = 0; i < STATS.size(); i++) {
                    rows.add(row(op, view.key(), STATS.get(i).name(), CompareRow.Kind.LATENCY, estimates.get(i), o));
                }
            }
            rows.add(row(op, "-", "throughput", CompareRow.Kind.THROUGHPUT,
                    Estimator.throughput(base, cand, op, op, o), o));
            rows.add(row(op, "-", "error_rate", CompareRow.Kind.ERROR_RATE,
                    Estimator.errorRate(base, cand, op, op, o), o));
        }
        int bn = intervals(base);
        int cn = intervals(cand);
        return new Result(base.source(), cand.source(), rows, o, bn == 0 ? 0 : Bootstrap.blockLength(bn),
                cn == 0 ? 0 : Bootstrap.blockLength(cn), bn, cn);
    }

    private static CompareRow row(String op, String view, String stat, CompareRow.Kind kind, Estimate e,
                                  CompareOptions o) {
        return new CompareRow(op, view, stat, kind, e, CompareRow.judge(kind, e, o.minChange()));
    }

    private static int intervals(RunIntervals run) {
        for (String op : run.operations()) {
            for (GateView v : new GateView[]{GateView.INTENDED, GateView.SERVICE}) {
                IntervalSeries s = run.series(op, v);
                if (s != null) {
                    return s.size();
                }
            }
        }
        return 0;
    }
}
