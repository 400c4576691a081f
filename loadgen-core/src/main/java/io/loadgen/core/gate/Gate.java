package io.loadgen.core.gate;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Judges gate rules against a JSON summary or interval logs, and optionally regressions against a
 * baseline run: everything {@code loadgen gate} does but the printing. Every input problem surfaces
 * as a {@link io.loadgen.core.BadInputException} before any verdict is returned, so a caller prints
 * either a full table or one error line. Stateless; call on one thread.
 *
 * <pre><code>
 * List&lt;Rule&gt; rules = List.of(RuleParser.parse("READ.intended.p99 &lt; 5ms over 10s windows"));
 * List&lt;Verdict&gt; verdicts = Gate.evaluate(List.of(Path.of("run.hlog")), TimeRange.ALL, rules, null, null, System.err::println);
 * GateTable.write(verdicts, System.out);
 * </code></pre>
 */
public final class Gate {
    private Gate() {
    }

    /**
     * @param files      one JSON summary, or one or more interval logs (merged on time)
     * @param range      the part of the logs to read ({@link TimeRange#ALL} for a JSON summary)
     * @param rules      the rules, in the order their verdicts should come
     * @param baseline   a JSON summary or interval log to compare with, or null
     * @param regression what may regress against {@code baseline}; null when there is no baseline
     * @param warnings   where problems that leave a log readable go (a corrupt line), one line each
     */
    public static List<Verdict> evaluate(List<Path> files, TimeRange range, List<Rule> rules, Path baseline,
                                         Regression regression, Consumer<String> warnings) throws IOException {
        return evaluate(files, range, rules, baseline, regression, warnings, InputPolicy.STRICT);
    }

    /** {@link #evaluate(List, TimeRange, List, Path, Regression, Consumer)}, the input accepted as {@code policy} says. */
    public static List<Verdict> evaluate(List<Path> files, TimeRange range, List<Rule> rules, Path baseline,
                                         Regression regression, Consumer<String> warnings, InputPolicy policy)
            throws IOException {
        GateSource current = GateSource.open(files, range, warnings, policy);
        rules.forEach(current::check);
        GateSource base = baseline == null ? null : GateSource.open(List.of(baseline), TimeRange.ALL, warnings);
        boolean compare = base != null && regression != null;
        IntervalCollector currentIntervals = compare && current instanceof LogSource log ? log.collectIntervals() : null;
        GateSource.Evaluation evaluation = current.evaluate(rules);
        List<Verdict> verdicts = new ArrayList<>(evaluation.verdicts());
        if (compare) {
            IntervalCollector baseIntervals = base instanceof LogSource log ? log.collectIntervals() : null;
            RunIntervals b = RunIntervals.of(base, base.evaluate(List.of()), baseIntervals);
            verdicts.addAll(regression.verdicts(b, RunIntervals.of(current, evaluation, currentIntervals)));
        }
        return verdicts;
    }

    /** Whether a verdict is the failed input check of damaged logs: the gate could not judge complete data. */
    public static boolean inputDamaged(List<Verdict> verdicts) {
        return verdicts.stream().anyMatch(v -> v.isInputCheck() && !v.passed());
    }

    /** Whether every verdict passed (an empty list passes). */
    public static boolean allPassed(List<Verdict> verdicts) {
        return verdicts.stream().allMatch(Verdict::passed);
    }
}
