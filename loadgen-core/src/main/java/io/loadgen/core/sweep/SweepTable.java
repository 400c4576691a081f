package io.loadgen.core.sweep;

import io.loadgen.core.record.View;
import io.loadgen.core.summary.TextTable;
import org.HdrHistogram.Histogram;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The latency-versus-throughput curve of a sweep as rows: one per step, in the order run. The same
 * cells feed the text table ({@link #write}) and the CSV ({@link SweepFiles}). Stateless; main thread.
 *
 * <pre>
 * offered (ops/s)  achieved (ops/s)  intended p50 (ms)  intended p99 (ms)  ...  errors  unissued  kept up  diagnosis
 *              50              49.9              5.112              5.243  ...       0         0      yes  ok
 *             250             196.0             98.304            196.739  ...       0        50       no  concurrency_limited
 * The 250 ops/s step fell behind: achieved 196.0 of 250 ops/s (243.0 needed), 50 unissued; it cannot meet an SLA.
 * </pre>
 */
public final class SweepTable {
    static final String[] HEADER = {"offered (ops/s)", "achieved (ops/s)", "intended p50 (ms)", "intended p99 (ms)",
        "intended p99.9 (ms)", "intended max (ms)", "service p99 (ms)", "errors", "unissued", "kept up", "diagnosis"};

    private SweepTable() {
    }

    /**
     * One step's cells, in {@link #HEADER} order: rates as {@link RatePlan#format}, ms to three decimals,
     * and whether the step kept up ({@link KeepUpRule}) as {@code yes} or {@code no}.
     */
    public static String[] cells(SweepStep step) {
        String[] cells = csvCells(step);
        cells[cells.length - 2] = step.keptUp() ? "yes" : "no";
        return cells;
    }

    /** The same cells for the CSV: kept up as {@code true} or {@code false}. */
    static String[] csvCells(SweepStep step) {
        Histogram intended = step.view(View.INTENDED);
        Histogram service = step.view(View.SERVICE);
        return new String[] {
            RatePlan.format(step.offeredOpsPerSec()),
            String.format(Locale.ROOT, "%.1f", step.achievedOpsPerSec()),
            ms(intended.getValueAtPercentile(50)), ms(intended.getValueAtPercentile(99)),
            ms(intended.getValueAtPercentile(99.9)), ms(intended.getMaxValue()),
            ms(service.getValueAtPercentile(99)),
            Long.toString(step.errors()), Long.toString(step.unissued()), Boolean.toString(step.keptUp()),
            step.diagnosis()
        };
    }

    /** Prints the table, numbers right-aligned, then a note for each step that fell behind or was cut short; flushes. */
    public static void write(List<SweepStep> steps, PrintStream out) {
        List<String[]> rows = new ArrayList<>();
        rows.add(HEADER);
        for (SweepStep step : steps) {
            rows.add(cells(step));
        }
        TextTable.print(rows, true, out);
        for (SweepStep step : steps) {
            if (!step.keptUp()) {
                out.printf(Locale.ROOT, "The %s ops/s step %s; it cannot meet an SLA.%s%n",
                        RatePlan.format(step.offeredOpsPerSec()), step.shortfall(),
                        step.result().diagnosis() == null ? "" : " " + step.result().diagnosis().headline());
            }
        }
        for (SweepStep step : steps) {
            if (step.cutShort()) {
                out.printf(Locale.ROOT, "The %s ops/s step was stopped (%s) after %.1f s; its row covers only that part.%n",
                        RatePlan.format(step.offeredOpsPerSec()), step.result().stopReason(),
                        step.result().runTimeNs() / 1e9);
            }
        }
        out.flush();
    }

    static double p99Ms(SweepStep step, View view) {
        return step.view(view).getValueAtPercentile(99) / 1e6;
    }

    private static String ms(long ns) {
        return String.format(Locale.ROOT, "%.3f", ns / 1e6);
    }
}
