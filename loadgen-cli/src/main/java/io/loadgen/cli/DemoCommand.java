package io.loadgen.cli;


import io.loadgen.core.record.View;
import io.loadgen.core.run.RunOptions;
import io.loadgen.core.summary.OpResult;
import io.loadgen.core.summary.RunResult;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code loadgen demo}: the coordinated-omission article's setup on the embedded four-mode store
 * ({@code stw-mockdb}, 10,000 ops/s on 25 threads), ending with the two views side by side and one
 * sentence on what the difference means.
 */
@Command(name = "demo", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Show coordinated omission on an embedded store that sometimes stalls: stw-mockdb at "
                + "10,000 ops/s on 25 threads for 30 s, writing an interval log.",
                "Same as: loadgen run --driver stw-mockdb --target 10000 --threads 25 --duration 30s "
                        + "--hlog loadgen-demo.hlog, then loadgen plot loadgen-demo.hlog and loadgen plot --html loadgen-demo.html loadgen-demo.hlog (the charts and the explorer go next to the log)."})
final class DemoCommand implements Callable<Integer> {
    static final double TARGET_OPS_PER_SEC = 10_000;
    static final int THREADS = 25;
    /** The environment variable in which the {@code ./loadgen} launcher passes its own path. */
    static final String SELF_ENV = "LOADGEN_SELF";

    private final Streams io;

    @Mixin
    VerbosityMixin verbosity;

    @Option(names = "--duration", paramLabel = "TIME", order = 40, converter = DurationConverter.class, defaultValue = "30s",
            description = "How long to run. Default: ${DEFAULT-VALUE}.")
    Duration duration;

    @Option(names = "--hlog", paramLabel = "FILE", order = 120, defaultValue = "loadgen-demo.hlog",
            description = "The interval log to write. Default: ${DEFAULT-VALUE}.")
    Path hlog;

    @Mixin
    ReportOptions report;

    @Mixin
    StatusOptions status;

    DemoCommand(Streams io) {
        this.io = io;
    }

    @Override
    public Integer call() throws Exception {
        RunOptions options = status.applyTo(RunOptions.builder("stw-mockdb"), false, io.env())
                .target(TARGET_OPS_PER_SEC)
                .threads(THREADS)
                .duration(duration)
                .hlog(hlog)
                .seed(report.seedOrRandom())
                .build();
        RunReporter.checkWritableFile(hlog, "--hlog"); // before the line that announces the run
        io.err().println("loadgen demo: " + options.describe() + "; interval log " + hlog);
        int code = new RunReporter(io, report).run(options, null, this::explain);
        new RunCharts(io).ofLog(hlog, hlog.toAbsolutePath().getParent()); // next to the log
        return code;
    }

    private void explain(RunResult result) {
        OpResult op = result.operations().get(0);
        double service = op.histogram(View.SERVICE).getValueAtPercentile(99) / 1e6;
        double intended = op.histogram(View.INTENDED).getValueAtPercentile(99) / 1e6;
        PrintStream out = report.humanOut(io);
        out.println();
        out.println(sentence(service, intended));
        String self = self(System.getenv(SELF_ENV));
        out.println("The interval log " + hlog + " holds every interval of both views; summarise it as HdrHistogram's"
                + " HistogramLogProcessor does with " + self + " report -i " + hlog + " -tag " + op.name() + ".intended,"
                + " or gate on it: " + self + " gate " + hlog + " --rule '" + op.name() + ".intended.p99 < 50ms over 5s windows'");
        out.println("Charts of it, next to the log: " + chart(".percentiles.png") + " (intended against service"
                + " by percentile) and " + chart(".over-time.png") + " (latency over time, the store's pauses marked);"
                + " redraw them with " + self + " plot " + hlog + ". Open " + chart(".html") + " in a browser to explore"
                + " it: drag across a time window and its percentiles are recomputed for that window alone.");
        out.println("Next: point it at your own store ('" + self + " drivers' lists them; '" + self + " run --help' has"
                + " every option), e.g. " + self + " run --driver mockdb -p mockdb.delay=4ms --threads 8 --target 1000 --duration 10s");
    }

    /**
     * How the closing hints name loadgen, so they run as printed: the launcher's own path as it was invoked
     * ({@code ./loadgen}, which {@code ./loadgen} puts in {@link #SELF_ENV}), else {@code loadgen} (a jar run with
     * {@code java -jar}, or an install on the PATH).
     */
    static String self(String fromLauncher) {
        return fromLauncher == null || fromLauncher.isBlank() ? "loadgen" : fromLauncher;
    }

    private String chart(String suffix) {
        String name = hlog.getFileName().toString();
        return (name.endsWith(".hlog") ? name.substring(0, name.length() - ".hlog".length()) : name) + suffix;
    }

    static String sentence(double serviceP99Ms, double intendedP99Ms) {
        if (intendedP99Ms < serviceP99Ms * 1.1) {
            return String.format(Locale.ROOT, "Service time p99 = %.1f ms and intended p99 = %.1f ms agree: the store kept"
                    + " up with the schedule on this run, so there was no stall for a synchronous tool to hide.",
                    serviceP99Ms, intendedP99Ms);
        }
        return String.format(Locale.ROOT, "A tool that times each call (service) reports p99 = %.1f ms, but measured from"
                + " when each request was due (intended) p99 = %.1f ms, %.1fx worse: requests that arrived during the"
                + " store's stalls waited for them, and a synchronous tool, stalled too, never sent them.",
                serviceP99Ms, intendedP99Ms, intendedP99Ms / serviceP99Ms);
    }
}
