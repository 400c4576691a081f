package io.loadgen.cli;

import io.loadgen.core.BadInputException;
import io.loadgen.core.gate.Gate;
import io.loadgen.core.gate.GateTable;
import io.loadgen.core.gate.InputPolicy;
import io.loadgen.core.gate.JUnitXml;
import io.loadgen.core.gate.Regression;
import io.loadgen.core.gate.Rule;
import io.loadgen.core.gate.TimeRange;
import io.loadgen.core.gate.Verdict;
import io.loadgen.core.output.OutputFailures;
import io.loadgen.core.output.OutputPaths;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code loadgen gate}: judges a JSON summary or interval logs against CI thresholds, prints a table,
 * optionally writes JUnit XML, and exits 0 (all pass), 99 (any fails, as k6 does), 1 (the JUnit file could not be
 * written), 2 (bad input) or 3 (damaged input, not judged). Main thread.
 */
@Command(name = "gate", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Judge a run against thresholds, for CI: a table of rule, observed, limit and PASS/FAIL,"
                + " and the exit code 0 when every rule passes, 99 when any fails (k6's code), 2 for bad input,"
                + " 3 when the logs are damaged.",
                "A rule is METRIC CMP LIMIT [over Ns windows], e.g. 'READ.intended.p99 < 5ms',"
                        + " '*.intended.max < 1s over 10s windows', 'READ.errors < 0.1%%', 'throughput > 9500/s'."},
        footer = {"", "METRIC is OP.VIEW.STAT (VIEW intended, service or corrected; STAT p50, p99.9 or p(99.9),"
                + " min, max, mean, count), harness.lag.STAT, OP.errors, errors, OP.throughput or throughput;"
                + " OP is an operation type or * for each. CMP is <, <=, > or >=. Latency limits take ns, us, ms, s"
                + " or m; errors a count or a %%; throughput ops/s (9500/s).",
                "", "Examples:",
                "  loadgen gate run.json --rule 'READ.intended.p99 < 5ms' --junit gates.xml",
                "  loadgen gate run.json --rule 'READ.errors < 0.1%%' --rule 'throughput > 9500/s'",
                "  loadgen gate run.hlog --rule '*.intended.p99 < 20ms over 10s windows'",
                "  loadgen gate new.json --baseline old.json --max-regression 'p99:+10%%'",
                "  loadgen gate new.hlog --baseline old.hlog --max-regression 'p99:+5%%'   (fails only if significant)",
                "", Main.EXIT_CODES})
final class GateCommand implements Callable<Integer> {
    private final Streams io;

    @Mixin
    VerbosityMixin verbosity;

    @Mixin
    QuietMixin quiet;

    @Parameters(paramLabel = "FILE", arity = "1..*",
            description = "A JSON summary (run --json), or one or more interval logs (run --hlog; merged on time;"
                    + " a quoted glob such as 'logs/*.hlog' is expanded by loadgen); plain or gzip-compressed, told"
                    + " apart by content.")
    List<Path> files = new ArrayList<>();

    @Option(names = "--rule", paramLabel = "RULE", order = 10, description = "A rule (repeatable).")
    List<String> rules = new ArrayList<>();

    @Option(names = "--rule-file", paramLabel = "FILE", order = 20,
            description = "Rules from a file: one per line, # comments; or a YAML/JSON list (repeatable).")
    List<Path> ruleFiles = new ArrayList<>();

    @Option(names = "--baseline", paramLabel = "FILE", order = 30,
            description = "A previous run's interval log (or JSON summary) to compare with; needs --max-regression.")
    Path baseline;

    @Option(names = "--max-regression", paramLabel = "STAT:+N%,...", order = 40,
            description = "How much worse than --baseline each operation type and view may be, e.g."
                    + " 'p99:+10%%,p99.9:+20%%' (latency may grow that much), 'throughput:-5%%' (may drop that much)."
                    + " With interval logs on both sides a rule fails only when the change is also significant (its"
                    + " 95%% interval, as 'loadgen compare' computes it, lies beyond 0); with a JSON summary, the plain"
                    + " comparison.")
    String maxRegression;

    @Option(names = "--start", paramLabel = "SEC", order = 50, converter = SecondsConverter.class,
            description = "Interval logs: only intervals starting SEC seconds or more after the log's StartTime;"
                    + " windows count from here.")
    Double start;

    @Option(names = "--end", paramLabel = "SEC", order = 60, converter = SecondsConverter.class,
            description = "Interval logs: only intervals starting before SEC seconds after the log's StartTime.")
    Double end;

    @Option(names = "--allow-mixed", order = 62,
            description = "Merge interval logs of different runs (their #[run_id] lines differ); default: refuse,"
                    + " exit code 3.")
    boolean allowMixed;

    @Option(names = "--allow-partial", order = 64,
            description = "Judge count, errors-count and throughput rules on a log that was cut short (no closing"
                    + " #[run end] line), or report --json of one; default: they fail, saying how much the log holds.")
    boolean allowPartial;

    @Option(names = "--include-warmup", order = 66,
            description = "Count the run's warm-up (--warmup), which its JSON and, by default, the gate leave out.")
    boolean includeWarmup;

    @Option(names = "--junit", paramLabel = "FILE", order = 70,
            description = "Also write the verdicts as JUnit XML, one test case per rule, for CI dashboards.")
    Path junit;

    GateCommand(Streams io) {
        this.io = io;
    }

    @Override
    public Integer call() throws Exception {
        List<Rule> all = GateRules.parse(rules, ruleFiles, "--rule-file");
        Regression regression = regression();
        if (all.isEmpty() && regression == null) {
            throw new BadInputException("no rules; give --rule RULE (e.g. --rule 'READ.intended.p99 < 5ms'),"
                    + " --rule-file FILE, or --baseline FILE with --max-regression");
        }
        List<Path> inputs = InputGlobs.expand(files);
        new OutputPaths().inputs("FILE", inputs).input("--baseline", baseline).inputs("--rule-file", ruleFiles)
                .output("--junit", junit).check();
        RunReporter.checkWritableFile(junit, "--junit");
        List<Verdict> verdicts = Gate.evaluate(inputs, new TimeRange(start, end), all, baseline, regression,
                w -> io.err().println("warning: " + w), new InputPolicy(allowMixed, allowPartial, includeWarmup));
        GateTable.write(verdicts, io.out());
        OutputFailures failures = new OutputFailures();
        if (junit != null && failures.attempt("--junit", junit, () -> JUnitXml.write(verdicts, sourceName(), junit))) {
            quiet.status(io).println("loadgen: wrote " + junit);
        }
        if (!failures.isEmpty()) {
            failures.lines().forEach(line -> io.err().println("loadgen: " + line + " (the verdicts above stand,"
                    + " but CI will not see them)"));
            return Main.EXIT_FAILED;
        }
        if (Gate.inputDamaged(verdicts)) {
            List<Verdict> damaged = verdicts.stream().filter(v -> v.isInputCheck() && !v.passed()).toList();
            Verdict first = damaged.get(0);
            io.err().println("loadgen: the gate did not judge: its input is damaged: " + first.subject() + ": "
                    + first.observed() + (damaged.size() > 1 ? " (and " + (damaged.size() - 1) + " more in the table)"
                    : "") + "; a gate judges only complete logs");
            return Main.EXIT_DAMAGED_INPUT;
        }
        return Gate.allPassed(verdicts) ? 0 : Main.EXIT_GATE_FAILED;
    }

    private Regression regression() {
        if (baseline == null && maxRegression == null) {
            return null;
        }
        if (baseline == null) {
            throw new BadInputException("--max-regression compares with a baseline; give --baseline FILE"
                    + " (a previous run's JSON summary)");
        }
        if (maxRegression == null) {
            throw new BadInputException("--baseline needs --max-regression to say how much worse is allowed,"
                    + " e.g. --max-regression 'p99:+10%,p99.9:+20%'");
        }
        return Regression.parse(maxRegression);
    }

    private String sourceName() {
        List<String> names = new ArrayList<>();
        files.forEach(f -> names.add(f.toString()));
        return String.join(" + ", names);
    }
}
