package io.loadgen.cli;

import io.loadgen.core.BadInputException;
import io.loadgen.core.Limits;
import io.loadgen.core.driver.DriverProperties;
import io.loadgen.core.driver.DriverProvider;
import io.loadgen.core.driver.DriverRegistry;
import io.loadgen.core.findmax.FindMaxReport;
import io.loadgen.core.findmax.FindMaxResult;
import io.loadgen.core.findmax.FindMaxRun;
import io.loadgen.core.findmax.FindMaxSearch;
import io.loadgen.core.findmax.ShardSync;
import io.loadgen.core.findmax.Slo;
import io.loadgen.core.findmax.StabilityDetector;
import io.loadgen.core.gate.Metric;
import io.loadgen.core.gate.Rule;
import io.loadgen.core.output.OutputFailures;
import io.loadgen.core.run.RunOptions;
import io.loadgen.core.shard.Shard;
import io.loadgen.core.sweep.SweepRun;
import io.loadgen.core.time.Durations;
import io.loadgen.core.workload.WorkloadOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * {@code loadgen findmax}: the highest offered rate that keeps up and meets every {@code --slo}, with its 95 %
 * band. Steps the rate up (doubling), then bisects, then confirms the boundary ({@link FindMaxSearch}); each step
 * runs until it is stable or decisively failed ({@link StabilityDetector}). Ctrl-C prints the steps done so far
 * and the answer so far. Main thread.
 */
@Command(name = "findmax", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Find the highest offered rate the target keeps up with while meeting every --slo, e.g."
                + " 'READ.intended.p99 < 1ms': doubling from --from, then bisection to --resolution, then the boundary"
                + " run again. Each step runs until stable (--min-step, --max-step). Prints the step table and the"
                + " answer with its 95%% band.",
                "Status goes to stderr; the table goes to stdout (to stderr with --json -)."},
        footer = {"", "Exit codes: 0 an answer was found; 1 no rate met the objectives, or a step the load generator"
                + " could not drive stopped the search, or an output could not be written; 2 bad input."})
final class FindMaxCommand implements Callable<Integer> {
    /**
     * The interval when --interval is not given: 500 ms, so a 5 s minimum step holds 10 intervals, above the 8 a
     * bootstrap band needs and twice the detector's window.
     */
    static final Duration DEFAULT_INTERVAL = Duration.ofMillis(500);

    /**
     * The warm-up when --warmup is not given: 1 s. Each step opens the driver afresh, and its first few hundred ms
     * hold the JIT compiling the workers' code: a stall the diagnosis rightly lays at the harness's door, which
     * would stop the search on a store that is fine.
     */
    static final Duration DEFAULT_WARMUP = Duration.ofSeconds(1);
    /** A sharded slot's time beyond the step: the driver's open and close, the reports' exchange, the judging. */
    static final Duration SLOT_MARGIN = Duration.ofSeconds(2);

    private final Streams io;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Mixin
    VerbosityMixin verbosity;

    @Mixin
    LoadOptions load;

    @Option(names = "--slo", paramLabel = "RULE", order = 20,
            description = "An objective every passing step meets, in gate syntax; repeatable. A bare statistic is"
                    + " intended latency of each operation type: 'p99 < 1ms' is '*.intended.p99 < 1ms'. Also"
                    + " 'error_rate < 0.1%%', 'READ.intended.mean < 2ms'. Service-time and windowed rules are refused."
                    + " None: the highest rate that keeps up.")
    List<String> slos = new ArrayList<>();

    @Option(names = "--from", paramLabel = "OPS", converter = RateConverter.class, defaultValue = "1000", order = 21,
            description = "The first rate; doubled while steps pass, halved while they fail. Default: ${DEFAULT-VALUE}"
                    + " (ten doublings reach a million ops/s).")
    double from;

    @Option(names = "--to", paramLabel = "OPS", converter = RateConverter.class, order = 22,
            description = "The highest rate tried (default: none).")
    Double to;

    @Option(names = "--resolution", paramLabel = "SHARE", converter = ShareConverter.class, defaultValue = "2%",
            order = 23, description = "Stop bisecting when high/low - 1 is at most this, 0.1%% to 50%%. Default: 2%%"
                    + " (the keep-up rule's own tolerance).")
    double resolution;

    @Option(names = "--min-step", paramLabel = "TIME", converter = DurationConverter.class, defaultValue = "5s",
            order = 24, description = "The shortest step: nothing is decided before it. Default: ${DEFAULT-VALUE}.")
    Duration minStep;

    @Option(names = "--max-step", paramLabel = "TIME", converter = DurationConverter.class, defaultValue = "30s",
            order = 25, description = "The longest step: one not stable by then is judged as it stands."
                    + " Default: ${DEFAULT-VALUE}.")
    Duration maxStep;

    @Option(names = "--max-steps", paramLabel = "N", defaultValue = "30", order = 26,
            description = "The most steps. Default: ${DEFAULT-VALUE}.")
    int maxSteps;

    @Mixin
    StartOptions start;

    @Option(names = "--sync-dir", paramLabel = "DIR", order = 53,
            description = "Sharded (--shard I/N): a directory every shard reads and writes, where each step's reports"
                    + " meet so that every shard judges the merged step and moves to the same next rate. Needs"
                    + " --start-at; each step is then a fixed slot of --warmup + --min-step + 2s.")
    Path syncDir;

    @Option(names = "--hlog-dir", paramLabel = "DIR", order = 120,
            description = "Write one interval log per step into DIR: step-01-1000ops.hlog, ...")
    Path hlogDir;

    @Option(names = "--plot", paramLabel = "DIR", order = 127,
            description = "Draw DIR/findmax.latency-vs-throughput.png: the steps, each latency objective, the answer"
                    + " and its band.")
    Path plot;

    @Option(names = "--csv", paramLabel = "FILE", order = 125, description = "Write one row per step and objective.")
    Path csv;

    @Option(names = "--json", paramLabel = "FILE", order = 130,
            description = "Write the answer, band, stop_reason, rules and steps (each with its run summary) as JSON;"
                    + " '-' writes it to stdout and the table to stderr.")
    Path json;

    @Option(names = "--seed", paramLabel = "N", order = 150,
            description = "Seed for start offsets, Poisson gaps, drivers' randomness and the band's bootstrap; step n"
                    + " runs with seed + n, so a repeated rate is an independent draw.")
    Long seed;

    @Option(names = {"--quiet", "-q"}, order = 160, description = "No status lines (warnings and errors still show).")
    boolean quiet;

    @Mixin
    StatusOptions status;

    @Mixin
    MetricsOptions metrics;

    FindMaxCommand(Streams io) {
        this.io = io;
    }

    @Override
    public Integer call() throws Exception {
        load.checkYcsbPhase(false);
        load.requireDriver(Optional.empty());
        Shard shard = load.shard(io.env(), false);
        List<Rule> rules = Slo.parse(slos);
        if (shard != null) {
            checkSharded(rules);
        }
        checkSearch();
        if (load.interval == null) {
            load.interval = DEFAULT_INTERVAL;
        }
        if (!spec.commandLine().getParseResult().hasMatchedOption("--warmup")) {
            load.warmup = DEFAULT_WARMUP;
        }
        RunReporter.checkStepOutputs(csv, json, hlogDir, n -> n.startsWith("step-") && n.endsWith(".hlog"), plot,
                load.propertyFiles);
        DriverProvider provider = DriverRegistry.find(load.driver);
        long runSeed = seed != null ? seed : System.nanoTime();
        SweepRun.StepOptions stepOptions = new SweepRun.StepOptions() {
            @Override
            public RunOptions forStep(int number, double rate) {
                RunOptions.Builder b = status.applyTo(load.builder(), load.ycsbStatus, io.env());
                if (shard != null) {
                    // Sharded: a fixed-length slot per step, every shard's step k starting on the same instant.
                    start.applyTo(b).startAt(start.startAt + (number - 1) * slotMs());
                    return b.duration(load.warmup.plus(minStep)).target(load.rate(rate))
                            .hlog(hlogDir == null ? null : hlogDir.resolve(SweepRun.hlogName(number, rate)))
                            .seed(runSeed + number).build();
                }
                // The detector ends the step; the duration is a backstop two intervals past the longest step.
                Duration backstop = load.warmup.plus(maxStep).plus(load.interval.multipliedBy(2));
                return b.duration(backstop).target(rate)
                        .hlog(hlogDir == null ? null : hlogDir.resolve(SweepRun.hlogName(number, rate)))
                        .seed(runSeed + number).build();
            }

            @Override
            public io.loadgen.core.workload.OperationPlan planForStep() {
                return load.plan();
            }
        };
        RunOptions first = stepOptions.forStep(1, from);
        DriverProperties.of(provider, first.properties(), WorkloadOptions::didYouMean); // bad properties fail now
        if (StabilityDetector.WINDOW * first.interval().toNanos() > maxStep.toNanos()) {
            throw new BadInputException("--max-step " + Durations.format(maxStep) + " holds fewer than "
                    + StabilityDetector.WINDOW + " intervals of " + Durations.format(first.interval())
                    + ", the window a step is judged stable on; give a longer --max-step or a shorter --interval");
        }
        FindMaxSearch search = new FindMaxSearch(from, to == null ? Double.POSITIVE_INFINITY : to, resolution, maxSteps);
        // Sharded, every shard must draw the same bootstrap replicates: the seed is the shared start instant.
        FindMaxRun run = new FindMaxRun(stepOptions, provider, rules, search, minStep.toNanos() / 1e9,
                maxStep.toNanos() / 1e9, shard != null ? start.startAt : runSeed, quiet ? null : io.err());
        if (shard != null) {
            run.sharded(new ShardSync(syncDir, shard.index(), shard.count(),
                    SLOT_MARGIN.toMillis()));
            load.announceShard("per step, its part of the rate", first.operations());
        }
        return metrics.serve(io, quiet, (live, endpoint) -> {
            RateHandler.refuseOn(endpoint, "findmax");
            return runAndReport(run.publishTo(live));
        });
    }

    /**
     * A sharded step's slot: its warm-up, its fixed length (--min-step) and {@link #SLOT_MARGIN} for the driver's
     * open and close, writing the report, waiting for the other shards' and judging.
     */
    private long slotMs() {
        return load.warmup.plus(minStep).plus(SLOT_MARGIN).toMillis();
    }

    private void checkSharded(List<Rule> rules) {
        if (start.startAt == null || syncDir == null) {
            throw new BadInputException("a sharded findmax needs --start-at TIME and --sync-dir DIR (the same on every"
                    + " shard): every shard runs step k at start-at + k x slot and agrees on the next rate through"
                    + " the reports in DIR");
        }
        if (!java.nio.file.Files.isDirectory(syncDir)) {
            throw new BadInputException("--sync-dir " + syncDir + " is not a directory; give a directory every shard"
                    + " can read and write (a shared volume across machines)");
        }
        for (Rule rule : rules) {
            Metric.Kind k = rule.metric().kind();
            if (k == Metric.Kind.DIAGNOSIS || k == Metric.Kind.VERDICT) {
                throw new BadInputException("--slo '" + rule.text() + "': a sharded step is judged on the shards'"
                        + " merged histograms, which hold no diagnosis or verdict; leave it out (a shard the harness"
                        + " could not drive stops the search anyway)");
            }
        }
    }

    private void checkSearch() {
        if (!(from > 0)) {
            throw new BadInputException("--from must be above 0 ops/s; give the first rate to try, e.g. --from 1000");
        }
        if (to != null && to < from) {
            throw new BadInputException("--from " + LoadOptions.opsPerSec(from) + " is above --to "
                    + LoadOptions.opsPerSec(to) + "; give a --from at or below --to");
        }
        if (!(resolution >= 0.001 && resolution <= 0.5)) {
            throw new BadInputException("--resolution must be from 0.1% to 50% (got " + resolution * 100 + "%): below,"
                    + " steps differ by less than their own noise; above, it is no answer; e.g. --resolution 2%");
        }
        if (minStep.isNegative() || minStep.compareTo(maxStep) > 0 || maxStep.isZero()) {
            throw new BadInputException("--min-step " + Durations.format(minStep) + " must be at most --max-step "
                    + Durations.format(maxStep) + ", and --max-step above 0; e.g. --min-step 5s --max-step 30s");
        }
        if (maxSteps < 1 || maxSteps > Limits.MAX_SWEEP_STEPS) {
            throw new BadInputException("--max-steps must be from 1 to " + Limits.MAX_SWEEP_STEPS + " (got " + maxSteps
                    + ")");
        }
        double worstNs = (double) maxSteps * (maxStep.toNanos() + load.warmup.toNanos());
        if (worstNs > Limits.MAX_SWEEP_NS) {
            throw new BadInputException("findmax could run for " + Durations.hms(Duration.ofNanos((long) worstNs))
                    + " (--max-steps " + maxSteps + " x --max-step " + Durations.format(maxStep) + "), longer than the"
                    + " limit of " + Durations.format(Duration.ofNanos(Limits.MAX_SWEEP_NS)) + " for a sweep; give fewer"
                    + " --max-steps or a shorter --max-step");
        }
    }

    private int runAndReport(FindMaxRun run) throws Exception {
        try (SignalReport s = SignalReport.install(io, "stopping findmax and printing the steps done so far",
                () -> run.stop("interrupted"))) {
            FindMaxResult result;
            try (QuietLogging q = QuietLogging.forRun()) {
                result = run.run();
            }
            OutputFailures failures = run.logFailures();
            report(result, failures);
            if (plot != null && !result.steps().isEmpty()) {
                failures.attempt("--plot", plot, () -> new RunCharts(io).ofFindMax(result, plot));
            }
            failures.lines().forEach(message -> io.err().println("loadgen: " + message));
            return failures.isEmpty() && result.found() ? 0 : Main.EXIT_FAILED;
        }
    }

    private void report(FindMaxResult result, OutputFailures failures) {
        boolean jsonToStdout = ReportOptions.isStdout(json);
        PrintStream out = jsonToStdout ? io.err() : io.out();
        FindMaxReport.write(result, out);
        if (csv != null && failures.attempt("--csv", csv, () -> FindMaxReport.writeCsv(result, csv))) {
            io.err().println("loadgen: wrote " + csv);
        }
        if (jsonToStdout) {
            failures.attempt("--json", json, () -> {
                FindMaxReport.writeJson(result, io.out());
                io.out().println();
                io.out().flush();
            });
        } else if (json != null && failures.attempt("--json", json, () -> FindMaxReport.writeJson(result, json))) {
            io.err().println("loadgen: wrote " + json);
        }
        if (hlogDir != null) {
            io.err().println("loadgen: wrote " + result.steps().size() + " interval logs to " + hlogDir);
        }
    }
}
