package io.loadgen.core.gate;

import io.loadgen.core.record.StatusTags;
import io.loadgen.core.record.Histograms;
import io.loadgen.core.stats.Bootstrap;
import io.loadgen.core.stats.IntervalSeries;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Estimates how a figure changed between two runs, with a confidence interval from each run's own
 * interval-to-interval variation ({@link Bootstrap}): each run is resampled independently, replicate {@code r} of
 * the candidate is paired with replicate {@code r} of the baseline, and the percentile interval of
 * {@code candidate_r / baseline_r - 1} over the replicates is the change's interval. Throughput and the error rate
 * resample one run's interval indices and add that run's counts over them. Stateless.
 */
public final class Estimator {
    /** The maximum's (and minimum's) reason: why no interval. */
    public static final String ONE_OPERATION = "the max is one operation: no interval-to-interval variation"
            + " estimates it";

    private Estimator() {
    }

    /**
     * {@code stats} of {@code view} of an operation ({@code baseOp} in the baseline, {@code op} in the candidate),
     * in order. A statistic of a JSON summary the summary does not hold throws, as the gate says it.
     */
    public static List<Estimate> latencies(RunIntervals base, RunIntervals cand, String baseOp, String op,
                                           GateView view, List<Stat> stats, CompareOptions o) {
        List<Estimate> out = new ArrayList<>();
        String noIntervals = noIntervals(base, cand);
        IntervalSeries bs = base.series(baseOp, view);
        IntervalSeries cs = cand.series(op, view);
        if (noIntervals == null && (bs == null || cs == null)) {
            noIntervals = "no intervals of the " + view.key() + " view: compare interval logs";
        }
        List<Integer> estimated = new ArrayList<>();
        for (int i = 0; i < stats.size(); i++) {
            Stat stat = stats.get(i);
            double b = base.latency(baseOp, view, stat);
            double c = cand.latency(op, view, stat);
            if (noIntervals != null) {
                out.add(Estimate.without(b, c, noIntervals, false));
            } else if (stat.kind() == Stat.Kind.MAX || stat.kind() == Stat.Kind.MIN
                    || (stat.kind() == Stat.Kind.PERCENTILE && stat.percentile() >= 100)) {
                out.add(Estimate.without(b, c, ONE_OPERATION.replace("max", stat.name()), false));
            } else if (stat.kind() == Stat.Kind.COUNT) {
                out.add(Estimate.without(b, c, "a count is not estimated", false));
            } else {
                double p = stat.kind() == Stat.Kind.PERCENTILE ? stat.percentile() : 50;
                String few = tooFew(base, bs, p, stat);
                few = few != null ? few : tooFew(cand, cs, p, stat);
                out.add(few != null ? Estimate.without(b, c, few, true) : null);
                if (few == null) {
                    estimated.add(i);
                }
            }
        }
        if (estimated.isEmpty()) {
            return out;
        }
        double[][] br;
        double[][] cr;
        boolean percentiles = estimated.stream().allMatch(i -> stats.get(i).kind() == Stat.Kind.PERCENTILE);
        if (percentiles) { // summed as counts: several times faster than recording into a histogram
            double[] ps = estimated.stream().mapToDouble(i -> stats.get(i).percentile()).toArray();
            br = Bootstrap.percentiles(bs, ps, o.resamples(), o.seed());
            cr = Bootstrap.percentiles(cs, ps, o.resamples(), o.candidateSeed());
        } else {
            Bootstrap.Statistic[] statistics = new Bootstrap.Statistic[estimated.size()];
            for (int k = 0; k < statistics.length; k++) {
                Stat stat = stats.get(estimated.get(k));
                statistics[k] = (sum, seconds) -> stat.valueIn(sum);
            }
            br = Bootstrap.replicates(bs, statistics, o.resamples(), o.seed());
            cr = Bootstrap.replicates(cs, statistics, o.resamples(), o.candidateSeed());
        }
        for (int k = 0; k < estimated.size(); k++) {
            int i = estimated.get(k);
            Stat stat = stats.get(i);
            out.set(i, Estimate.of(base.latency(baseOp, view, stat), cand.latency(op, view, stat),
                    interval(br[k], cr[k], o.level())));
        }
        return out;
    }

    /**
     * Throughput, the successes per second, of an operation ({@code baseOp}, {@code op}), or of every operation
     * together when both are null. A drop is a negative change.
     */
    public static Estimate throughput(RunIntervals base, RunIntervals cand, String baseOp, String op, CompareOptions o) {
        double b = base.throughput(baseOp);
        double c = cand.throughput(op);
        String why = noIntervals(base, cand);
        if (why != null) {
            return Estimate.without(b, c, why, false);
        }
        long[] bn = successes(base, baseOp);
        long[] cn = successes(cand, op);
        if (bn == null || cn == null) {
            return Estimate.without(b, c, "no intervals of the operations' successes", false);
        }
        String few = fewIntervals(base, bn.length);
        few = few != null ? few : fewIntervals(cand, cn.length);
        if (few != null) {
            return Estimate.without(b, c, few, true);
        }
        double[] br = ratioReplicates(bn, seconds(base, baseOp), o.resamples(), o.seed());
        double[] cr = ratioReplicates(cn, seconds(cand, op), o.resamples(), o.candidateSeed());
        return Estimate.of(b, c, interval(br, cr, o.level()));
    }

    /** The share of an operation's operations that failed; a rise is a positive change. */
    public static Estimate errorRate(RunIntervals base, RunIntervals cand, String baseOp, String op, CompareOptions o) {
        double b = base.errorRate(baseOp);
        double c = cand.errorRate(op);
        if (Double.isNaN(b) || Double.isNaN(c)) {
            return Estimate.without(b, c, (Double.isNaN(b) ? base : cand).source() + " holds no error counts (a log"
                    + " written before loadgen recorded OP.status lines)", false);
        }
        String why = noIntervals(base, cand);
        if (why != null) {
            return Estimate.without(b, c, why, false);
        }
        IntervalSeries bs = base.statuses(baseOp);
        IntervalSeries cs = cand.statuses(op);
        if (bs == null || cs == null) {
            return Estimate.without(b, c, "no intervals of the status counts", false);
        }
        String few = fewIntervals(base, bs.size());
        few = few != null ? few : fewIntervals(cand, cs.size());
        if (few != null) {
            return Estimate.without(b, c, few, true);
        }
        long[][] be = errorsAndTotals(bs);
        long[][] ce = errorsAndTotals(cs);
        double[] br = ratioReplicates(be[0], toDouble(be[1]), o.resamples(), o.seed());
        double[] cr = ratioReplicates(ce[0], toDouble(ce[1]), o.resamples(), o.candidateSeed());
        return Estimate.of(b, c, interval(br, cr, o.level()));
    }

    /** The percentile interval of the paired replicates' change {@code cand_r / base_r - 1}. */
    static double[] interval(double[] base, double[] cand, double level) {
        double[] change = new double[base.length];
        for (int r = 0; r < change.length; r++) {
            change[r] = Estimate.change(base[r], cand[r]);
        }
        return Bootstrap.interval(change, level);
    }

    private static String noIntervals(RunIntervals base, RunIntervals cand) {
        for (RunIntervals run : new RunIntervals[]{base, cand}) {
            if (!run.hasIntervals()) {
                return "no intervals: " + run.source() + " is a JSON summary; compare interval logs";
            }
        }
        return null;
    }

    private static String tooFew(RunIntervals run, IntervalSeries series, double percentile, Stat stat) {
        if (Bootstrap.enoughFor(series, percentile)) {
            return null;
        }
        if (series.size() < Bootstrap.MIN_INTERVALS) {
            return fewIntervals(run, series.size());
        }
        return run.source() + " has " + io.loadgen.core.diagnosis.Figures.plural(series.totalCount(), "operation") + ", too few beyond " + stat.name()
                + " (10 needed)";
    }

    private static String fewIntervals(RunIntervals run, int n) {
        return n >= Bootstrap.MIN_INTERVALS ? null : run.source() + " has " + io.loadgen.core.diagnosis.Figures.plural(n, "interval") + " (" + Bootstrap.MIN_INTERVALS
                + " needed; a shorter --interval gives more)";
    }

    /** Each interval's successes of {@code op} (of every operation when null), or null when there are none. */
    private static long[] successes(RunIntervals run, String op) {
        List<String> ops = op == null ? run.operations() : List.of(op);
        long[] n = null;
        for (String o : ops) {
            IntervalSeries s = run.series(o, GateView.INTENDED);
            s = s != null ? s : run.series(o, GateView.SERVICE);
            if (s == null) {
                continue;
            }
            if (n == null) {
                n = new long[s.size()];
            }
            for (int i = 0; i < n.length; i++) {
                n[i] += s.count(i);
            }
        }
        return n;
    }

    private static double[] seconds(RunIntervals run, String op) {
        for (String o : op == null ? run.operations() : List.of(op)) {
            IntervalSeries s = run.series(o, GateView.INTENDED);
            s = s != null ? s : run.series(o, GateView.SERVICE);
            if (s != null) {
                double[] sec = new double[s.size()];
                for (int i = 0; i < sec.length; i++) {
                    sec[i] = s.seconds(i);
                }
                return sec;
            }
        }
        throw new IllegalStateException("no series of " + op);
    }

    /** Per interval: {@code [0]} the failed operations, {@code [1]} all. */
    private static long[][] errorsAndTotals(IntervalSeries statuses) {
        long[][] out = new long[2][statuses.size()];
        Histogram h = Histograms.newHistogram();
        int[] one = new int[1];
        for (int i = 0; i < statuses.size(); i++) {
            one[0] = i;
            statuses.sum(one, h);
            out[0][i] = StatusTags.errors(h);
            out[1][i] = h.getTotalCount();
        }
        return out;
    }

    private static double[] toDouble(long[] x) {
        double[] d = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            d[i] = x[i];
        }
        return d;
    }

    /** Replicates of {@code sum(num[i]) / sum(den[i])} over block resamples of the intervals, in draw order. */
    private static double[] ratioReplicates(long[] num, double[] den, int resamples, long seed) {
        int n = num.length;
        SplittableRandom rng = new SplittableRandom(seed);
        int block = Bootstrap.blockLength(n);
        int[] idx = new int[n];
        double[] out = new double[resamples];
        for (int r = 0; r < resamples; r++) {
            Bootstrap.resample(n, block, rng, idx);
            double a = 0;
            double b = 0;
            for (int i : idx) {
                a += num[i];
                b += den[i];
            }
            out[r] = b > 0 ? a / b : Double.NaN;
        }
        return out;
    }
}
