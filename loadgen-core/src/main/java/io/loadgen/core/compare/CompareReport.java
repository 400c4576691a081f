package io.loadgen.core.compare;

import io.loadgen.core.gate.CompareOptions;
import io.loadgen.core.gate.Estimate;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadgen.core.summary.TextTable;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Writes a comparison: an aligned table for people, or JSON ({@code rows} and {@code method}) for programs.
 * Stateless; any thread.
 *
 * <pre>
 * op    view      stat        baseline   candidate  change    95 % CI           verdict
 * READ  intended  p50         5.04 ms    5.55 ms    +10.1 %   +8.3 to +11.9 %   slower by 10.1 % (95 % CI 8.3-11.9 %)
 * </pre>
 */
public final class CompareReport {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private CompareReport() {
    }

    public static void writeText(RunComparison.Result r, PrintStream out) {
        out.println("baseline:  " + r.baseline() + intervalsText(r.baseIntervals()));
        out.println("candidate: " + r.candidate() + intervalsText(r.candIntervals()));
        out.println();
        List<String[]> rows = new ArrayList<>();
        int pct = (int) Math.round(r.options().level() * 100);
        rows.add(new String[]{"op", "view", "stat", "baseline", "candidate", "change", pct + " % CI", "verdict"});
        for (CompareRow row : r.rows()) {
            Estimate e = row.estimate();
            rows.add(new String[]{row.op(), row.view(), row.stat(), row.format(e.baseline()),
                    row.format(e.candidate()), Estimate.changeText(e.change()), row.intervalText(),
                    row.verdictText(r.options().level())});
        }
        TextTable.print(rows, false, out);
        out.println();
        out.println(summary(r));
        out.println(method(r));
        out.flush();
    }

    /** {@code 3 slower, 1 faster, 9 same, 5 unknown}. */
    public static String summary(RunComparison.Result r) {
        int[] n = new int[CompareRow.Verdict.values().length];
        r.rows().forEach(row -> n[row.verdict().ordinal()]++);
        return String.format(Locale.ROOT, "%d slower, %d faster, %d same, %d unknown (of %d rows)",
                n[CompareRow.Verdict.SLOWER.ordinal()], n[CompareRow.Verdict.FASTER.ordinal()],
                n[CompareRow.Verdict.SAME.ordinal()], n[CompareRow.Verdict.UNKNOWN.ordinal()], r.rows().size());
    }

    public static String method(RunComparison.Result r) {
        CompareOptions o = r.options();
        if (r.baseBlock() == 0 || r.candBlock() == 0) {
            return "method: none: a JSON summary has no intervals to estimate a run's variation from, so changes are"
                    + " shown but not judged; compare the runs' interval logs (run --hlog)";
        }
        return String.format(Locale.ROOT, "method: circular moving-block bootstrap over each run's intervals"
                        + " (blocks of %d and %d intervals, %d resamples, seed %d), percentile %d %% intervals;"
                        + " slower/faster needs the interval beyond 0 and a change of at least %s %%",
                r.baseBlock(), r.candBlock(), o.resamples(), o.seed(), Math.round(o.level() * 100),
                plain(o.minChange() * 100));
    }

    public static ObjectNode toJson(RunComparison.Result r) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("baseline", r.baseline());
        root.put("candidate", r.candidate());
        ArrayNode rows = root.putArray("rows");
        for (CompareRow row : r.rows()) {
            Estimate e = row.estimate();
            ObjectNode n = rows.addObject();
            n.put("op", row.op());
            n.put("view", row.view().equals("-") ? null : row.view());
            n.put("stat", row.stat());
            n.put("unit", switch (row.kind()) {
                case LATENCY -> "us";
                case THROUGHPUT -> "ops/s";
                case ERROR_RATE -> "share";
            });
            double scale = row.kind() == CompareRow.Kind.LATENCY ? 1e-3 : 1;
            number(n, "baseline", e.baseline() * scale);
            number(n, "candidate", e.candidate() * scale);
            number(n, "change", e.change());
            number(n, "ci_low", e.ciLow());
            number(n, "ci_high", e.ciHigh());
            n.put("verdict", row.verdict().key());
            if (row.verdict() == CompareRow.Verdict.UNKNOWN) {
                n.put("reason", e.tooFew() ? "too few samples to say: " + e.reason() : e.reason());
            }
        }
        ObjectNode method = root.putObject("method");
        CompareOptions o = r.options();
        method.put("name", "circular moving-block bootstrap, paired replicates, percentile interval");
        method.put("resamples", o.resamples());
        method.put("level", o.level());
        method.put("seed", o.seed());
        method.put("min_change", o.minChange());
        method.put("baseline_intervals", r.baseIntervals());
        method.put("candidate_intervals", r.candIntervals());
        method.put("baseline_block_length", r.baseBlock());
        method.put("candidate_block_length", r.candBlock());
        return root;
    }

    /** A number, or null for NaN; an infinite change as the string {@code inf}. */
    private static void number(ObjectNode n, String key, double v) {
        if (Double.isNaN(v)) {
            n.putNull(key);
        } else if (Double.isInfinite(v)) {
            n.put(key, v > 0 ? "inf" : "-inf");
        } else {
            n.put(key, v);
        }
    }

    private static String intervalsText(int n) {
        return n == 0 ? " (a JSON summary: no intervals)" : " (" + io.loadgen.core.diagnosis.Figures.plural(n, "interval") + ")";
    }

    private static String plain(double v) {
        return new java.math.BigDecimal(Double.toString(v)).stripTrailingZeros().toPlainString();
    }
}
