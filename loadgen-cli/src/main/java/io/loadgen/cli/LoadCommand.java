package io.loadgen.cli;

import io.loadgen.core.BadInputException;
import io.loadgen.core.run.RunOptions;
import io.loadgen.core.workload.CoreWorkloadPlan;
import io.loadgen.core.workload.WorkloadOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code loadgen load}: YCSB's load phase. Inserts the workload's {@code insertcount} records (from
 * {@code insertstart}; by default all {@code recordcount}) once each, at {@code --target} or unthrottled,
 * with the status line as progress; a {@code maxexecutiontime} in the workload ends it sooner, as in YCSB.
 * Main thread.
 */
@Command(name = "load", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Load a YCSB workload's records: INSERT recordcount records (or insertcount from insertstart) "
                + "once each, then run the workload with 'loadgen run -P ...'.",
                "Example: loadgen load -P workloads/workloada --driver redis -p redis.uri=redis://127.0.0.1:6390"},
        footer = {"", Main.EXIT_CODES})
final class LoadCommand implements Callable<Integer> {
    private final Streams io;

    @Mixin
    VerbosityMixin verbosity;

    @Mixin
    LoadOptions load;

    @Option(names = {"--target", "-target", "-R"}, paramLabel = "OPS", converter = RateConverter.class, order = 20,
            description = "Total intended insert rate in operations/s, e.g. 10k, over all shards with --shard "
                    + "(default: the workload's target, or unthrottled).")
    Double target;

    @Option(names = "--hlog", paramLabel = "FILE", order = 120,
            description = "Write a compressed HdrHistogram interval log of the inserts.")
    Path hlog;

    @Mixin
    StartOptions start;

    @Mixin
    ReportOptions report;

    @Mixin
    StatusOptions status;

    LoadCommand(Streams io) {
        this.io = io;
    }

    @Override
    public Integer call() throws Exception {
        load.checkYcsbPhase(true);
        load.requireDriver(java.util.Optional.empty());
        load.shard(io.env(), true);
        RunOptions.Builder b = status.applyTo(load.builder(), load.ycsbStatus, io.env());
        WorkloadOptions w = load.workload();
        if (w == null || w.insertCount() <= 0) {
            throw new BadInputException("load needs a workload with records to insert: give -P workloads/workloada"
                    + " (or -p recordcount=N)");
        }
        if (load.operation != null) {
            throw new BadInputException("load always issues INSERT; leave out --operation (use 'loadgen run' for others)");
        }
        RunOptions options = start.applyTo(RunLength.ofLoad(w).applyTo(b))
                .target(load.rate(target))
                .hlog(hlog)
                .seed(report.seedOrRandom())
                .build();
        load.announceShard(options);
        return new RunReporter(io, report).inputs("-P", load.propertyFiles)
                .run(options, CoreWorkloadPlan.load(CoreWorkloadPlan.Config.of(w)), null);
    }
}
