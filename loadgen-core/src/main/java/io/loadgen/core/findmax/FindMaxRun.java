package io.loadgen.core.findmax;

import io.loadgen.core.diagnosis.CauseCode;
import io.loadgen.core.driver.DriverProvider;
import io.loadgen.core.gate.Rule;
import io.loadgen.core.output.OutputFailures;
import io.loadgen.core.run.LoadRun;
import io.loadgen.core.run.RunOptions;
import io.loadgen.core.summary.RunResult;
import io.loadgen.core.sweep.RatePlan;
import io.loadgen.core.sweep.SweepRun;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

/**
 * Runs a findmax search: one {@link LoadRun} per step at the rate {@link FindMaxSearch} chooses, each watched by a
 * {@link StepRecorder} that stops it once its {@link StabilityDetector} decides, each judged ({@link FindMaxStep})
 * before the next rate is chosen. A step that failed while the harness stalled ({@code harness_stalled}, a transient
 * of the machine) is run once more at the same rate, and only a second such failure stops the search; a saturated
 * harness ({@code harness_saturated}) stops it at once. {@link #run()} is called once, on the thread that owns the search (it blocks);
 * {@link #stop(String)} from any thread (a signal handler): the running step returns what it measured, no further
 * step starts, and the answer so far stands.
 */
public final class FindMaxRun {
    private io.loadgen.core.run.LiveMetrics live;
    /** How a step's options are built: the same workload at a rate, for at least {@code maxSec} (the backstop). */
    private final SweepRun.StepOptions stepOptions;
    private final DriverProvider provider;
    private final List<Rule> rules;
    private final FindMaxSearch search;
    private final double minSec;
    private final double maxSec;
    private final long seed;
    private final PrintStream status;
    private final OutputFailures logFailures = new OutputFailures();
    private final List<FindMaxStep> steps = new ArrayList<>();
    private LoadRun current;
    private String stopReason;
    private ShardSync sync;

    /**
     * @param stepOptions the run options of step {@code n} at a rate; their duration must be the backstop, longer
     *                    than {@code maxSec} (the detector ends each step)
     * @param status      where each step's lines and its run's status lines go (stderr), or null
     */
    public FindMaxRun(SweepRun.StepOptions stepOptions, DriverProvider provider, List<Rule> rules, FindMaxSearch search,
                      double minSec, double maxSec, long seed, PrintStream status) {
        this.stepOptions = stepOptions;
        this.provider = provider;
        this.rules = List.copyOf(rules);
        this.search = search;
        this.minSec = minSec;
        this.maxSec = maxSec;
        this.seed = seed;
        this.status = status;
    }

    /**
     * Makes this a shard of a sharded search: steps are fixed-length (the step options' duration ends each run, the
     * detector does not), and after each step this shard publishes its report through {@code sync}, waits for every
     * other shard's, and judges the merged step ({@link ShardedStep}). Call before {@link #run()}. Returns this.
     */
    public FindMaxRun sharded(ShardSync sync) {
        this.sync = sync;
        return this;
    }

    /**
     * Publishes every step's intervals to {@code live} (the {@code --metrics} endpoint), each step as a run of its
     * own ({@link LoadRun#publishTo}); null for none. Call before {@link #run()}. Returns this.
     */
    public FindMaxRun publishTo(io.loadgen.core.run.LiveMetrics live) {
        this.live = live;
        return this;
    }

    /** Ends the search: the running step stops and is judged on what it measured; no other starts. Any thread. */
    public synchronized void stop(String reason) {
        if (stopReason == null) {
            stopReason = reason;
        }
        if (current != null) {
            current.stop(reason);
        }
    }

    /** Runs the search to its end (or {@link #stop}) and returns the outcome. */
    public FindMaxResult run() throws Exception {
        double rerunOf = Double.NaN;
        while (true) {
            OptionalDouble next;
            synchronized (this) {
                if (stopReason != null) {
                    search.interrupt();
                }
                next = search.next();
            }
            if (next.isEmpty()) {
                break;
            }
            double rate = next.getAsDouble();
            int number = steps.size() + 1;
            RunOptions options = stepOptions.forStep(number, rate);
            LoadRun run = new LoadRun(options, provider, stepOptions.planForStep(), status).rateOwnedBy("findmax")
                    .publishTo(live);
            StepRecorder recorder = new StepRecorder(sync == null ? new StabilityDetector(rate, minSec, maxSec)
                    : new StabilityDetector(rate, Double.MAX_VALUE, Double.MAX_VALUE), run::stop);
            run.onInterval(recorder);
            synchronized (this) {
                if (stopReason != null) {
                    search.interrupt();
                    break;
                }
                current = run;
            }
            say("loadgen findmax: step %d: %s ops/s", number, RatePlan.format(rate));
            RunResult result = run.run();
            synchronized (this) {
                current = null;
            }
            if (run.intervalLogFailure() != null) {
                logFailures.add("--hlog-dir", options.hlog(), run.intervalLogFailure());
            }
            boolean interrupted;
            synchronized (this) {
                interrupted = stopReason != null;
            }
            if (interrupted && recorder.decision() == StabilityDetector.Decision.CONTINUE) {
                search.interrupt(); // cut short by the signal: not judged, not counted
                break;
            }
            FindMaxStep step;
            if (sync == null) {
                step = FindMaxStep.judge(number, rate, result, options.arrival(), recorder, rules, seed + number);
            } else {
                sync.publish(number, ShardedStep.report(sync.index(), options.targetOpsPerSec(), result, recorder));
                List<ShardSync.Report> reports = sync.awaitAll(number);
                if (reports == null) {
                    say("loadgen findmax: step %d: not every shard's report arrived in time; stopping", number);
                    search.stop(FindMaxSearch.StopReason.SYNC);
                    break;
                }
                step = ShardedStep.judge(number, rate, options.arrival(), reports, rules, seed + number,
                        provider.name());
            }
            steps.add(step);
            sayDone(step);
            if (step.harnessFault() != null && step.harnessFault().code() == CauseCode.HARNESS_STALLED
                    && rerunOf != rate) {
                // A stall is transient (the machine did not schedule the generator's threads for a while): the same
                // rate once more decides. A saturated harness is not, and stops at once.
                say("loadgen findmax: step %d: the harness stalled; running %s ops/s again", number,
                        RatePlan.format(rate));
                rerunOf = rate;
                search.retry(rate);
                continue;
            }
            rerunOf = Double.NaN;
            search.record(rate, step.harnessFault() != null ? FindMaxSearch.Outcome.HARNESS
                    : step.passed() ? FindMaxSearch.Outcome.PASS : FindMaxSearch.Outcome.FAIL);
        }
        return FindMaxResult.of(steps, search, rules);
    }

    /** The steps' interval logs that could not be written in full. After {@link #run()}. */
    public OutputFailures logFailures() {
        return logFailures;
    }

    private void sayDone(FindMaxStep step) {
        say("loadgen findmax: step %d: %s ops/s %s: achieved %.1f ops/s, %s%s", step.number(),
                RatePlan.format(step.offeredOpsPerSec()), step.passed() ? "passed" : "failed", step.achievedOpsPerSec(),
                step.endedText(), step.harnessFault() != null ? "; the harness could not drive it ("
                        + step.harnessFault().code().key() + ")" : !step.keptUp() ? "; fell behind" : "");
    }

    private void say(String format, Object... args) {
        if (status != null) {
            status.println(String.format(Locale.ROOT, format, args));
            status.flush();
        }
    }
}
