package io.loadgen.core.gate;

import java.time.Duration;

/**
 * One gate: a metric, a comparison and a limit, optionally judged on every window of an interval
 * log, and optionally stopping a run once it has failed for long enough. Made by {@link RuleParser}
 * (or by {@link Regression} from a baseline); immutable; any thread.
 *
 * <pre>
 * READ.intended.p99 &lt; 5ms
 * *.intended.max &lt; 1s over 10s windows
 * READ.errors &lt; 0.1%
 * throughput &gt; 9500/s
 * READ.intended.p99 &lt; 20ms over 10s windows abort-on-fail after 30s
 * </pre>
 *
 * @param text        the rule as written (whitespace collapsed): its name in tables and JUnit reports
 * @param metric      what it measures
 * @param comparison  how the observed value must compare to the limit
 * @param limit       the limit
 * @param window      judge every window of this length separately (a log or a live run), or null for the whole
 * @param abortOnFail stop a live run once the rule has failed for {@code abortAfter} (windowed rules only)
 * @param abortAfter  the grace period for {@code abortOnFail}; null when the rule names none (the run's
 *                    {@code --abort-on-fail} value, or at once)
 */
public record Rule(String text, Metric metric, Comparison comparison, Limit limit, Duration window,
                   boolean abortOnFail, Duration abortAfter) {

    public boolean windowed() {
        return window != null;
    }

    /** The rule's name in a verdict for {@code op}: its text, with {@code *} replaced by the operation type. */
    public String nameFor(String op) {
        if (op != null && metric.everyOp() && text.startsWith(Metric.EVERY_OP)) {
            return op + text.substring(1);
        }
        return text;
    }

    /**
     * This rule as a run applies it: a windowed rule stops the run when the rule says {@code abort-on-fail}
     * or the run has {@code --abort-on-fail} ({@code runGrace} not null); its own {@code after} wins, then
     * {@code runGrace}, then none (stop at the first failed window).
     */
    public Rule forRun(Duration runGrace) {
        if (!windowed() || (!abortOnFail && runGrace == null) || abortAfter != null) {
            return this;
        }
        return new Rule(text, metric, comparison, limit, window, true, runGrace != null ? runGrace : Duration.ZERO);
    }
}
