package io.loadgen.core.findmax;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadgen.core.gate.Rule;
import io.loadgen.core.output.AtomicFile;
import io.loadgen.core.summary.JsonSummary;
import io.loadgen.core.summary.TextTable;
import io.loadgen.core.sweep.RatePlan;

import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A findmax result for people (the answer line and the step table) and machines (CSV: one row per step and
 * objective; JSON: {@code rate_ops_per_sec}, {@code band_low}, {@code band_high}, {@code confirmed},
 * {@code stop_reason}, {@code rules}, {@code steps}, each step with its objectives and its full run summary).
 * Stateless; main thread.
 */
public final class FindMaxReport {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    static final String CSV_HEADER = "step,offered_ops_per_sec,achieved_ops_per_sec,length_s,ended,kept_up,passed,"
            + "clearly,diagnosis,rule,value,ci_low,ci_high,rule_passed";

    private FindMaxReport() {
    }

    /** The step table, then the answer line; flushes. */
    public static void write(FindMaxResult r, PrintStream out) {
        List<String[]> rows = new ArrayList<>();
        List<String> header = new ArrayList<>(List.of("step", "offered (ops/s)", "achieved (ops/s)", "ended"));
        List<String> ruleNames = new ArrayList<>();
        for (FindMaxStep s : r.steps()) {
            for (FindMaxStep.RuleOutcome o : s.rules()) {
                if (!ruleNames.contains(o.name())) {
                    ruleNames.add(o.name());
                }
            }
        }
        for (String name : ruleNames) {
            header.add(name + " [95%]");
        }
        header.addAll(List.of("kept up", "pass", "diagnosis"));
        rows.add(header.toArray(new String[0]));
        for (FindMaxStep s : r.steps()) {
            List<String> row = new ArrayList<>(List.of(Integer.toString(s.number()), RatePlan.format(s.offeredOpsPerSec()),
                    String.format(Locale.ROOT, "%.1f", s.achievedOpsPerSec()), s.endedText()));
            for (String name : ruleNames) {
                FindMaxStep.RuleOutcome o = s.rules().stream().filter(x -> x.name().equals(name)).findFirst().orElse(null);
                row.add(o == null ? "-" : o.observed() + " " + o.intervalText());
            }
            row.add(s.keptUp() ? "yes" : "no");
            row.add((s.passed() ? "yes" : "no") + (s.clearlyPassed() ? " (clearly)" : s.clearlyFailed() && !s.passed()
                    ? " (clearly)" : ""));
            row.add(s.diagnosis());
            rows.add(row.toArray(new String[0]));
        }
        TextTable.print(rows, true, out);
        out.println(r.answerLine());
        out.flush();
    }

    public static void writeCsv(FindMaxResult r, Path file) throws IOException {
        AtomicFile.write(file, out -> {
            Writer w = new OutputStreamWriter(out, StandardCharsets.UTF_8);
            w.write(CSV_HEADER + "\n");
            for (FindMaxStep s : r.steps()) {
                String head = String.join(",", Integer.toString(s.number()), num(s.offeredOpsPerSec()),
                        num(s.achievedOpsPerSec()), num(s.lengthSec()), csv(s.endedText()), Boolean.toString(s.keptUp()),
                        Boolean.toString(s.passed()), clearly(s), s.diagnosis());
                if (s.rules().isEmpty()) {
                    w.write(head + ",,,,,\n");
                }
                for (FindMaxStep.RuleOutcome o : s.rules()) {
                    w.write(head + "," + csv(o.name()) + "," + num(o.value()) + "," + num(o.ciLow()) + ","
                            + num(o.ciHigh()) + "," + o.passed() + "\n");
                }
            }
            w.flush();
        });
    }

    public static ObjectNode toJson(FindMaxResult r) {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        put(root, "rate_ops_per_sec", r.answer());
        put(root, "band_low", r.bandLow());
        put(root, "band_high", r.bandHigh());
        root.put("confirmed", r.confirmed());
        root.put("stop_reason", r.stopReason().key());
        if (r.harnessStep() != null) {
            root.put("harness_cause", r.harnessStep().harnessFault().code().key());
        }
        ArrayNode rules = root.putArray("rules");
        for (Rule rule : r.rules()) {
            rules.add(rule.text());
        }
        ArrayNode steps = root.putArray("steps");
        for (FindMaxStep s : r.steps()) {
            ObjectNode n = steps.addObject();
            n.put("step", s.number());
            n.put("offered_ops_per_sec", s.offeredOpsPerSec());
            n.put("achieved_ops_per_sec", s.achievedOpsPerSec());
            n.put("length_s", s.lengthSec());
            n.put("ended", s.ended() == StabilityDetector.Decision.CONTINUE ? s.result().stopReason() : s.ended().text());
            n.put("scheduled_operations", s.scheduled());
            n.put("window_completed", s.windowCompleted());
            n.put("kept_up", s.keptUp());
            n.put("passed", s.passed());
            n.put("clearly", clearly(s));
            n.put("diagnosis", s.diagnosis());
            ArrayNode outcomes = n.putArray("rules");
            for (FindMaxStep.RuleOutcome o : s.rules()) {
                ObjectNode on = outcomes.addObject();
                on.put("rule", o.name());
                on.put("limit", o.limit());
                on.put("observed", o.observed());
                put(on, "value", o.value());
                put(on, "ci_low", o.ciLow());
                put(on, "ci_high", o.ciHigh());
                on.put("passed", o.passed());
            }
            n.set("summary", JsonSummary.toJson(s.result()));
        }
        return root;
    }

    public static void writeJson(FindMaxResult r, Path file) throws IOException {
        AtomicFile.write(file, out -> writeJson(r, out));
    }

    /** Writes the JSON to {@code out} (standard output for {@code --json -}) and flushes; does not close it. */
    public static void writeJson(FindMaxResult r, OutputStream out) throws IOException {
        MAPPER.writerWithDefaultPrettyPrinter().without(JsonGenerator.Feature.AUTO_CLOSE_TARGET).writeValue(out, toJson(r));
        out.flush();
    }

    /** {@code pass} when the step clearly passed, {@code fail} when it clearly failed, else {@code unclear}. */
    static String clearly(FindMaxStep s) {
        return s.clearlyPassed() ? "pass" : s.clearlyFailed() ? "fail" : "unclear";
    }

    private static void put(ObjectNode n, String key, double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            n.putNull(key);
        } else {
            n.put(key, v);
        }
    }

    private static String num(double v) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.6g", v);
    }

    private static String csv(String s) {
        return s.contains(",") || s.contains("\"") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
    }
}
