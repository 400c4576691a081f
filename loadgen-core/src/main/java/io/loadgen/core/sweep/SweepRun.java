package io.loadgen.core.sweep;

import io.loadgen.core.driver.DriverProvider;
import io.loadgen.core.record.View;
import io.loadgen.core.output.OutputFailures;
import io.loadgen.core.run.LoadRun;
import io.loadgen.core.run.RunOptions;
import io.loadgen.core.summary.RunResult;
import io.loadgen.core.time.Durations;
import io.loadgen.core.workload.OperationPlan;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Runs a sweep: one {@link LoadRun} per offered rate, one after another, each opening and closing
 * the driver afresh, and collects the steps. {@link #run()} is called once, on the thread that owns
 * the sweep (it blocks); {@link #stop(String)} may be called from any thread (a signal handler):
 * the running step returns its partial result, no further step starts, and {@link #run()} returns
 * the steps done so far.
 *
 * <pre><code>
 * SweepRun sweep = new SweepRun(RatePlan.of(List.of(100.0, 200.0)), provider,
 *         (step, rate) -&gt; RunOptions.builder("mockdb").target(rate).duration(Duration.ofSeconds(10)).build(),
 *         System.err);
 * List&lt;SweepStep&gt; steps = sweep.run();
 * </code></pre>
 */
public final class SweepRun {
    private io.loadgen.core.run.LiveMetrics live;
    /** Builds the run options of one step, e.g. the same workload at {@code opsPerSec}. Main thread. */
    @FunctionalInterface
    public interface StepOptions {
        RunOptions forStep(int number, double opsPerSec);

        /** What each step issues (a workload's mix), built afresh per step; null for the options' single operation. */
        default OperationPlan planForStep() {
            return null;
        }
    }

    private final List<Double> rates;
    private final DriverProvider provider;
    private final StepOptions stepOptions;
    private final PrintStream status;
    private final OutputFailures logFailures = new OutputFailures();
    private LoadRun current;
    private String stopReason;

    /**
     * @param status where each step's start and end lines and its runs' interval status lines go (stderr), or null
     */
    public SweepRun(List<Double> rates, DriverProvider provider, StepOptions stepOptions, PrintStream status) {
        this.rates = List.copyOf(rates);
        this.provider = provider;
        this.stepOptions = stepOptions;
        this.status = status;
    }

    /** The interval log name of a step: {@code step-01-1000ops.hlog}. */
    public static String hlogName(int number, double opsPerSec) {
        return String.format(Locale.ROOT, "step-%02d-%sops.hlog", number, RatePlan.format(opsPerSec));
    }

    /**
     * Publishes every step's intervals to {@code live} (the {@code --metrics} endpoint), each step as a run of its
     * own ({@link LoadRun#publishTo}); null for none. Call before {@link #run()}. Returns this.
     */
    public SweepRun publishTo(io.loadgen.core.run.LiveMetrics live) {
        this.live = live;
        return this;
    }

    /** Ends the sweep early: the running step stops and returns what it measured; no other starts. Any thread. */
    public synchronized void stop(String reason) {
        if (stopReason == null) {
            stopReason = reason;
        }
        if (current != null) {
            current.stop(reason);
        }
    }

    /** Runs every step (until {@link #stop}) and returns them in the order run. */
    public List<SweepStep> run() throws Exception {
        List<SweepStep> steps = new ArrayList<>(rates.size());
        for (int i = 0; i < rates.size(); i++) {
            int number = i + 1;
            double rate = rates.get(i);
            RunOptions options = stepOptions.forStep(number, rate);
            LoadRun run = new LoadRun(options, provider, stepOptions.planForStep(), status).rateOwnedBy("sweep")
                    .publishTo(live);
            synchronized (this) {
                if (stopReason != null) {
                    break;
                }
                current = run;
            }
            say("loadgen sweep: step %d/%d: %s ops/s for %s", number, rates.size(), RatePlan.format(rate),
                    length(options));
            RunResult result = run.run();
            if (run.intervalLogFailure() != null) {
                logFailures.add("--hlog-dir", options.hlog(), run.intervalLogFailure());
            }
            SweepStep step = new SweepStep(number, rate, result, options.arrival());
            if (result.totalOperations() > 0 || !step.cutShort()) {
                steps.add(step);
                sayDone(step);
            }
        }
        return steps;
    }

    /** The steps' interval logs that could not be written in full (a full disk). After {@link #run()}. */
    public OutputFailures logFailures() {
        return logFailures;
    }

    /** A step's bounds for people: {@code 10s}, {@code 1000 operations} or {@code 10s or 1000 operations}. */
    static String length(RunOptions options) {
        String time = options.duration().isZero() ? "" : Durations.format(options.duration());
        String count = options.operations() == 0 ? "" : io.loadgen.core.diagnosis.Figures.plural(options.operations(), "operation");
        return time.isEmpty() ? count : count.isEmpty() ? time : time + " or " + count;
    }

    private void sayDone(SweepStep step) {
        say("loadgen sweep: step %d/%d done: offered %s ops/s, achieved %.1f ops/s, intended p99 %.3f ms,"
                        + " service p99 %.3f ms%s%s", step.number(), rates.size(), RatePlan.format(step.offeredOpsPerSec()),
                step.achievedOpsPerSec(), SweepTable.p99Ms(step, View.INTENDED),
                SweepTable.p99Ms(step, View.SERVICE),
                step.cutShort() ? " (stopped: " + step.result().stopReason() + ")" : "",
                step.keptUp() ? "" : "; " + step.shortfall());
    }

    private void say(String format, Object... args) {
        if (status != null) {
            status.println(String.format(Locale.ROOT, format, args));
            status.flush();
        }
    }
}
