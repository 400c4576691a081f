package io.loadgen.plot.html;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadgen.core.compare.CompareReport;
import io.loadgen.core.compare.CompareRow;
import io.loadgen.core.compare.RunComparison;
import io.loadgen.core.gate.Estimate;
import io.loadgen.core.gate.GateView;
import io.loadgen.core.gate.RunIntervals;
import io.loadgen.core.gate.Stat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes {@code loadgen compare --html}: one self-contained page (uPlot inlined, no network) with, per operation
 * type, the baseline's percentile distribution on the left and the candidate's on the right, on the same axes
 * (x on the explorer's {@code 1/(1-p)} scale, y from 0 to the larger run's max), and the comparison's rows with
 * their verdicts coloured (slower red, faster green). The curves are the runs' whole-run percentiles, computed
 * here as {@code report} computes them; a JSON summary gives its few percentiles as points. Main thread.
 */
public final class ComparePage {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final GateView[] VIEWS = {GateView.INTENDED, GateView.SERVICE, GateView.CORRECTED};
    /** A JSON summary's percentiles, at their {@code 1/(1-p)} positions (the min at 1, the max past p99.99). */
    private static final double[] JSON_X = {1, 2, 10, 20, 100, 1000, 10_000, 100_000};
    private static final Stat[] JSON_STATS = {Stat.MIN, Stat.percentile(50), Stat.percentile(90), Stat.percentile(95),
            Stat.percentile(99), Stat.percentile(99.9), Stat.percentile(99.99), Stat.MAX};

    private ComparePage() {
    }

    /** Writes the page to {@code out}, replacing it. */
    public static void write(RunComparison.Result result, RunIntervals base, RunIntervals cand, Path out)
            throws IOException {
        HtmlExplorer.writePage(render(result, base, cand), out);
    }

    static String render(RunComparison.Result result, RunIntervals base, RunIntervals cand) {
        String title = "loadgen compare: " + name(result.baseline()) + " vs " + name(result.candidate());
        ObjectNode root = MAPPER.createObjectNode();
        root.put("title", title);
        root.put("baseline", result.baseline());
        root.put("candidate", result.candidate());
        root.set("comparison", CompareReport.toJson(result));
        root.put("summary", CompareReport.summary(result));
        root.put("method", CompareReport.method(result));
        root.set("palette", MAPPER.valueToTree(io.loadgen.plot.Palette.named()));
        ArrayNode ops = root.putArray("ops");
        for (String op : base.operations()) {
            ObjectNode o = ops.addObject();
            o.put("op", op);
            o.set("baseline", curves(base, op));
            o.set("candidate", curves(cand, op));
            ArrayNode rows = o.putArray("rows");
            for (CompareRow row : result.rows()) {
                if (row.op().equals(op)) {
                    ObjectNode r = rows.addObject();
                    r.put("view", row.view());
                    r.put("stat", row.stat());
                    r.put("baseline", row.format(row.estimate().baseline()));
                    r.put("candidate", row.format(row.estimate().candidate()));
                    r.put("change", Estimate.changeText(row.estimate().change()));
                    r.put("ci", row.intervalText());
                    r.put("verdict", row.verdict().key());
                    r.put("text", row.verdictText(result.options().level()));
                }
            }
        }
        String json;
        try {
            json = MAPPER.writeValueAsString(root).replace("<", "\\u003c");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return PageTemplate.render("compare.html", "compare.js", title, json);
    }

    /** Per view the run holds: {@code x} ({@code 1/(1-p)}) and {@code y} (ns) of its percentile distribution. */
    private static ArrayNode curves(RunIntervals run, String op) {
        ArrayNode views = MAPPER.createArrayNode();
        for (GateView view : VIEWS) {
            if (!run.has(op, view)) {
                continue;
            }
            ObjectNode v = views.addObject();
            v.put("view", view.key());
            ArrayNode xs = v.putArray("x");
            ArrayNode ys = v.putArray("y");
            if (!run.hasIntervals()) {
                for (int i = 0; i < JSON_X.length; i++) {
                    xs.add(JSON_X[i]);
                    add(ys, run.latency(op, view, JSON_STATS[i]));
                }
                continue;
            }
            double count = run.latency(op, view, Stat.COUNT);
            double xMax = Math.min(1e7, Math.max(100, Math.pow(10, Math.ceil(Math.log10(Math.max(1, count))))));
            for (int k = 0; Math.pow(2, k / 10.0) < xMax; k++) {
                double x = Math.pow(2, k / 10.0);
                xs.add(x);
                add(ys, run.latency(op, view, Stat.percentile(100 * (1 - 1 / x))));
            }
            xs.add(xMax);
            add(ys, run.latency(op, view, Stat.MAX));
        }
        return views;
    }

    private static void add(ArrayNode a, double v) {
        if (Double.isNaN(v)) {
            a.addNull();
        } else {
            a.add(v);
        }
    }

    private static String name(String source) {
        List<String> names = java.util.Arrays.stream(source.split(" \\+ ")).map(s -> {
            Path p = Path.of(s).getFileName();
            return p == null ? s : p.toString();
        }).toList();
        return String.join(" + ", names);
    }
}
