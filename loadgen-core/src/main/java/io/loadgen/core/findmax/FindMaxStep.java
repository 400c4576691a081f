package io.loadgen.core.findmax;

import io.loadgen.core.diagnosis.Cause;
import io.loadgen.core.gate.Comparison;
import io.loadgen.core.gate.GateView;
import io.loadgen.core.gate.Limit;
import io.loadgen.core.gate.Metric;
import io.loadgen.core.gate.Rule;
import io.loadgen.core.gate.RunGate;
import io.loadgen.core.gate.Verdict;
import io.loadgen.core.record.StatusTags;
import io.loadgen.core.schedule.Arrival;
import io.loadgen.core.stats.Bootstrap;
import io.loadgen.core.stats.IntervalSeries;
import io.loadgen.core.summary.RunResult;
import io.loadgen.core.sweep.KeepUpRule;
import io.loadgen.core.sweep.SweepStep;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One findmax step, judged: the rate it offered, what its run measured, why it ended, whether it kept up, each
 * objective's verdict with the 95 % interval of its statistic, and whether it passed, clearly passed or clearly
 * failed. Immutable; built on the main thread after the step's run.
 *
 * <p><b>Kept up.</b> The achieved rate is judged against the operations actually scheduled in the step's window,
 * not {@code offered × t}: with Poisson arrivals that count varies (sd {@code sqrt(λt)}, 2.4 % at three sd for
 * 16,000 operations), so against {@code λt} a 2 % rule fails good steps. The window is the measured intervals up to
 * the one the detector decided on; the step is stopped right after it, so every operation scheduled in the window
 * either completed, was left unissued (the backlog), or was in flight at the end: {@code scheduled = completed +
 * unissued + in flight at the end}, all after the warm-up. The step kept up when the window's completions are at
 * least {@code (1 − 2 %) × scheduled − threads − offered × 20 ms}: the last two terms are {@link KeepUpRule}'s
 * edges (one operation per worker in flight as the window closes, and the few ms between the window's end and the
 * stop), which a store that keeps up loses and nothing else does. A step whose run ended before the detector
 * decided (a backstop at the longest length) is judged by {@link KeepUpRule} as a sweep's step.
 *
 * <p><b>The harness.</b> A step the harness could not drive is one that failed while its diagnosis's primary cause
 * blames the harness ({@link io.loadgen.core.diagnosis.CauseCode#blamesHarness}): its failure may be the
 * generator's, not the store's, so it says nothing about the store. A step that passed stands whatever the
 * diagnosis says: the harness's delays only add to intended latency and cost throughput, so a store that met
 * every objective despite them meets them without (on a busy machine a 2 ms stall of a worker is often the
 * primary cause of an otherwise healthy step; stopping the search there would answer nothing).
 *
 * <p><b>Clearly.</b> For each objective the 95 % interval of its statistic comes from a {@link Bootstrap} over the
 * step's intervals. A step clearly passes when it kept up, its diagnosis blames nothing on the harness and every
 * interval lies on the passing side of its limit; it clearly fails when it did not keep up or some interval lies
 * wholly on the failing side. A statistic without an interval (too few intervals or operations beyond the
 * percentile, see {@link Bootstrap#enoughFor}) makes the step neither, unless it fails otherwise; rules on the
 * harness's verdict or the diagnosis have no sampling error and count as they are.
 *
 * @param number            1-based, in the order run
 * @param offeredOpsPerSec  the step's target rate
 * @param result            the step's run
 * @param ended             what ended the step ({@link StabilityDetector.Decision#CONTINUE}: the run's own end)
 * @param windowSec         the judged window's seconds
 * @param windowCompleted   operations completed in the window
 * @param scheduled         operations scheduled in the window (see above); -1 when the run ended by itself
 * @param keptUp            whether the step kept up
 * @param rules             each objective's outcome, one per operation type for {@code *}
 * @param harnessFault      the diagnosis's cause that blames the harness, or null
 */
public record FindMaxStep(int number, double offeredOpsPerSec, RunResult result, StabilityDetector.Decision ended,
                          double windowSec, long windowCompleted, long scheduled, boolean keptUp,
                          List<RuleOutcome> rules, Cause harnessFault) {
    /** The keep-up rule's share: the window's completions may fall this short of the operations scheduled. */
    public static final double KEEP_UP_SHORTFALL = 0.02;
    static final double LEVEL = 0.95;

    /**
     * One objective's outcome on one step.
     *
     * @param name     the rule, {@code *} replaced by the operation type
     * @param limit    the comparison and limit, e.g. {@code < 5 ms}
     * @param observed the value for a person, as the gate prints it
     * @param value    the statistic (the limit's unit: ns, a fraction, a count, ops/s); NaN when not a number
     * @param ciLow    the 95 % interval's low end; NaN when there is none
     * @param ciHigh   its high end; NaN when there is none
     * @param passed   the gate's verdict
     * @param clearly  +1 the interval lies on the passing side, -1 wholly on the failing side, 0 neither or no interval
     * @param unit     the unit of {@code value} and the interval
     */
    public record RuleOutcome(String name, String limit, String observed, double value, double ciLow, double ciHigh,
                              boolean passed, int clearly, Limit.Unit unit) {
        /** The interval for people, e.g. {@code [1.10 ms, 1.35 ms]}; {@code -} when there is none. */
        public String intervalText() {
            return Double.isNaN(ciLow) ? "-" : "[" + io.loadgen.core.gate.Units.format(ciLow, unit) + ", "
                    + io.loadgen.core.gate.Units.format(ciHigh, unit) + "]";
        }
    }

    /** Judges a finished step. */
    static FindMaxStep judge(int number, double offered, RunResult result, Arrival arrival, StepRecorder recorder,
                             List<Rule> rules, long seed) {
        Cause blamed = result.diagnosis() != null && result.diagnosis().primary().code().blamesHarness()
                ? result.diagnosis().primary() : null;
        return judge(number, offered, result, arrival, recorder, rules, seed, blamed);
    }

    /**
     * Judges a step whose diagnosis's primary cause, when it blames the harness, is {@code blamed} (null: none);
     * a sharded step's is any shard's.
     */
    static FindMaxStep judge(int number, double offered, RunResult result, Arrival arrival, StepRecorder recorder,
                             List<Rule> rules, long seed, Cause blamed) {
        long scheduled = -1;
        boolean keptUp;
        double windowSec = recorder.windowSec();
        long completed = recorder.windowCompleted();
        if (recorder.windowIntervals() > 0) {
            Number inFlight = result.harness().get("in_flight_at_end");
            scheduled = result.totalOperations() + result.unissuedOps() + (inFlight == null ? 0 : inFlight.longValue());
            double edges = result.threads() + offered * KeepUpRule.EDGE_MS / 1000.0;
            keptUp = completed > 0 && completed >= (1 - KEEP_UP_SHORTFALL) * scheduled - edges;
        } else {
            keptUp = KeepUpRule.keptUp(new SweepStep(number, offered, result, arrival));
        }
        List<RuleOutcome> outcomes = new ArrayList<>();
        List<Verdict> verdicts = RunGate.judge(rules, result);
        int v = 0;
        for (Rule rule : rules) {
            int perRule = rule.metric().everyOp() ? Math.max(1, result.operations().size()) : 1;
            for (int k = 0; k < perRule; k++) {
                Verdict verdict = verdicts.get(v + k);
                outcomes.add(outcome(rule, verdict, recorder, result, seed + 7919L * (v + k)));
            }
            v += perRule;
        }
        Cause fault = null;
        boolean metEverything = keptUp && outcomes.stream().allMatch(RuleOutcome::passed);
        if (!metEverything && blamed != null) {
            fault = blamed;
        }
        return new FindMaxStep(number, offered, result, recorder.decision(), windowSec, completed, scheduled, keptUp,
                List.copyOf(outcomes), fault);
    }

    private static RuleOutcome outcome(Rule rule, Verdict verdict, StepRecorder recorder, RunResult result, long seed) {
        String op = opOf(rule, verdict, result);
        Metric m = rule.metric();
        IntervalSeries series = null;
        Bootstrap.Statistic stat = null;
        boolean enough = false;
        if (m.kind() == Metric.Kind.LATENCY) {
            series = recorder.series(m.view() == GateView.FAILED_INTENDED ? m.view().tag(op) : GateView.INTENDED.tag(op));
            stat = (sum, sec) -> m.stat().valueIn(sum);
            enough = series != null && (m.stat().kind() == io.loadgen.core.gate.Stat.Kind.PERCENTILE
                    ? Bootstrap.enoughFor(series, m.stat().percentile())
                    : m.stat().kind() == io.loadgen.core.gate.Stat.Kind.MEAN && series.size() >= Bootstrap.MIN_INTERVALS);
        } else if (m.kind() == Metric.Kind.ERRORS) {
            series = op == null ? statusOfAll(recorder) : recorder.series(StatusTags.tag(op));
            boolean share = rule.limit().unit() == Limit.Unit.FRACTION;
            stat = (sum, sec) -> share ? (sum.getTotalCount() == 0 ? Double.NaN
                    : (double) StatusTags.errors(sum) / sum.getTotalCount()) : StatusTags.errors(sum);
            enough = series != null && series.size() >= Bootstrap.MIN_INTERVALS;
        } else if (m.kind() == Metric.Kind.THROUGHPUT) {
            series = recorder.series(op == null ? null : GateView.INTENDED.tag(op));
            if (op == null) {
                series = successesOfAll(recorder);
            }
            stat = (sum, sec) -> sec > 0 ? sum.getTotalCount() / sec : Double.NaN;
            enough = series != null && series.size() >= Bootstrap.MIN_INTERVALS;
        }
        double value = series == null || stat == null ? Double.NaN : stat.of(series.total(), series.seconds());
        double lo = Double.NaN;
        double hi = Double.NaN;
        int clearly;
        if (m.kind() == Metric.Kind.VERDICT || m.kind() == Metric.Kind.DIAGNOSIS) {
            clearly = verdict.passed() ? 1 : -1;
        } else if (enough) {
            double[] ci = Bootstrap.interval(Bootstrap.replicates(series, stat, Bootstrap.DEFAULT_RESAMPLES, seed), LEVEL);
            lo = ci[0];
            hi = ci[1];
            Comparison c = rule.comparison();
            double limit = rule.limit().value();
            boolean bothPass = c.holds(lo, limit) && c.holds(hi, limit);
            boolean bothFail = !c.holds(lo, limit) && !c.holds(hi, limit);
            clearly = bothPass ? 1 : bothFail ? -1 : 0;
        } else {
            clearly = 0;
        }
        return new RuleOutcome(verdict.rule(), verdict.limit(), verdict.observed(), value, lo, hi, verdict.passed(),
                clearly, rule.limit().unit());
    }

    /** The operation type a verdict is about: the one the rule names, the one {@code *} became, or null (all). */
    private static String opOf(Rule rule, Verdict verdict, RunResult result) {
        Metric m = rule.metric();
        if (!m.perOp()) {
            return null;
        }
        if (!m.everyOp()) {
            for (io.loadgen.core.summary.OpResult o : result.operations()) {
                if (o.name().equalsIgnoreCase(m.op())) {
                    return o.name();
                }
            }
            return m.op();
        }
        String tail = rule.text().substring(1);
        return verdict.rule().endsWith(tail) ? verdict.rule().substring(0, verdict.rule().length() - tail.length()) : null;
    }

    private static IntervalSeries statusOfAll(StepRecorder recorder) {
        return merged(recorder, tag -> StatusTags.isStatusTag(tag));
    }

    private static IntervalSeries successesOfAll(StepRecorder recorder) {
        return merged(recorder, tag -> tag.endsWith(".intended") && !tag.contains(".failed.")
                && !tag.equals(StepRecorder.ALL));
    }

    /** The interval-by-interval sum of the series whose tags match. */
    private static IntervalSeries merged(StepRecorder recorder, java.util.function.Predicate<String> which) {
        List<IntervalSeries> parts = new ArrayList<>();
        for (String tag : recorder.tags()) {
            if (which.test(tag)) {
                parts.add(recorder.series(tag));
            }
        }
        if (parts.isEmpty()) {
            return null;
        }
        int n = parts.get(0).size();
        List<Histogram> sums = new ArrayList<>();
        double[] secs = new double[n];
        for (int i = 0; i < n; i++) {
            Histogram h = io.loadgen.core.record.Histograms.newHistogram();
            Histogram one = io.loadgen.core.record.Histograms.newHistogram();
            for (IntervalSeries s : parts) {
                s.sum(new int[]{i}, one);
                h.add(one);
            }
            sums.add(h);
            secs[i] = parts.get(0).seconds(i);
        }
        return IntervalSeries.of(sums, secs);
    }

    /** Completed operations per second in the judged window. */
    public double achievedOpsPerSec() {
        return windowSec > 0 ? windowCompleted / windowSec : result.throughputOpsPerSec();
    }

    /** The step's measured length (s). */
    public double lengthSec() {
        return result.runTimeNs() / 1e9;
    }

    /** Whether the step passed: kept up, no harness fault, and every objective met. */
    public boolean passed() {
        return keptUp && harnessFault == null && rules.stream().allMatch(RuleOutcome::passed);
    }

    /** Kept up and every objective's interval on the passing side (see the class comment). */
    public boolean clearlyPassed() {
        return keptUp && harnessFault == null && rules.stream().allMatch(r -> r.clearly() > 0);
    }

    /** Did not keep up, or some objective's interval wholly on the failing side. */
    public boolean clearlyFailed() {
        return !keptUp || rules.stream().anyMatch(r -> r.clearly() < 0);
    }

    /** The step's primary cause ({@code ok}, {@code target_slow}, ...), or {@code -}. */
    public String diagnosis() {
        return result.diagnosis() == null ? "-" : result.diagnosis().primary().code().key();
    }

    /** Why the step ended, for the table: {@code stable after 5.0 s}, {@code backlog growing after 5.5 s}, ... */
    public String endedText() {
        String why = ended == StabilityDetector.Decision.CONTINUE ? result.stopReason() : ended.text();
        return String.format(Locale.ROOT, "%s after %.1f s", why, lengthSec());
    }
}
