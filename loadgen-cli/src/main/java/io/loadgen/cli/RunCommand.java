package io.loadgen.cli;

import io.loadgen.core.run.RunOptions;
import io.loadgen.core.workload.WorkloadOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;

/** {@code loadgen run}: one run of a driver at a target rate; parses options, hands over to {@link RunReporter}. */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run a driver at a target rate and report latency from each operation's intended start "
                + "(intended) next to its service time (service) and the after-the-fact correction (corrected).",
                "Status goes to stderr every interval; the summary goes to stdout."})
final class RunCommand implements Callable<Integer> {
    private final Streams io;

    @Mixin
    VerbosityMixin verbosity;

    @Mixin
    LoadOptions load;

    @Option(names = {"--target", "-target"}, paramLabel = "OPS", order = 20,
            description = "Total intended rate in operations/s, split evenly over the threads. "
                    + "Without it the run is unthrottled and no correction is possible.")
    Double target;

    @Option(names = "--duration", paramLabel = "TIME", converter = DurationConverter.class, order = 40,
            description = "How long to issue operations, e.g. 60s (default: 10s unless --operations is given).")
    Duration duration;

    @Option(names = "--operations", paramLabel = "N", order = 50,
            description = "Total operations over all threads; the run ends at this count or --duration, first.")
    Long operations;

    @Option(names = "--hlog", paramLabel = "FILE", order = 120,
            description = "Write a compressed HdrHistogram interval log (tags READ.intended, READ.service, harness.lag).")
    Path hlog;

    @Mixin
    ReportOptions report;

    RunCommand(Streams io) {
        this.io = io;
    }

    @Override
    public Integer call() throws Exception {
        RunOptions.Builder b = load.builder();
        WorkloadOptions w = load.workload();
        Double rate = target;
        Long count = operations;
        Duration length = duration;
        if (w != null) {
            // YCSB's client properties are defaults; the command line wins.
            if (rate == null && w.target().isPresent()) {
                rate = w.target().getAsDouble();
            }
            if (count == null && length == null) {
                count = w.operationCount() > 0 ? w.operationCount() : null;
                length = w.maxExecutionTime().orElse(null);
            }
        }
        RunOptions options = b.target(rate)
                .duration(length)
                .operations(count)
                .hlog(hlog)
                .seed(report.seedOrRandom())
                .build();
        return new RunReporter(io, report).run(options, load.plan(), null);
    }
}
