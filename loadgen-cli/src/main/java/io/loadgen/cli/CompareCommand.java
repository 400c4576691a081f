package io.loadgen.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.loadgen.core.BadInputException;
import io.loadgen.core.gate.CompareOptions;
import io.loadgen.core.compare.CompareReport;
import io.loadgen.core.compare.RunComparison;
import io.loadgen.core.gate.InputPolicy;
import io.loadgen.core.gate.RunIntervals;
import io.loadgen.core.output.AtomicFile;
import io.loadgen.core.output.OutputFailures;
import io.loadgen.core.output.OutputPaths;
import io.loadgen.core.stats.Bootstrap;
import io.loadgen.plot.html.ComparePage;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code loadgen compare BASELINE CANDIDATE}: whether the candidate run is slower than the baseline or the
 * difference is noise ({@link RunComparison}), as a table, JSON and an HTML page. Exits 0 whatever the verdicts
 * (it does not gate: {@code gate --baseline} does), 2 for bad input, 3 for damaged input. Main thread.
 */
@Command(name = "compare", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Compare two runs: is the candidate slower than the baseline, or is the difference noise?"
                + " For each operation, view (intended, service) and statistic (p50, p90, p99, p99.9, max), and its"
                + " throughput and error rate: the change (candidate/baseline - 1), a 95%% confidence interval from"
                + " each run's own interval-to-interval variation, and a verdict: same, slower by N%% (95%% CI),"
                + " faster by N%%, or too few samples to say.",
                "Verdict: slower when the interval lies entirely on the worse side of 0 (latency and error rate"
                        + " above, throughput below) and the change is at least --min-change; faster the mirror;"
                        + " same otherwise. The max is one operation, so its change is shown but not judged; a JSON"
                        + " summary has no intervals, so its changes are shown but not judged (compare interval"
                        + " logs). Method: a circular moving-block bootstrap over each run's intervals (blocks of"
                        + " n^(1/3)), replicates paired draw by draw; it assumes each run is steady after its"
                        + " warm-up. Exit code 0 whatever the verdicts (gate --baseline fails CI on them)."},
        footer = {"", "Examples:",
                "  loadgen compare old.hlog new.hlog",
                "  loadgen compare old.hlog new.hlog --json - --min-change 3%%",
                "  loadgen compare old.hlog new.hlog --html compare.html",
                "  loadgen compare 'old/shard-*.hlog' 'new/shard-*.hlog'   (a sharded run's logs, each run quoted)",
                "", Main.EXIT_CODES})
final class CompareCommand implements Callable<Integer> {
    private final Streams io;

    @Mixin
    VerbosityMixin verbosity;

    @Mixin
    QuietMixin quiet;

    @Parameters(paramLabel = "RUN", arity = "0..*",
            description = "BASELINE then CANDIDATE: each an interval log (run --hlog; plain or gzip), a quoted glob of"
                    + " one sharded run's logs, or a JSON summary (run --json; no intervals, so no verdicts).")
    List<Path> runs = new ArrayList<>();

    @Option(names = "--min-change", paramLabel = "SHARE", order = 10, converter = ShareConverter.class,
            description = "The least change called slower or faster, however significant (default: 5%%, more than"
                    + " two runs of one build differ on a loaded machine).")
    Double minChange;

    @Option(names = "--seed", paramLabel = "N", order = 20,
            description = "The bootstrap's seed (default: 1, so the same inputs give the same output).")
    long seed = CompareOptions.DEFAULT_SEED;

    @Option(names = "--resamples", paramLabel = "N", order = 30,
            description = "Bootstrap resamples per run (default: 1000).")
    int resamples = Bootstrap.DEFAULT_RESAMPLES;

    @Option(names = "--json", paramLabel = "FILE", order = 40,
            description = "Also write the rows (op, view, stat, baseline, candidate, change, ci_low, ci_high,"
                    + " verdict, reason) and the method as JSON; - for stdout (the table then goes to stderr).")
    String json;

    @Option(names = "--html", paramLabel = "FILE", order = 50,
            description = "Also write a side-by-side page: each run's percentile distribution on the same axes,"
                    + " and the table with the verdicts coloured.")
    Path html;

    @Option(names = "--include-warmup", order = 60,
            description = "Count the runs' warm-up (--warmup), which their JSON and, by default, compare leave out.")
    boolean includeWarmup;

    CompareCommand(Streams io) {
        this.io = io;
    }

    @Override
    public Integer call() throws IOException {
        if (runs.size() != 2) {
            throw new BadInputException("compare takes two runs, BASELINE then CANDIDATE (got " + runs.size()
                    + (runs.isEmpty() ? "" : ": " + String.join(" ", runs.stream().map(Path::toString).toList()))
                    + "); e.g. loadgen compare old.hlog new.hlog; quote a glob of one sharded run's logs");
        }
        CompareOptions options = new CompareOptions(resamples, CompareOptions.DEFAULT_LEVEL, seed,
                minChange == null ? CompareOptions.DEFAULT_MIN_CHANGE : minChange);
        List<Path> base = InputGlobs.expand(List.of(runs.get(0)));
        List<Path> cand = InputGlobs.expand(List.of(runs.get(1)));
        boolean jsonToStdout = "-".equals(json);
        new OutputPaths().inputs("BASELINE", base).inputs("CANDIDATE", cand)
                .output("--json", json == null || jsonToStdout ? null : Path.of(json)).output("--html", html).check();
        if (json != null && !jsonToStdout) {
            RunReporter.checkWritableFile(Path.of(json), "--json");
        }
        RunReporter.checkWritableFile(html, "--html");
        InputPolicy policy = new InputPolicy(false, false, includeWarmup);
        RunIntervals b = RunIntervals.read(base, w -> io.err().println("warning: " + w), policy);
        RunIntervals c = RunIntervals.read(cand, w -> io.err().println("warning: " + w), policy);
        RunComparison.Result result = RunComparison.compare(b, c, options);
        CompareReport.writeText(result, jsonToStdout ? io.err() : io.out());
        OutputFailures failures = new OutputFailures();
        if (json != null) {
            var writer = new ObjectMapper().writerWithDefaultPrettyPrinter()
                    .without(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            if (jsonToStdout) {
                writer.writeValue(io.out(), CompareReport.toJson(result));
                io.out().println();
                io.out().flush();
            } else {
                failures.attempt("--json", Path.of(json), () -> AtomicFile.write(Path.of(json),
                        out -> writer.writeValue(out, CompareReport.toJson(result))));
            }
        }
        if (html != null && failures.attempt("--html", html, () -> ComparePage.write(result, b, c, html))) {
            quiet.status(io).println("loadgen: wrote " + html);
        }
        failures.lines().forEach(line -> io.err().println("loadgen: " + line));
        return failures.isEmpty() ? 0 : Main.EXIT_FAILED;
    }
}
