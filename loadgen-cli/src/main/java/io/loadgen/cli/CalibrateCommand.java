package io.loadgen.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.loadgen.core.BadInputException;
import io.loadgen.core.diagnosis.Figures;
import io.loadgen.core.output.AtomicFile;
import io.loadgen.core.output.OutputFailures;
import io.loadgen.core.output.OutputPaths;
import io.loadgen.core.summary.TextTable;
import io.loadgen.core.wait.TimerFloor;
import io.loadgen.drivers.calibrate.Calibration;
import io.loadgen.drivers.calibrate.Calibration.Check;
import io.loadgen.drivers.calibrate.Calibration.Report;
import io.loadgen.drivers.calibrate.Calibration.Scenario;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.HdrHistogram.Histogram;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * {@code loadgen calibrate}: can this machine's numbers be trusted? Runs {@link Calibration}'s scenarios, whose
 * answers are known analytically, and prints per figure the analytic value, the measured one and the error
 * against its tolerance, then the machine's timer floor, its hiccups and the highest rate one worker keeps.
 * Exit 0 when every figure is within its tolerance and no diagnosis blames the harness, 1 otherwise (a line
 * per failing scenario on stderr). Ctrl-C prints the scenarios done so far. Main thread.
 */
@Command(name = "calibrate", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Check this tool against known answers on this machine: a store that cannot keep up"
                + " (backlog), one that pauses (pause), Poisson arrivals into a one-at-a-time store (md1, an M/D/1"
                + " queue) and a ping server frozen over loopback (freeze). Prints per scenario the analytic value,"
                + " the measured one and the error against its tolerance, then the timer floor (the error bar"
                + " here), the hiccups seen and the highest rate one worker keeps its schedule at.",
                "Fixed lengths: about 25 s in all (23.3 s of runs plus their starts), never more than 60 s.",
                "Status goes to stderr; the table goes to stdout (to stderr with --json -, which writes the JSON"
                        + " to stdout)."},
        footer = {"", "Exit codes: 0 every scenario within its tolerance; 1 one or more outside it (or blamed on"
                + " the harness by its diagnosis); 2 bad input; 130/143 interrupted (the scenarios done are"
                + " printed)."})
final class CalibrateCommand implements Callable<Integer> {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final Streams io;

    @Mixin
    VerbosityMixin verbosity;

    @Option(names = "--only", paramLabel = "NAME", split = ",", order = 10,
            description = "Run only these scenarios: backlog, pause, md1, freeze (the one-worker rate search is"
                    + " then skipped; the timer floor is always measured).")
    List<String> only;

    @Option(names = "--json", paramLabel = "FILE", order = 20,
            description = "Write the results as JSON; '-' writes it to stdout and the table to stderr.")
    Path json;

    @Option(names = {"--quiet", "-q"}, order = 30, description = "No progress lines (failures still show).")
    boolean quiet;

    CalibrateCommand(Streams io) {
        this.io = io;
    }

    @Override
    public Integer call() throws Exception {
        Set<Scenario> scenarios = scenarios();
        new OutputPaths().output("--json", json).check();
        if (!ReportOptions.isStdout(json)) {
            RunReporter.checkWritableFile(json, "--json");
        }
        boolean search = only == null;
        Calibration calibration = new Calibration(scenarios, search, quiet ? null : io.err(), verbosity.verbose);
        if (!quiet) {
            io.err().println("loadgen calibrate: " + plural(scenarios.size(), "scenario") + (search ? " and a rate search" : "")
                    + ", " + Figures.duration(Calibration.plannedNs(scenarios, search)) + " of runs planned");
        }
        try (SignalReport s = SignalReport.install(io, "stopping the calibration and printing the scenarios done so far",
                calibration::stop)) {
            Report report;
            try (QuietLogging q = QuietLogging.forRun()) {
                report = calibration.run();
            }
            return report(report);
        }
    }

    private Set<Scenario> scenarios() {
        if (only == null) {
            return EnumSet.allOf(Scenario.class);
        }
        Set<Scenario> chosen = EnumSet.noneOf(Scenario.class);
        for (String name : only) {
            Scenario s = Scenario.ofKey(name);
            if (s == null) {
                throw new BadInputException("--only: no scenario '" + name + "'; choose from " + Scenario.keys());
            }
            chosen.add(s);
        }
        return chosen;
    }

    private int report(Report report) {
        PrintStream out = ReportOptions.isStdout(json) ? io.err() : io.out();
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[]{"scenario", "quantity", "analytic", "measured", "error", "tolerance", "diagnosis", "result"});
        for (Check c : report.checks()) {
            rows.add(new String[]{c.scenario(), c.quantity(), Calibration.ms(c.analyticMs()) + " ms",
                    Calibration.ms(c.measuredMs()) + " ms", Calibration.percent(c.error(), true),
                    Calibration.percent(c.tolerance(), false), String.join(",", c.diagnosis()),
                    c.pass() ? "pass" : "FAIL"});
        }
        TextTable.print(rows, false, out);
        out.println();
        for (String line : machineLines(report)) {
            out.println(line);
        }
        out.flush();
        OutputFailures failures = new OutputFailures();
        if (json != null) {
            if (ReportOptions.isStdout(json)) {
                failures.attempt("--json", json, () -> writeJson(report, io.out()));
            } else if (failures.attempt("--json", json, () -> AtomicFile.write(json, o -> writeJson(report, o)))) {
                io.err().println("loadgen: wrote " + json);
            }
        }
        List<String> failing = new ArrayList<>();
        for (Check c : report.checks()) {
            if (!c.pass()) {
                String line = "loadgen calibrate: FAIL " + c.scenario() + ": " + c.failure();
                if (!failing.contains(line)) {
                    failing.add(line);
                }
            }
        }
        failing.forEach(io.err()::println);
        long scenarios = report.checks().stream().map(Check::scenario).distinct().count();
        String summary = "loadgen calibrate: " + (report.pass() ? "PASS" : "FAIL") + ", " + plural(report.checks().size(), "figure")
                + " of " + plural(scenarios, "scenario") + " in " + Figures.duration(report.elapsedNs())
                + (report.interrupted() ? " (interrupted)" : "");
        out.println(summary);
        out.flush();
        failures.lines().forEach(message -> io.err().println("loadgen: " + message));
        return report.pass() && failures.isEmpty() ? 0 : Main.EXIT_FAILED;
    }

    private static String plural(long n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }

    private static List<String> machineLines(Report report) {
        List<String> lines = new ArrayList<>();
        Histogram floor = report.timerFloor();
        lines.add("timer floor: park overshoot p99 " + Figures.duration(floor.getValueAtPercentile(99)) + ", max "
                + Figures.duration(floor.getMaxValue()) + " (" + floor.getTotalCount() + " parks of "
                + Figures.duration(TimerFloor.PARK_NS) + "); the adaptive wait would spin the last "
                + Figures.duration(report.adaptiveMarginNs()) + " before each start; tolerances allow "
                + Figures.duration(TimerFloor.WAKE_BUDGET_NS) + " a wake-up");
        Histogram h = report.hiccups();
        lines.add(h.getTotalCount() == 0 ? "hiccups during the calibration: not measured"
                : "hiccups during the calibration: max " + Figures.duration(h.getMaxValue()) + ", p99 "
                + Figures.duration(h.getValueAtPercentile(99)) + " (a thread sleeping 5 ms at a time, woken late)");
        if (report.maxOneWorkerOpsPerSec() != null) {
            double rate = report.maxOneWorkerOpsPerSec();
            lines.add(rate == 0 ? "one worker keeps its schedule: not even at 10,000 ops/s (noop, intended p99 <= "
                    + Figures.duration(TimerFloor.WAKE_BUDGET_NS) + ", nothing unissued)"
                    : "one worker keeps its schedule up to " + Figures.rate(rate) + " ops/s (noop, best of 3 tries of 0.3 s:"
                    + " intended p99 <= " + Figures.duration(TimerFloor.WAKE_BUDGET_NS) + ", nothing unissued)");
        }
        return lines;
    }

    private static void writeJson(Report report, OutputStream out) throws IOException {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("pass", report.pass());
        root.put("interrupted", report.interrupted());
        root.put("elapsed_s", report.elapsedNs() / 1e9);
        ArrayNode list = root.putArray("scenarios");
        for (Check c : report.checks()) {
            ObjectNode n = list.addObject();
            n.put("name", c.scenario());
            n.put("quantity", c.quantity());
            n.put("unit", "ms");
            n.put("analytic", c.analyticMs());
            n.put("measured", c.measuredMs());
            n.put("error", c.error());
            n.put("tolerance", c.tolerance());
            n.put("pass", c.pass());
            ArrayNode causes = n.putArray("diagnosis");
            c.diagnosis().forEach(causes::add);
            n.put("reason", c.failure());
            if (c.hiccupMaxMs() >= 0) {
                n.put("hiccup_max_ms", c.hiccupMaxMs());
            }
            n.put("stall_shift_ms", c.stallShiftMs());
            n.put("machine_stalled", c.machineStalled());
        }
        Histogram floor = report.timerFloor();
        ObjectNode timer = root.putObject("timer_floor");
        timer.put("parks", floor.getTotalCount());
        timer.put("park_us", TimerFloor.PARK_NS / 1e3);
        timer.put("overshoot_p99_us", floor.getValueAtPercentile(99) / 1e3);
        timer.put("overshoot_max_us", floor.getMaxValue() / 1e3);
        timer.put("adaptive_margin_us", report.adaptiveMarginNs() / 1e3);
        timer.put("wake_budget_us", TimerFloor.WAKE_BUDGET_NS / 1e3);
        Histogram h = report.hiccups();
        ObjectNode hiccups = root.putObject("hiccups");
        hiccups.put("max_ms", h.getTotalCount() == 0 ? null : h.getMaxValue() / 1e6);
        hiccups.put("p99_ms", h.getTotalCount() == 0 ? null : h.getValueAtPercentile(99) / 1e6);
        if (report.maxOneWorkerOpsPerSec() == null) {
            root.putNull("max_one_worker_ops_per_sec");
        } else {
            root.put("max_one_worker_ops_per_sec", report.maxOneWorkerOpsPerSec());
        }
        MAPPER.writerWithDefaultPrettyPrinter().without(JsonGenerator.Feature.AUTO_CLOSE_TARGET).writeValue(out, root);
        out.write('\n');
        out.flush();
    }
}
