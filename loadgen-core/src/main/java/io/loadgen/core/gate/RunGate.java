package io.loadgen.core.gate;

import io.loadgen.core.BadInputException;
import io.loadgen.core.record.View;
import io.loadgen.core.run.IntervalHistograms;
import io.loadgen.core.run.IntervalListener;
import io.loadgen.core.summary.OpResult;
import io.loadgen.core.summary.RunResult;
import org.HdrHistogram.Histogram;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Gates applied to a run as it happens ({@code loadgen run --gate RULE}). Rules are checked against
 * what the run will measure before it starts; windowed rules are judged live, window by window, on
 * the interval histograms the sampler hands over after the warm-up (so {@code abort-on-fail} can stop
 * the run early through the {@code stop} callback); the other rules are judged on the finished run,
 * where every percentile, errors and the corrected view are available.
 *
 * <p>Threads: {@link #prepare} and {@link #verdicts} on the main thread; {@link #onInterval} on the
 * run's sampler thread. {@link #verdicts} must come after the run returned (which joined the sampler).
 */
public final class RunGate implements IntervalListener {
    private static final String SOURCE = "the run";

    private final List<Rule> rules;
    private final Map<Long, WindowTracker> trackers = new LinkedHashMap<>();
    private final boolean throttled;
    private volatile String abortReason;

    private RunGate(List<Rule> rules, boolean throttled, Consumer<String> stop) {
        this.rules = rules;
        this.throttled = throttled;
        Map<Long, List<Rule>> byLength = new LinkedHashMap<>();
        for (Rule rule : rules) {
            if (rule.windowed()) {
                byLength.computeIfAbsent(rule.window().toMillis(), k -> new ArrayList<>()).add(rule);
            }
        }
        Consumer<String> abort = reason -> {
            if (abortReason == null) {
                abortReason = reason;
                stop.accept(reason);
            }
        };
        byLength.forEach((ms, list) -> trackers.put(ms, new WindowTracker(ms, 0, list, SOURCE, abort)));
    }

    /**
     * Checks the rules against the run to come and readies the live windows.
     *
     * @param runGrace   the run's {@code --abort-on-fail} grace period, or null when not given
     * @param operations the operation types the run will issue
     * @param throttled  whether the run has a target rate (so a corrected view and a lag)
     * @param stop       called once, on the sampler thread, with the reason, when an abort-on-fail rule stops the run
     * @throws BadInputException for a rule the run cannot judge, or {@code --abort-on-fail} without windowed rules
     */
    public static RunGate prepare(List<Rule> rules, Duration runGrace, List<String> operations, boolean throttled,
                                  Consumer<String> stop) {
        List<Rule> applied = new ArrayList<>();
        for (Rule rule : rules) {
            check(rule, operations, throttled);
            applied.add(rule.forRun(runGrace));
        }
        if (runGrace != null && applied.stream().noneMatch(Rule::windowed)) {
            throw new BadInputException("--abort-on-fail stops a run when a windowed --gate rule fails"
                    + " (e.g. 'READ.intended.p99 < 20ms over 10s windows'); none of the rules has windows");
        }
        return new RunGate(applied, throttled, stop);
    }

    private static void check(Rule rule, List<String> operations, boolean throttled) {
        Metric m = rule.metric();
        if (m.perOp() && !m.everyOp() && RuleEvaluator.find(m.op(), operations) == null) {
            throw bad(rule, "the run issues no operation '" + m.op() + "'; it issues " + String.join(", ", operations));
        }
        if (!throttled && (m.view() == GateView.CORRECTED || m.view() == GateView.LAG)) {
            throw bad(rule, "without --target the run has no schedule, so no " + (m.view() == GateView.LAG
                    ? "harness.lag" : "corrected view") + "; give --target OPS, or gate on intended");
        }
        if (rule.windowed() && m.view() == GateView.CORRECTED) {
            throw bad(rule, "windows are judged on the interval histograms (intended, service, failed.intended,"
                    + " failed.service, harness.lag, status);"
                    + " corrected is judged on the whole run: leave out 'over ... windows'");
        }
    }

    private static BadInputException bad(Rule rule, String problem) {
        return new BadInputException("rule '" + rule.text() + "': " + problem);
    }

    /** Whether any rule is judged live (so the run should hand over its intervals). */
    public boolean hasWindows() {
        return !trackers.isEmpty();
    }

    /** Sampler thread: adds a measured interval to each window length's window, judging windows as they end. */
    @Override
    public void onInterval(IntervalHistograms interval) {
        if (!interval.measured()) {
            return;
        }
        long startMs = interval.startMs() - interval.runStartMs();
        long endMs = interval.endMs() - interval.runStartMs();
        for (WindowTracker t : trackers.values()) {
            for (Map.Entry<String, Histogram> e : interval.byTag().entrySet()) {
                t.add(e.getKey(), e.getValue(), startMs, endMs);
            }
            t.endOfInterval(endMs);
        }
    }

    /** Why a rule stopped the run, or null when none did. */
    public String abortReason() {
        return abortReason;
    }

    /** Main thread, after the run: every rule's verdicts, in rule order. */
    public List<Verdict> verdicts(RunResult result) {
        Map<Rule, List<Verdict>> windowed = new LinkedHashMap<>();
        for (WindowTracker t : trackers.values()) {
            t.finish();
            windowed.putAll(t.verdicts());
        }
        Measurements whole = measurements(result);
        List<Verdict> verdicts = new ArrayList<>();
        for (Rule rule : rules) {
            verdicts.addAll(rule.windowed() ? windowed.get(rule) : RuleEvaluator.evaluate(rule, whole));
        }
        return verdicts;
    }

    /**
     * Judges rules that are not windowed on a finished run, exactly as {@code run --gate} judges them after the run
     * (every percentile, errors, throughput, the corrected view, the verdict and the diagnosis): one verdict per rule,
     * or one per operation type for {@code *}, in rule order. Used by {@code findmax} on each step. Any thread.
     *
     * @throws BadInputException for a windowed rule (judge those live) or one the run cannot judge
     */
    public static List<Verdict> judge(List<Rule> rules, RunResult result) {
        Measurements whole = measurements(result, result.throttled());
        List<Verdict> verdicts = new ArrayList<>();
        for (Rule rule : rules) {
            if (rule.windowed()) {
                throw bad(rule, "windowed rules are judged live on a run's intervals, not on the finished run");
            }
            verdicts.addAll(RuleEvaluator.evaluate(rule, whole));
        }
        return verdicts;
    }

    private Measurements measurements(RunResult result) {
        return measurements(result, throttled);
    }

    private static Measurements measurements(RunResult result, boolean throttled) {
        Map<String, Histogram> byTag = new LinkedHashMap<>();
        Map<String, Long> errors = new LinkedHashMap<>();
        for (OpResult op : result.operations()) {
            byTag.put(GateView.INTENDED.tag(op.name()), op.histogram(View.INTENDED));
            byTag.put(GateView.SERVICE.tag(op.name()), op.histogram(View.SERVICE));
            if (result.corrected().applicable()) {
                byTag.put(GateView.CORRECTED.tag(op.name()), op.histogram(View.CORRECTED));
            }
            if (op.failedKnown()) {
                byTag.put(GateView.FAILED_INTENDED.tag(op.name()), op.failedHistogram(View.INTENDED));
                byTag.put(GateView.FAILED_SERVICE.tag(op.name()), op.failedHistogram(View.SERVICE));
            }
            errors.put(op.name(), op.errors());
        }
        if (throttled && result.lag() != null) {
            byTag.put(GateView.LAG_TAG, result.lag());
        }
        return new HistogramMeasurements(SOURCE, byTag, result.runTimeNs() / 1e9, errors, "",
                throttled ? "the run has no corrected view: " + result.corrected().notApplicable()
                        + "; gate on intended" : "without --target the run has no corrected view")
                .withVerdict(result.health().verdict()).withDiagnosis(result.diagnosis());
    }
}
