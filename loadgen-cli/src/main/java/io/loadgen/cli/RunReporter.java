package io.loadgen.cli;

import io.loadgen.core.BadInputException;
import io.loadgen.core.driver.DriverProvider;
import io.loadgen.core.driver.DriverRegistry;
import io.loadgen.core.gate.Gate;
import io.loadgen.core.gate.GateTable;
import io.loadgen.core.gate.JUnitXml;
import io.loadgen.core.gate.RunGate;
import io.loadgen.core.gate.Verdict;
import io.loadgen.core.output.OutputFailures;
import io.loadgen.core.output.OutputPaths;
import io.loadgen.core.run.LoadRun;
import io.loadgen.core.run.RunOptions;
import io.loadgen.core.diagnosis.Cause;
import io.loadgen.core.diagnosis.CauseCode;
import io.loadgen.core.diagnosis.Diagnosis;
import io.loadgen.core.diagnosis.Figures;
import io.loadgen.core.time.Durations;
import io.loadgen.core.summary.ComparisonTable;
import io.loadgen.core.summary.HgrmFiles;
import io.loadgen.core.summary.JsonSummary;
import io.loadgen.core.summary.RunResult;
import io.loadgen.core.summary.YcsbClientStats;
import io.loadgen.core.summary.YcsbTextSummary;
import io.loadgen.core.workload.OperationPlan;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Runs a {@link LoadRun} for a command and reports it: the YCSB summary and the side-by-side table
 * on stdout (on stderr with {@code --json -}, whose JSON then owns stdout), the JSON and .hgrm files.
 * Installs the shutdown hook that turns Ctrl-C or SIGTERM into an orderly stop, so an interrupted run still flushes its interval log and prints what it measured
 * (the JVM then exits with 130 or 143). Main thread.
 */
final class RunReporter {
    private static final long REPORT_GRACE_SECONDS = 30;
    /**
     * How long a stop before the run started (the driver still opening: connecting to a target that does not
     * answer, say) waits for the driver to give up by itself before the JVM exits: 2 s. Nothing was measured, so
     * nothing is lost; a driver's own open deadline (e.g. redis.connect.timeout) usually ends it first.
     */
    private static final long OPEN_GRACE_SECONDS = 2;

    private final Streams io;
    private final ReportOptions report;
    private final OutputPaths paths = new OutputPaths();
    private String countFrom;
    private io.loadgen.core.run.LiveMetrics live;
    private MetricsEndpoint endpoint;
    /**
     * Where the summary for people goes: stderr when an output owns stdout ({@code --json -},
     * {@code --hlog /dev/stdout}), which would otherwise hold the summary and the log in one stream.
     */
    private PrintStream humanOut;

    RunReporter(Streams io, ReportOptions report) {
        this.io = io;
        this.report = report;
    }

    /** Files the command reads, so that no output of the run overwrites them. */
    RunReporter inputs(String option, List<Path> files) {
        paths.inputs(option, files);
        return this;
    }

    /** A directory another output of the command writes (e.g. {@code --plot DIR}), and the file names it owns. */
    RunReporter directory(String option, Path dir, java.util.function.Predicate<String> owns) {
        paths.directory(option, dir, owns);
        return this;
    }

    /**
     * Where the run's operation count came from when a workload file set it (e.g. {@code operationcount=1000 from
     * workloads/workloadc}), so a run it stopped says so; null when the command line gave it or none was set.
     * Returns this reporter.
     */
    RunReporter countFrom(String origin) {
        this.countFrom = origin;
        return this;
    }

    /**
     * Publishes the run's intervals to {@code live} ({@code --metrics}) and serves {@code PUT /rate} for it on
     * {@code endpoint}; nothing when they are null. Returns this reporter.
     */
    RunReporter publishTo(io.loadgen.core.run.LiveMetrics live, MetricsEndpoint endpoint) {
        this.live = live;
        this.endpoint = endpoint;
        return this;
    }

    /**
     * @param plan     what to issue (a workload's mix), or null for the options' single operation
     * @param epilogue called with the result after the standard report, or null
     */
    int run(RunOptions options, OperationPlan plan, Consumer<RunResult> epilogue) throws Exception {
        return run(options, plan, epilogue, null);
    }

    /**
     * @param gates the run's gates, or null: checked before the run starts, judged after its report
     * @return 0, {@link Main#EXIT_GATE_FAILED} when a gate failed, or {@link Main#EXIT_FAILED} when an output
     *         could not be written (which wins: the verdict may not have reached CI)
     */
    int run(RunOptions options, OperationPlan plan, Consumer<RunResult> epilogue, GateOptions gates) throws Exception {
        DriverProvider provider = DriverRegistry.find(options.driver());
        Path json = report.json;
        Path hgrmDir = report.hgrm;
        paths.output("--hlog", options.hlog()).output("--trace", options.trace()).output("--json", json)
                .directory("--hgrm", hgrmDir, HgrmFiles::isHgrmFileName)
                .output("--gate-junit", gates == null ? null : gates.junit)
                .inputs("--gate-file", gates == null ? List.of() : gates.gateFiles)
                .check();
        if (!report.jsonToStdout()) {
            checkWritableFile(json, "--json");
        }
        checkWritableFile(options.trace(), "--trace");
        boolean logOnStdout = OutputPaths.isStdout(options.hlog()) && !options.hlog().toString().equals("-");
        humanOut = logOnStdout ? io.err() : report.humanOut(io);
        checkWritableDir(hgrmDir, "--hgrm");
        LoadRun run = new LoadRun(options, provider, plan, report.quiet ? null : io.err()).warnTo(io.err())
                .publishTo(live);
        RateHandler.serveOn(endpoint, run.rateControl(), report.quiet ? null : io.err());
        RunGate gate = gates == null ? null : gates.prepare(run.operations(), options.throttled(), reason -> {
            io.err().println("loadgen: " + reason + "; stopping the run early (the log, summary and JSON are still"
                    + " written)");
            run.stop(reason);
        });
        if (gate != null && gate.hasWindows()) {
            run.onInterval(gate);
        }
        CountDownLatch reported = new CountDownLatch(1);
        Thread hook = new Thread(() -> stopAndAwait(run, reported), "loadgen-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try (QuietLogging quiet = QuietLogging.forRun()) {
            RunResult result = run.run();
            OutputFailures failures = new OutputFailures();
            if (run.intervalLogFailure() != null) {
                failures.add("--hlog", options.hlog(), run.intervalLogFailure());
            }
            if (run.traceFailure() != null) {
                failures.add("--trace", options.trace(), run.traceFailure());
            }
            report(result, options, YcsbClientStats.since(run.gcAtStart(), run.driverCloseNs()), json, hgrmDir, failures);
            if (run.traceSummary() != null && run.traceFailure() == null) {
                traceLines(run.traceSummary()).forEach(io.err()::println);
            }
            if (epilogue != null) {
                epilogue.accept(result);
            }
            int code = gate == null ? 0 : judge(gate, result, gates.junit, failures);
            if (result.diagnosis() != null && result.diagnosis().has(CauseCode.TARGET_FAILING)) {
                code = Main.EXIT_FAILED; // the numbers are of a run whose target failed: no gate verdict stands on them
            }
            return failures.isEmpty() ? code : failed(failures);
        } finally {
            reported.countDown();
            removeHook(hook);
        }
    }

    /**
     * What {@code --trace} wrote, for stderr: its rows and size, and the rows it dropped, if any, and why:
     * {@code loadgen: wrote trace.csv.gz: 1000 operations, 21400 bytes (21.4 per operation)}.
     */
    static List<String> traceLines(io.loadgen.core.trace.TraceSummary trace) {
        List<String> lines = new java.util.ArrayList<>();
        lines.add(String.format(java.util.Locale.ROOT, "loadgen: wrote %s: %s, %d bytes (%.1f per operation)",
                trace.path(), Figures.plural(trace.rows(), "operation"), trace.bytes(), trace.bytesPerRow()));
        if (trace.droppedRows() > 0) {
            lines.add("loadgen: --trace: " + Figures.plural(trace.droppedRows(), "operation") + " not traced: the"
                    + " trace writer fell behind and their workers' rings were full (workers never wait for it, so"
                    + " these operations are in every view and count, only not in the trace)");
        }
        return lines;
    }

    private int judge(RunGate gate, RunResult result, Path junit, OutputFailures failures) {
        List<Verdict> verdicts = gate.verdicts(result);
        PrintStream out = humanOut;
        out.println();
        GateTable.write(verdicts, out);
        if (junit != null && failures.attempt("--gate-junit", junit,
                () -> JUnitXml.write(verdicts, "run of " + result.driver(), junit))) {
            io.err().println("loadgen: wrote " + junit);
        }
        return Gate.allPassed(verdicts) ? 0 : Main.EXIT_GATE_FAILED;
    }

    /** Every failed write, one line each; the exit code of a run whose outputs are not all there. */
    private int failed(OutputFailures failures) {
        failures.lines().forEach(line -> io.err().println("loadgen: " + line));
        return Main.EXIT_FAILED;
    }

    private void stopAndAwait(LoadRun run, CountDownLatch reported) {
        boolean waiting = run.waitingForStart() && !run.started();
        boolean started = run.started() || waiting; // waiting for --start-at: the report (of nothing) is written
        io.err().println(waiting ? "loadgen: interrupted before --start-at; nothing was measured"
                : started ? "loadgen: interrupted; stopping, flushing the interval log and printing what ran"
                : "loadgen: interrupted while the driver was opening (connecting, warming up); nothing was measured");
        run.stop("interrupted");
        try {
            reported.await(started ? REPORT_GRACE_SECONDS : OPEN_GRACE_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // A signal is shutting the JVM down; its exit code (130 / 143) stands.
        }
    }

    private void report(RunResult result, RunOptions options, YcsbClientStats client, Path json, Path hgrmDir,
                        OutputFailures failures) {
        PrintStream out = humanOut;
        if (result.diagnosis() != null) {
            out.println(result.diagnosis().headline());
            stopLines(result, options).forEach(out::println);
            out.println();
        }
        YcsbTextSummary.write(result, client, out);
        out.println();
        ComparisonTable.write(result, out);
        out.println(result.corrected().describe());
        if (result.diagnosis() != null) {
            diagnosisLines(result.diagnosis()).forEach(out::println);
        }
        if (result.health().measured()) {
            out.println("Harness: " + result.health().verdict().text() + ".");
        }
        if (result.unissuedOps() > 0) {
            out.println();
            boolean one = result.unissuedOps() == 1;
            out.println("The run ended " + Figures.plural(result.unissuedOps(), "operation") + " behind schedule: "
                    + (one ? "it was" : "they were") + " due before it ended but never issued, so no view includes "
                    + (one ? "it (it had already waited)." : "them (each had already waited)."));
        }
        out.println();
        out.println(concurrency(result));
        Number heldBack = result.harness().get("held_back_by_max_in_flight");
        // A few waits are the schedule's own jitter (an operation due while the one before it on its slot was still
        // being answered); a note on them only asks the user to act on nothing. One in a hundred is worth a look.
        if (heldBack != null && result.throttled() && heldBack.longValue() * 100 >= Math.max(1, result.totalOperations())) {
            out.println();
            out.println(Figures.plural(heldBack.longValue(), "operation") + " waited for a free in-flight slot (--max-in-flight, or the driver's own"
                    + " limit); the wait is in intended, not dropped. A slow target fills the slots; if the target is"
                    + " fast, raise --max-in-flight.");
        }
        Number lost = result.harness().get("in_flight_at_end");
        if (lost != null && lost.longValue() > 0) {
            out.println(Figures.plural(lost.longValue(), "operation") + (lost.longValue() == 1 ? " was" : " were")
                    + " still in flight when the run stopped waiting for them (10 s after its end,"
                    + " 1 s after an early stop) and are in no view.");
        }
        out.flush();
        if (report.jsonToStdout()) {
            failures.attempt("--json", json, () -> {
                JsonSummary.write(result, io.out());
                io.out().println();
                io.out().flush();
            });
        } else if (json != null && failures.attempt("--json", json, () -> JsonSummary.write(result, json))) {
            io.err().println("loadgen: wrote " + json);
        }
        int[] hgrmFiles = new int[1];
        if (hgrmDir != null && failures.attempt("--hgrm", hgrmDir,
                () -> hgrmFiles[0] = HgrmFiles.write(result, hgrmDir).size())) {
            io.err().println("loadgen: wrote " + hgrmFiles[0] + " .hgrm files to " + hgrmDir);
        }
    }

    /**
     * The diagnosis's causes, one line each, most important first: {@code Diagnosis: target_stalled: ...}, the
     * further ones indented beneath. A run with nothing to blame has one line, {@code Diagnosis: ok: ...}.
     */
    static List<String> diagnosisLines(Diagnosis d) {
        List<String> lines = new java.util.ArrayList<>();
        String first = "Diagnosis: ";
        for (Cause c : d.causes()) {
            lines.add((lines.isEmpty() ? first : " ".repeat(first.length())) + c.code().key() + ": " + c.text() + ".");
        }
        return lines;
    }

    /**
     * What ended the run when it is not what a user asked for: an operation count from a workload file that came
     * before the {@code --duration} asked, or a run that completed nothing, and why. Empty otherwise.
     */
    List<String> stopLines(RunResult result, RunOptions options) {
        List<String> lines = new java.util.ArrayList<>();
        long runNs = result.runTimeNs();
        long durationNs = options.duration().toNanos();
        if ("operations".equals(result.stopReason()) && countFrom != null && durationNs > 0 && runNs < durationNs) {
            String key = countFrom.substring(0, countFrom.indexOf('='));
            lines.add("Stopped at " + countFrom + " after " + Figures.duration(runNs) + "; --duration "
                    + Durations.format(options.duration()) + " not reached; -p " + key
                    + "=0 lifts it.");
        }
        if (result.totalOperations() == 0) {
            lines.add(nothingIssued(result, options));
        }
        return lines;
    }

    /** Why a run completed nothing: a rate too low for its length, a stop before the first operation, or the target. */
    private static String nothingIssued(RunResult result, RunOptions options) {
        if (result.throttled() && options.rateProfile() == null && !options.duration().isZero()) {
            double gapNs = options.workerIntervalNs();
            if (gapNs >= options.duration().toNanos()) {
                return "Nothing was issued: at --target " + Figures.rate(options.targetOpsPerSec()) + " ops/s over "
                        + options.threads() + (options.threads() == 1 ? " thread" : " threads") + " each thread's"
                        + " operations are " + Figures.duration((long) gapNs) + " apart, longer than --duration "
                        + Durations.format(options.duration()) + ", so none fell due before the"
                        + " end; give a higher --target, a longer --duration or fewer --threads.";
            }
        }
        if (!"duration".equals(result.stopReason()) && !"operations".equals(result.stopReason())) {
            return "Nothing completed before the run was stopped (" + result.stopReason() + ").";
        }
        return "Nothing completed: the operations issued were still in flight when the run ended (see the status"
                + " line and the driver's warnings above).";
    }

    /** One line on how many operations could be in flight at once, and over how many connections. */
    static String concurrency(RunResult result) {
        Number perThread = result.harness().get("max_in_flight_per_thread");
        Number total = result.harness().get("max_concurrency");
        Number connections = result.driverStats().get("connections");
        return "Concurrency: " + Figures.plural(result.threads(), "thread")
                + " x " + perThread + " in flight = at most " + (total == null ? "? operations" : Figures.plural(total.longValue(), "operation"))
                + " in flight"
                + (connections != null ? ", on " + Figures.plural(connections.longValue(), "connection") : "")
                + (pipelined(perThread, total, connections) ? " (pipelined)" : "") + ".";
    }

    /** More in flight than connections (or, for a driver that does not say, more than one per thread). */
    private static boolean pipelined(Number perThread, Number total, Number connections) {
        if (connections != null && total != null) {
            return total.longValue() > connections.longValue();
        }
        return perThread != null && perThread.longValue() > 1;
    }

    /**
     * The outputs of a command of steps ({@code sweep}, {@code findmax}), checked before its first step: no two
     * on one path and none over an input ({@link io.loadgen.core.output.OutputPaths}), each writable;
     * {@code --json -} is stdout.
     *
     * @param ownsLog which file names in {@code --hlog-dir} the command writes (so may replace)
     */
    static void checkStepOutputs(Path csv, Path json, Path hlogDir, java.util.function.Predicate<String> ownsLog,
                                 Path plot, java.util.List<Path> inputs) {
        new io.loadgen.core.output.OutputPaths().output("--csv", csv).output("--json", json)
                .directory("--hlog-dir", hlogDir, ownsLog)
                .directory("--plot", plot, RunCharts::isChartName).inputs("-P", inputs).check();
        checkWritableDir(plot, "--plot");
        checkWritableFile(csv, "--csv");
        if (!ReportOptions.isStdout(json)) {
            checkWritableFile(json, "--json");
        }
        checkWritableDir(hlogDir, "--hlog-dir");
    }

    static void checkWritableFile(Path file, String option) {
        if (file == null) {
            return;
        }
        Path parent = file.toAbsolutePath().getParent();
        if (Files.isDirectory(file)) {
            throw new BadInputException(option + " " + file + " is a directory; give a file name");
        }
        if (parent == null || !Files.isDirectory(parent)) {
            throw new BadInputException(option + " " + file + ": the directory " + parent
                    + " does not exist; create it or choose another path");
        }
        if (!Files.isWritable(parent) || (Files.exists(file) && !Files.isWritable(file))) {
            throw new BadInputException(option + " " + file + " is not writable; choose a path you can write");
        }
    }

    static void checkWritableDir(Path dir, String option) {
        if (dir == null) {
            return;
        }
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new BadInputException(option + " " + dir + " is a file, not a directory; give a directory (one that"
                    + " does not exist is created)");
        }
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            String why = e instanceof java.nio.file.AccessDeniedException ? "permission denied"
                    : e instanceof java.nio.file.FileAlreadyExistsException f ? f.getFile() + " is a file"
                    : e.getMessage();
            throw new BadInputException(option + " " + dir + ": cannot create the directory (" + why + ");"
                    + " choose a writable path", e);
        }
        if (!Files.isWritable(dir)) {
            throw new BadInputException(option + " " + dir + " is not writable; choose a directory you can write");
        }
    }
}
