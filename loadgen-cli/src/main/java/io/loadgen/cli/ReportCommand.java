package io.loadgen.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadgen.core.BadInputException;
import io.loadgen.core.log.LogReport;
import io.loadgen.core.log.LogReport.TagTotal;
import io.loadgen.core.log.LogReportOptions;
import io.loadgen.core.log.LogReportOptions.TagSelection;
import io.loadgen.core.log.LogSet;
import io.loadgen.core.log.ShardSet;
import io.loadgen.core.output.AtomicFile;
import io.loadgen.core.output.OutputFailures;
import io.loadgen.core.output.OutputPaths;
import io.loadgen.core.log.LogSummary;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * {@code loadgen report}: HdrHistogram's {@code HistogramLogProcessor} as a drop-in (its single-dash
 * options, its output files byte for byte), plus GNU-style options, several logs merged on absolute
 * time, every tag in one pass, JSON in the run's schema and the merged log. Runs on the main thread.
 */
@Command(name = "report", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Summarise interval logs exactly as HdrHistogram's HistogramLogProcessor does "
                + "(same options, same output files), or merge them and write JSON.",
                "Single-dash HistogramLogProcessor options (-i -o -tag -start -end -csv -listtags ...) and "
                        + "GNU-style long options both work. Logs may be gzip-compressed; several logs are "
                        + "merged on absolute time."},
        footer = {"", "Examples:",
                "  loadgen report -i run.hlog -o run -tag READ.intended      (run and run.hgrm, as HistogramLogProcessor)",
                "  loadgen report run.hlog                                   (every tag's distribution, ms)",
                "  loadgen report a.hlog b.hlog.gz --merge-to all.hlog --json all.json",
                "  loadgen report 'logs/shard-*.hlog' --json merged.json   (a sharded run's logs, each shard once)"})
final class ReportCommand implements Callable<Integer> {
    /**
     * The most percentile rows per halving: the distribution has about ticks x 2 x log2(count) rows, so
     * 10^8 ran for minutes; 1000 is 200 times HistogramLogProcessor's default and still a readable file.
     */
    static final int MAX_TICKS_PER_HALF = 1000;
    /** The longest moving window, a year in ms: longer cannot be meant. */
    static final long MAX_MOVING_WINDOW_MS = 366L * 24 * 3600 * 1000;

    private final Streams io;

    @Mixin
    VerbosityMixin verbosity;

    @Mixin
    QuietMixin quiet;

    @Parameters(paramLabel = "LOG", arity = "0..*", description = "Interval logs to read (same as -i); a quoted"
            + " glob such as 'logs/shard-*.hlog' is expanded by loadgen.")
    List<Path> positional = new ArrayList<>();

    @Option(names = {"-i", "--input"}, paramLabel = "LOG",
            description = "An interval log to read (repeatable; '-' is standard input; default: standard input).")
    List<Path> inputs = new ArrayList<>();

    @Option(names = {"-o", "--output"}, paramLabel = "BASE",
            description = "Write the interval table to BASE and the percentile distribution to BASE.hgrm "
                    + "(default: the distribution to standard output). With several tags, BASE.TAG and BASE.TAG.hgrm.")
    String output;

    @Option(names = {"-tag", "--tag"}, paramLabel = "TAG",
            description = "Report only lines with this tag, e.g. READ.intended (default: untagged lines, or every "
                    + "tag when the log has no untagged lines, as loadgen's logs).")
    String tag;

    @Option(names = {"-alltags", "--all-tags"}, description = "Report every tag, each on its own, in one pass.")
    boolean allTags;

    @Option(names = {"-listtags", "--list-tags"}, description = "List the tags found and do nothing else.")
    boolean listTags;

    @Option(names = {"-start", "--start"}, paramLabel = "SEC", converter = SecondsConverter.class,
            description = "Only intervals starting at or after SEC seconds (or a duration, e.g. 2m) after the log's StartTime (default 0).")
    double start = 0.0;

    @Option(names = {"-end", "--end"}, paramLabel = "SEC", converter = SecondsConverter.class,
            description = "Only intervals starting at or before SEC seconds after the log's StartTime (default: the end).")
    double end = Double.MAX_VALUE;

    @Option(names = "--absolute",
            description = "Read --start and --end as absolute times, seconds since the epoch.")
    boolean absolute;

    @Option(names = {"-csv", "--csv"}, description = "Write the output files as CSV.")
    boolean csv;

    @Option(names = {"-outputValueUnitRatio", "--output-value-unit-ratio"}, paramLabel = "R",
            description = "Divide recorded values by R on output (default 1000000.0: nanoseconds to milliseconds; "
                    + "1000 for microseconds).")
    double outputValueUnitRatio = 1_000_000.0;

    @Option(names = {"-percentilesOutputTicksPerHalf", "--percentiles-output-ticks-per-half"}, paramLabel = "N",
            description = "Percentile rows per halving of the remaining distance to 100%% (default 5).")
    int ticksPerHalf = 5;

    @Option(names = {"-correctLogWithKnownCoordinatedOmission", "--correct-log-with-known-coordinated-omission"},
            paramLabel = "I", description = "Correct each interval for coordinated omission with expected interval I "
            + "(in the log's units, ns for loadgen logs). Only for logs recorded by a tool that omits; "
            + "loadgen's intended view needs no correction.")
    double expectedInterval = 0.0;

    @Option(names = {"-mwp", "--moving-window-percentile"}, paramLabel = "P",
            description = "Also write BASE.mwp: percentile P over a moving window (default 99.0).")
    Double movingWindowPercentile;

    @Option(names = {"-mwpl", "--moving-window-length"}, paramLabel = "MS",
            description = "The moving window's length in milliseconds (default 60000).")
    Long movingWindowLengthMs;

    @Option(names = "--json", paramLabel = "FILE",
            description = "Also write the totals as JSON ('-': standard output, instead of the distribution), in the "
                    + "schema of 'run --json'.")
    String json;

    @Option(names = "--json-by", paramLabel = "operation|tag",
            description = "JSON grouped back into operations and views like 'run --json' (operation, the default), "
                    + "or one entry per tag (tag).")
    String jsonBy = "operation";

    @Option(names = "--merge-to", paramLabel = "FILE",
            description = "Write the logs merged on absolute time (every tag, within --start/--end) as one interval "
                    + "log that HistogramLogProcessor reads.")
    Path mergeTo;

    @Option(names = "--allow-partial",
            description = "Merge the logs of a sharded run even when a shard is missing or given twice, saying"
                    + " which (default: refuse with exit code 3, as the merge would not be the whole run).")
    boolean allowPartial;

    @Option(names = "--allow-mixed",
            description = "Merge logs of different runs (their #[run_id] lines differ); default: refuse, exit code 3.")
    boolean allowMixed;

    @Option(names = "--include-warmup",
            description = "Count the run's warm-up (--warmup), which the run's own JSON leaves out. Without it the"
                    + " warm-up is left out, unless HistogramLogProcessor's single-dash options are used (-i, -o,"
                    + " -tag, -start ...): then every line counts, as HistogramLogProcessor counts it.")
    boolean includeWarmup;

    /**
     * HistogramLogProcessor's own spellings: a command line that uses one is that tool's, and gets its numbers
     * (the warm-up counted); the GNU spellings are loadgen's, and get the run's.
     */
    static final Set<String> HLP_SPELLINGS = Set.of("-i", "-o", "-tag", "-alltags", "-listtags",
            "-start", "-end", "-csv", "-outputValueUnitRatio", "-percentilesOutputTicksPerHalf",
            "-correctLogWithKnownCoordinatedOmission", "-mwp", "-mwpl");

    @Spec
    CommandSpec spec;

    ReportCommand(Streams io) {
        this.io = io;
    }

    @Override
    public Integer call() throws IOException {
        LogReportOptions o = options();
        List<Path> logs = new ArrayList<>(InputGlobs.expand(inputs));
        logs.addAll(InputGlobs.expand(positional));
        if (logs.isEmpty()) {
            logs.add(Path.of("-"));
        }
        boolean jsonToStdout = "-".equals(json);
        new OutputPaths().inputs("-i", logs)
                .output("-o", output == null ? null : Path.of(output))
                .output("-o (.hgrm)", output == null ? null : Path.of(output + ".hgrm"))
                .output("-o (.mwp)", output == null || !o.movingWindow ? null : Path.of(output + ".mwp"))
                .output("--json", json == null ? null : Path.of(json))
                .output("--merge-to", mergeTo)
                .check();
        if (!jsonToStdout && json != null) { // a missing directory is named before the logs are read
            RunReporter.checkWritableFile(Path.of(json), "--json");
        }
        RunReporter.checkWritableFile(mergeTo, "--merge-to");
        PrintStream stdout = jsonToStdout ? new PrintStream(OutputStream.nullOutputStream()) : io.out();
        OutputFailures failures = new OutputFailures();
        try (LogSet set = LogSet.open(logs, w -> io.err().println("warning: " + w), allowMixed);
             AtomicFile mergeFile = mergeTo == null ? null : mergeFile(mergeTo);
             PrintStream merged = mergeFile == null ? null : new PrintStream(mergeFile, false)) {
            if (!shardsWhole(set.shards())) {
                return Main.EXIT_DAMAGED_INPUT;
            }
            if (!set.repeated().isEmpty()) {
                io.err().println("loadgen: not merged: " + set.repeated());
                return Main.EXIT_DAMAGED_INPUT;
            }
            List<TagTotal> totals = new LogReport(o, stdout, merged).run(set);
            if (merged != null) {
                merged.flush();
                failures.attempt("--merge-to", mergeTo, mergeFile::commit); // whole, or left as it was
            }
            if (!o.listTags && set.integrity().cut()) {
                io.err().println("loadgen: partial: " + set.integrity().describePartial() + ", cut without its closing"
                        + " #[run end] line (a killed run, a full disk): counts and throughput are of that part only");
            }
            if (json != null && !o.listTags) {
                failures.attempt("--json", Path.of(json), () -> writeJson(totals, set));
            }
        }
        failures.lines().forEach(line -> io.err().println("loadgen: " + line));
        return failures.isEmpty() ? 0 : Main.EXIT_FAILED;
    }

    /**
     * Says which shards a sharded run's logs hold, on stderr (stdout keeps HistogramLogProcessor's
     * output); false, having said why, when a shard is missing or given twice and --allow-partial is not given.
     */
    private boolean shardsWhole(ShardSet shards) {
        if (!shards.sharded()) {
            return true;
        }
        String problem = shards.problem();
        if (!problem.isEmpty() && !allowPartial) {
            io.err().println("loadgen: not merged: " + problem + "; give every shard's log once, or --allow-partial"
                    + " to merge what is there");
            return false;
        }
        quiet.status(io).println("loadgen: merged " + shards.describe() + (problem.isEmpty() ? "" : "; partial: " + problem));
        return true;
    }

    private LogReportOptions options() {
        LogReportOptions o = new LogReportOptions();
        if (tag != null && allTags) {
            throw new BadInputException("--tag and --all-tags conflict; give one");
        }
        o.selection = tag != null ? TagSelection.ONE : allTags ? TagSelection.ALL : TagSelection.DEFAULT;
        o.tag = tag;
        o.listTags = listTags;
        o.csv = csv;
        o.rangeStartSec = start;
        o.rangeEndSec = end;
        o.absoluteRange = absolute;
        if (!(start >= 0) || !(end >= 0)) {
            throw new BadInputException((start >= 0 ? "--end " + end : "--start " + start) + " is not a time in the log:"
                    + " give seconds from 0 up after the log's StartTime (or, with --absolute, since the epoch)");
        }
        if (end < start) {
            throw new BadInputException("--end " + end + " is before --start " + start + "; give an end after the start");
        }
        o.outputBase = output;
        if (ticksPerHalf < 1 || ticksPerHalf > MAX_TICKS_PER_HALF) {
            throw new BadInputException("-percentilesOutputTicksPerHalf must be from 1 to " + MAX_TICKS_PER_HALF
                    + " (HistogramLogProcessor's default is 5; more rows than that per halving cannot be read), got "
                    + ticksPerHalf);
        }
        o.percentilesOutputTicksPerHalf = ticksPerHalf;
        if (!(outputValueUnitRatio > 0) || Double.isInfinite(outputValueUnitRatio)) {
            throw new BadInputException("--output-value-unit-ratio must be positive, e.g. 1000000 for ms, got "
                    + outputValueUnitRatio);
        }
        o.outputValueUnitRatio = outputValueUnitRatio;
        if (!(expectedInterval >= 0) || Double.isInfinite(expectedInterval)) {
            throw new BadInputException("-correctLogWithKnownCoordinatedOmission must be a positive expected interval"
                    + " in the log's units (ns for loadgen logs, e.g. 1000000 for 1 ms), or 0 for none; got "
                    + expectedInterval);
        }
        o.expectedIntervalForCoordinatedOmissionCorrection = expectedInterval;
        o.excludeWarmup = !includeWarmup && !hlpCommandLine();
        if (movingWindowPercentile != null || movingWindowLengthMs != null) {
            o.movingWindow = true;
            if (output == null) {
                throw new BadInputException("the moving window (-mwp/-mwpl) is written to BASE.mwp; give -o BASE");
            }
        }
        if (movingWindowPercentile != null) {
            if (!(movingWindowPercentile >= 0 && movingWindowPercentile <= 100)) {
                throw new BadInputException("-mwp must be a percentile from 0 to 100, got " + movingWindowPercentile);
            }
            o.movingWindowPercentileToReport = movingWindowPercentile;
        }
        if (movingWindowLengthMs != null) {
            if (movingWindowLengthMs <= 0 || movingWindowLengthMs > MAX_MOVING_WINDOW_MS) {
                throw new BadInputException("-mwpl must be a positive length in milliseconds, at most "
                        + MAX_MOVING_WINDOW_MS + " (a year), got " + movingWindowLengthMs);
            }
            o.movingWindowLengthInMsec = movingWindowLengthMs;
        }
        if (!jsonBy.equals("operation") && !jsonBy.equals("tag")) {
            throw new BadInputException("--json-by must be 'operation' or 'tag', got '" + jsonBy + "'");
        }
        return o;
    }

    /** Whether the command line uses one of HistogramLogProcessor's single-dash spellings ({@link #HLP_SPELLINGS}). */
    private boolean hlpCommandLine() {
        if (spec == null || spec.commandLine() == null || spec.commandLine().getParseResult() == null) {
            return false;
        }
        for (String arg : spec.commandLine().getParseResult().originalArgs()) {
            int eq = arg.indexOf('=');
            if (HLP_SPELLINGS.contains(eq > 0 ? arg.substring(0, eq) : arg)) {
                return true;
            }
        }
        return false;
    }

    private static AtomicFile mergeFile(Path file) {
        try {
            return AtomicFile.open(file);
        } catch (IOException e) {
            throw new BadInputException("cannot write --merge-to " + file + " (" + e.getMessage() + ")");
        }
    }

    private void writeJson(List<TagTotal> totals, LogSet set) throws IOException {
        ObjectNode node = jsonBy.equals("tag") ? LogSummary.byTag(totals, set.names())
                : LogSummary.byOperation(totals, set.comments(), set.names(),
                set.events().stream().anyMatch(e -> e.isRateChange()));
        if (set.shards().sharded()) {
            node.set("shards", set.shards().toJson());
        }
        node.set("integrity", set.integrity().toJson()); // a gate on this JSON judges it as on the logs
        var writer = new ObjectMapper().writerWithDefaultPrettyPrinter().without(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        if ("-".equals(json)) {
            writer.writeValue(io.out(), node);
            io.out().println();
            io.out().flush();
        } else {
            AtomicFile.write(Path.of(json), out -> writer.writeValue(out, node));
        }
    }
}
