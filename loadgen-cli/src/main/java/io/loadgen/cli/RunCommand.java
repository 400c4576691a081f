package io.loadgen.cli;

import io.loadgen.core.BadInputException;
import io.loadgen.core.Limits;
import io.loadgen.core.run.RunOptions;
import io.loadgen.core.schedule.RateProfile;
import io.loadgen.core.workload.PhasedWorkload;
import io.loadgen.core.workload.WorkloadFile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code loadgen run}: one run of a driver at a target rate; parses options, hands over to {@link RunReporter}. */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run a driver at a target rate and report latency from each operation's intended start "
                + "(intended) next to its service time (service) and the after-the-fact correction (corrected).",
                "Status goes to stderr every interval; the summary goes to stdout (to stderr with --json -, which"
                        + " writes the JSON to stdout)."},
        footer = {"", Main.EXIT_CODES})
final class RunCommand implements Callable<Integer> {
    private final Streams io;

    @Mixin
    VerbosityMixin verbosity;

    @Mixin
    LoadOptions load;

    @Option(names = {"--target", "-target", "-R"}, paramLabel = "OPS", converter = RateConverter.class, order = 20,
            description = "Total intended rate in operations/s (e.g. 2500, 10k, 1.5M), split evenly over the threads "
                    + "(and over the shards with --shard); -R as in wrk2. Without it the run is unthrottled and no correction is possible.")
    Double target;

    @Option(names = "--rate-file", paramLabel = "FILE", order = 22,
            description = "A file holding the target rate, written as --target takes it (e.g. 5000 or 5k): read every"
                    + " interval, and when its content changes the rate changes to it from the next interval (marked"
                    + " in the log and charts), for unattended ramps. Needs --target (the starting rate). Content"
                    + " that is no rate is warned about once and the rate stays.")
    Path rateFile;

    @Option(names = {"--duration", "-d"}, paramLabel = "TIME", converter = DurationConverter.class, order = 40,
            description = "How long to issue operations, e.g. 60s or 1m30s (-d as in wrk2); the run ends at this or "
                    + "the operation count, first. "
                    + "Overrides the workload's maxexecutiontime (default: 10s unless a count is given).")
    Duration duration;

    @Option(names = "--operations", paramLabel = "N", order = 50,
            description = "Total operations over all threads (and shards); the run ends at this count or the duration, first. "
                    + "Overrides the workload's operationcount.")
    Long operations;

    @Option(names = "--phases", paramLabel = "FILE.yaml", order = 25,
            description = "A phased workload (YAML): the rate over time as phases (step, ramp, spike), with its "
                    + "properties and threads; see workloads/ramp-step-spike.yaml. Replaces --target.")
    Path phases;

    @Option(names = "--hlog", paramLabel = "FILE", order = 120,
            description = "Write a compressed HdrHistogram interval log (tags READ.intended, READ.service, READ.failed.intended, READ.failed.service, harness.lag, harness.hiccup, and READ.status counting statuses).")
    Path hlog;

    @Option(names = "--trace", paramLabel = "FILE", order = 125,
            description = "Write every operation's intended start, actual start and end (ns since the run's start),"
                    + " type, status and worker as CSV, gzip-compressed when FILE ends in .gz (e.g. trace.csv.gz),"
                    + " for DuckDB or pandas. Written by a thread of its own; a row it cannot take in time is counted"
                    + " as dropped, never waited for. run only: sweep and findmax do not take it. See docs/trace.md.")
    Path trace;

    @Option(names = "--plot", paramLabel = "DIR", order = 145,
            description = "After the run, draw its charts into DIR (percentile distribution, latency over time with "
                    + "pauses marked) from the interval log; without --hlog the log is written to DIR/run.hlog.")
    Path plot;

    @Option(names = "--latency", order = 146,
            description = "After the summary, each operation's intended latency as wrk2's --latency prints it: the"
                    + " Latency Distribution (HdrHistogram - Recorded Latency) and its detailed percentile spectrum.")
    boolean latency;

    @Parameters(arity = "0..1", paramLabel = "URL", converter = HttpUrl.class,
            description = "A URL to load, as wrk's: selects the http driver with -p http.url=URL, e.g."
                    + " loadgen run http://127.0.0.1:8080/ -R 1000 -d 10s.")
    String url;

    @Mixin
    StartOptions start;

    @Mixin
    ReportOptions report;

    @Mixin
    StatusOptions status;

    @Mixin
    GateOptions gates;

    @Mixin
    MetricsOptions metrics;

    RunCommand(Streams io) {
        this.io = io;
    }

    @Override
    public Integer call() throws Exception {
        load.checkYcsbPhase(false);
        if (url != null) {
            if (load.driver != null && !load.driver.equals("http")) {
                throw new BadInputException("the URL " + url + " is for the http driver, not --driver " + load.driver
                        + "; leave out one of them (" + load.driver + " takes its address as a -p property: 'loadgen"
                        + " drivers' lists them)");
            }
            load.driver = "http";
            load.url = url;
        }
        load.shard(io.env(), false);
        RateProfile profile = null;
        if (phases == null) {
            load.requireDriver(java.util.Optional.empty());
        } else {
            PhasedWorkload phased = WorkloadFile.load(phases);
            load.requireDriver(phased.driver());
            if (phased.driver().isPresent() && !phased.driver().get().equals(load.driver)) {
                throw new BadInputException("--phases " + phases + " is for driver " + phased.driver().get()
                        + ", not " + load.driver + "; change --driver or the file");
            }
            load.defaults(phased.properties(), phased.threads());
            profile = load.rates(profile(phased));
        }
        if (plot != null) {
            RunReporter.checkWritableDir(plot, "--plot");
            if (hlog == null) {
                hlog = plot.resolve("run.hlog");
            }
        }
        RunOptions.Builder b = status.applyTo(load.builder().rateProfile(profile), load.ycsbStatus, io.env());
        Double rate = load.rate(target); // YCSB's client properties are defaults; the command line wins
        RunOptions options = start.applyTo(RunLength.of(load.operations(operations), duration, load.workload())
                .applyTo(b))
                .target(rate)
                .hlog(hlog)
                .rateFile(rateFile)
                .trace(trace)
                .seed(report.seedOrRandom())
                .build();
        load.announceShard(options);
        Path chartedLog = hlog;
        // Drawn as the report's epilogue, before the report counts as done: an interrupted run draws what ran too
        return metrics.serve(io, report.quiet, (live, endpoint) -> new RunReporter(io, report)
                .inputs("-P", load.propertyFiles)
                .countFrom(operations == null ? load.fromFile("operationcount") : null)
                .inputs("--phases", phases == null ? List.of() : List.of(phases))
                .directory("--plot", plot, RunCharts::isChartName).publishTo(live, endpoint)
                .run(options, load.plan(), plot == null && !latency ? null : result -> epilogue(chartedLog, result), gates));
    }

    private void epilogue(Path chartedLog, io.loadgen.core.summary.RunResult result) {
        if (latency) {
            LatencyDistribution.write(result, report.humanOut(io));
        }
        if (plot != null) {
            chart(chartedLog, result);
        }
    }

    private void chart(Path log, io.loadgen.core.summary.RunResult result) {
        if (result.runTimeNs() == 0 && result.totalOperations() == 0) {
            io.err().println("loadgen: --plot: nothing was measured, so no chart is drawn");
            return;
        }
        try {
            new RunCharts(io).ofLog(log, plot);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static RateProfile profile(PhasedWorkload phased) {
        List<RateProfile.Segment> segments = new ArrayList<>();
        for (PhasedWorkload.Phase p : phased.phases()) {
            segments.add(new RateProfile.Segment(p.name(), p.duration().toNanos(), p.fromOpsPerSec(),
                    p.toOpsPerSec()));
        }
        return new RateProfile(segments);
    }

    /** Reads run's URL argument: an http or https URL; anything else is named as not one. */
    static final class HttpUrl implements picocli.CommandLine.ITypeConverter<String> {
        @Override
        public String convert(String value) {
            String lower = value.toLowerCase(java.util.Locale.ROOT);
            if (!lower.startsWith("http://") && !lower.startsWith("https://")) {
                throw new picocli.CommandLine.TypeConversionException("'" + Limits.quote(value)
                        + "' is not an http(s) URL; run takes one argument, a URL for the http driver, e.g."
                        + " http://127.0.0.1:8080/ (other drivers take their address as a -p property)");
            }
            return value;
        }
    }
}
