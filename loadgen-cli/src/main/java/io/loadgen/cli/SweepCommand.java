package io.loadgen.cli;

import io.loadgen.core.BadInputException;
import io.loadgen.core.Limits;
import io.loadgen.core.time.Durations;
import io.loadgen.core.driver.DriverProperties;
import io.loadgen.core.driver.DriverProvider;
import io.loadgen.core.driver.DriverRegistry;
import io.loadgen.core.output.OutputFailures;
import io.loadgen.core.run.RunOptions;
import io.loadgen.core.sweep.RatePlan;
import io.loadgen.core.sweep.Sla;
import io.loadgen.core.sweep.SlaVerdict;
import io.loadgen.core.sweep.SweepFiles;
import io.loadgen.core.sweep.SweepRun;
import io.loadgen.core.sweep.SweepStep;
import io.loadgen.core.sweep.SweepTable;
import io.loadgen.core.workload.WorkloadOptions;
import io.loadgen.plot.SlaLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code loadgen sweep}: the latency-versus-throughput curve. Runs the same workload at each offered
 * rate in turn ({@link SweepRun}), prints one row per rate with whether the step kept up
 * ({@link io.loadgen.core.sweep.KeepUpRule}) and, with {@code --sla}, where the objective stops
 * holding measured from the intended start versus from the actual start. Ctrl-C prints the steps
 * done so far. Main thread.
 */
@Command(name = "sweep", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run the same workload at a series of offered rates, one after another, and print latency "
                + "against throughput: one row per rate, intended percentiles next to service p99.",
                "Rates: --rates 1000,2000,4000, or --from 1000 --to 20000 --steps 10 [--scale log].",
                "Status goes to stderr; the table goes to stdout (to stderr with --json -, which writes the JSON to"
                        + " stdout)."},
        footer = {"", Main.EXIT_CODES})
final class SweepCommand implements Callable<Integer> {
    private final Streams io;

    @Mixin
    VerbosityMixin verbosity;

    @Mixin
    LoadOptions load;

    @Option(names = "--rates", paramLabel = "OPS", split = ",", converter = RateConverter.class, order = 20,
            description = "Offered rates in ops/s, run in this order, e.g. 1000,2000,4000 or 5k,10k,20k.")
    List<Double> rates;

    @Option(names = "--from", paramLabel = "OPS", converter = RateConverter.class, order = 21,
            description = "The lowest offered rate (with --to, --steps).")
    Double from;

    @Option(names = "--to", paramLabel = "OPS", converter = RateConverter.class, order = 22,
            description = "The highest offered rate, included.")
    Double to;

    @Option(names = "--steps", paramLabel = "N", order = 23, description = "How many rates from --from to --to (at least 2).")
    Integer steps;

    @Option(names = "--scale", paramLabel = "linear|log", defaultValue = "linear", order = 24,
            description = "Spacing of --steps: equal differences (linear) or equal ratios (log). Default: ${DEFAULT-VALUE}.")
    RatePlan.Scale scale;

    @Option(names = {"--duration", "-d"}, paramLabel = "TIME", converter = DurationConverter.class, order = 40,
            description = "How long each step runs, e.g. 30s or 1m30s; overrides the workload's maxexecutiontime "
                    + "(default: 10s unless a count is given).")
    Duration duration;

    @Option(names = "--operations", paramLabel = "N", order = 50,
            description = "Operations per step; a step ends at this count or the duration, first. "
                    + "Overrides the workload's operationcount.")
    Long operations;

    @Option(names = "--sla", paramLabel = "OBJECTIVE", order = 115,
            description = "Report the highest rate meeting it, e.g. 'p99<10ms' (p50, p90, p95, p99, p99.9 or max; "
                    + "us, ms or s), from intended start and from service time. From intended start a step meets it "
                    + "only if it also kept up (the 'kept up' column).")
    String sla;

    @Option(names = "--hlog-dir", paramLabel = "DIR", order = 120,
            description = "Write one interval log per step into DIR: step-01-1000ops.hlog, ...")
    Path hlogDir;

    @Option(names = "--plot", paramLabel = "DIR", order = 127,
            description = "Draw the latency-vs-throughput curve into DIR/sweep.latency-vs-throughput.png, the knee"
                    + " marked: the highest rate that kept up (and met --sla, when given).")
    Path plot;

    @Option(names = "--csv", paramLabel = "FILE", order = 125, description = "Write the table as CSV.")
    Path csv;

    @Option(names = "--json", paramLabel = "FILE", order = 130,
            description = "Write a JSON list: per step its offered and achieved rate, kept_up, and its full run summary;"
                    + " '-' writes it to stdout and the table to stderr.")
    Path json;

    @Option(names = "--seed", paramLabel = "N", order = 150,
            description = "Seed for start offsets, Poisson gaps and drivers' randomness (the same for every step).")
    Long seed;

    @Option(names = {"--quiet", "-q"}, order = 160, description = "No status lines, per interval or per step (warnings and errors still show).")
    boolean quiet;

    @Mixin
    StatusOptions status;

    @Mixin
    MetricsOptions metrics;

    SweepCommand(Streams io) {
        this.io = io;
    }

    @Override
    public Integer call() throws Exception {
        load.checkYcsbPhase(false);
        load.requireDriver(java.util.Optional.empty());
        load.shard(io.env(), false);
        List<Double> plan = plan().stream().map(load::rate).toList(); // a shard's part of each rate
        Sla objective = sla == null ? null : Sla.parse(sla);
        List<String> stepLogs = new ArrayList<>();
        for (int i = 0; i < plan.size(); i++) {
            stepLogs.add(SweepRun.hlogName(i + 1, plan.get(i)));
        }
        RunReporter.checkStepOutputs(csv, json, hlogDir, stepLogs::contains, plot, load.propertyFiles);
        SlaLine line = sla == null ? null : SlaLine.parse(sla);
        DriverProvider provider = DriverRegistry.find(load.driver);
        long runSeed = seed != null ? seed : System.nanoTime();
        SweepRun.StepOptions stepOptions = new SweepRun.StepOptions() {
            @Override
            public RunOptions forStep(int number, double rate) {
                RunOptions.Builder b = status.applyTo(load.builder(), load.ycsbStatus, io.env());
                return RunLength.of(load.operations(operations), duration, load.workload()).applyTo(b).target(rate)
                        .hlog(hlogDir == null ? null : hlogDir.resolve(SweepRun.hlogName(number, rate)))
                        .seed(runSeed).build();
            }

            @Override
            public io.loadgen.core.workload.OperationPlan planForStep() {
                return load.plan();
            }
        };
        RunOptions first = stepOptions.forStep(1, plan.get(0));
        load.announceShard("per step " + plan.stream().map(LoadOptions::opsPerSec).toList(), first.operations());
        DriverProperties.of(provider, first.properties(), WorkloadOptions::didYouMean); // bad properties fail now
        String planned = plannedLength(stepOptions, plan);
        if (planned != null && !quiet) {
            io.err().println(planned);
        }
        SweepRun sweep = new SweepRun(plan, provider, stepOptions, quiet ? null : io.err());
        return metrics.serve(io, quiet, (live, endpoint) -> {
            RateHandler.refuseOn(endpoint, "sweep");
            return runAndReport(sweep.publishTo(live), objective, line);
        });
    }

    /**
     * The sweep's planned length, every step's duration (or its count at its rate, if that ends it first) added up:
     * refused above {@link Limits#MAX_SWEEP_NS}, and said on stderr before the first step when above a minute (this
     * returns the line then, else null), so a sweep of hours does not start without a word. A step bounded by a count
     * alone without a rate has no planned length; then nothing is said.
     */
    static String plannedLength(SweepRun.StepOptions stepOptions, List<Double> rates) {
        double totalNs = 0;
        for (int i = 0; i < rates.size(); i++) {
            RunOptions step = stepOptions.forStep(i + 1, rates.get(i));
            double byCountNs = step.operations() > 0 && step.throttled()
                    ? step.operations() / step.targetOpsPerSec() * 1e9 : Double.POSITIVE_INFINITY;
            double stepNs = Math.min(step.duration().isZero() ? Double.POSITIVE_INFINITY : step.duration().toNanos(),
                    byCountNs);
            if (Double.isInfinite(stepNs)) {
                return null;
            }
            totalNs += stepNs;
        }
        String length = Durations.hms(Duration.ofNanos((long) Math.min(totalNs, Long.MAX_VALUE)));
        String steps = rates.size() + " step" + (rates.size() == 1 ? "" : "s");
        if (totalNs > Limits.MAX_SWEEP_NS) {
            throw new BadInputException("the sweep's " + steps + " would run for " + length + ", longer than the"
                    + " limit of " + Durations.format(Duration.ofNanos(Limits.MAX_SWEEP_NS)) + " for a sweep; give fewer"
                    + " --steps (or --rates), a shorter --duration or fewer --operations per step");
        }
        return totalNs > MINUTE_NS ? "loadgen: sweep of " + steps + ": " + length + " planned, plus each step's start"
                : null;
    }

    private static final double MINUTE_NS = 60e9;

    private List<Double> plan() {
        boolean spaced = from != null || to != null || steps != null;
        if (rates != null && spaced) {
            throw new BadInputException("give either --rates or --from/--to/--steps, not both");
        }
        if (rates != null) {
            return RatePlan.of(rates);
        }
        if (from == null || to == null || steps == null) {
            throw new BadInputException(spaced ? "--from, --to and --steps go together; missing "
                    + (from == null ? "--from" : to == null ? "--to" : "--steps")
                    : "give the rates: --rates 1000,2000,4000 or --from 1000 --to 20000 --steps 10");
        }
        return RatePlan.spaced(from, to, steps, scale);
    }

    private int runAndReport(SweepRun sweep, Sla objective, SlaLine line) throws Exception {
        try (SignalReport s = SignalReport.install(io, "stopping the sweep and printing the steps done so far",
                () -> sweep.stop("interrupted"))) {
            List<SweepStep> done;
            try (QuietLogging q = QuietLogging.forRun()) {
                done = sweep.run();
            }
            OutputFailures failures = sweep.logFailures();
            report(done, objective, failures);
            if (plot != null && !done.isEmpty()) {
                new RunCharts(io).ofSweep(done, line, plot);
            }
            failures.lines().forEach(message -> io.err().println("loadgen: " + message));
            return failures.isEmpty() ? 0 : Main.EXIT_FAILED;
        }
    }

    /** True for {@code --json -}: the JSON owns stdout, so the table for people goes to stderr. */
    private boolean jsonToStdout() {
        return ReportOptions.isStdout(json);
    }

    private void report(List<SweepStep> done, Sla objective, OutputFailures failures) {
        PrintStream out = jsonToStdout() ? io.err() : io.out();
        SweepTable.write(done, out);
        if (objective != null && !done.isEmpty()) {
            out.println();
            SlaVerdict.of(objective, done).lines().forEach(out::println);
        }
        out.flush();
        if (csv != null && failures.attempt("--csv", csv, () -> SweepFiles.writeCsv(done, csv))) {
            io.err().println("loadgen: wrote " + csv);
        }
        if (jsonToStdout()) {
            failures.attempt("--json", json, () -> {
                SweepFiles.writeJson(done, io.out());
                io.out().println();
                io.out().flush();
            });
        } else if (json != null && failures.attempt("--json", json, () -> SweepFiles.writeJson(done, json))) {
            io.err().println("loadgen: wrote " + json);
        }
        if (hlogDir != null) {
            io.err().println("loadgen: wrote " + done.size() + " interval logs to " + hlogDir);
        }
    }
}
