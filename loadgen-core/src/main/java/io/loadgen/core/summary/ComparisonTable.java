package io.loadgen.core.summary;

import io.loadgen.core.record.View;
import org.HdrHistogram.Histogram;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Prints the views of a {@link RunResult} side by side, in milliseconds, for a person to compare
 * at a glance. Stateless; called on the main thread after a run.
 *
 * <pre>
 * op       view              count  p50 (ms)  p99 (ms)  p99.9 (ms)  max (ms)
 * READ     intended         299852     0.713    31.195     152.044   201.327
 * READ     service          299852     0.612     9.207      41.943   187.904
 * READ     corrected        300984     0.655    30.802     150.995   187.904
 * READ     failed.intended      20     0.012     0.020       0.020     0.020
 * READ     failed.service       20     0.010     0.018       0.018     0.018
 * harness  lag              299872     0.054     0.112       0.950     3.010
 * harness  hiccup             9874     0.004     0.101       1.203     2.097
 * </pre>
 *
 * <p>One row per operation type per view ({@code intended}, {@code service}, {@code corrected}) of
 * the operations that returned OK; when some did not, two more rows, {@code failed.intended} and
 * {@code failed.service}, hold those; then the scheduler's lag as {@code harness lag}, and the hiccup
 * meter's stalls as {@code harness hiccup} (its count is of 1 ms sleeps, corrected). An unthrottled
 * run has neither a corrected view nor a lag, so those rows are left out. Text columns are
 * left-aligned, numbers right-aligned; widths fit the longest cell.
 */
public final class ComparisonTable {
    static final String[] HEADER = {"op", "view", "count", "p50 (ms)", "p99 (ms)", "p99.9 (ms)", "max (ms)"};
    private static final int TEXT_COLUMNS = 2;
    private static final String GAP = "  ";
    private static final View[] ORDER = {View.INTENDED, View.SERVICE, View.CORRECTED};

    private ComparisonTable() {
    }

    public static void write(RunResult result, PrintStream out) {
        List<String[]> rows = new ArrayList<>();
        rows.add(HEADER);
        for (OpResult op : result.operations()) {
            for (View view : ReportedViews.of(result, ORDER)) {
                rows.add(row(op.name(), view.key(), op.histogram(view)));
            }
            if (op.failures() > 0) {
                rows.add(row(op.name(), View.INTENDED.failedKey(), op.failedHistogram(View.INTENDED)));
                rows.add(row(op.name(), View.SERVICE.failedKey(), op.failedHistogram(View.SERVICE)));
            }
        }
        if (result.throttled() && result.lag() != null) {
            rows.add(row("harness", "lag", result.lag()));
        }
        if (result.health().hiccups() != null) {
            rows.add(row("harness", "hiccup", result.health().hiccups()));
        }
        int[] widths = widths(rows);
        for (String[] row : rows) {
            out.println(format(row, widths));
        }
        out.flush();
    }

    private static String[] row(String op, String view, Histogram h) {
        return new String[] {
            op, view, String.valueOf(h.getTotalCount()),
            ms(h.getValueAtPercentile(50)), ms(h.getValueAtPercentile(99)),
            ms(h.getValueAtPercentile(99.9)), ms(h.getMaxValue())
        };
    }

    private static String ms(long ns) {
        return String.format(Locale.ROOT, "%.3f", ReportedViews.millis(ns));
    }

    private static int[] widths(List<String[]> rows) {
        int[] widths = new int[HEADER.length];
        for (String[] row : rows) {
            for (int c = 0; c < row.length; c++) {
                widths[c] = Math.max(widths[c], row[c].length());
            }
        }
        return widths;
    }

    private static String format(String[] row, int[] widths) {
        StringBuilder line = new StringBuilder();
        for (int c = 0; c < row.length; c++) {
            if (c > 0) {
                line.append(GAP);
            }
            String pad = " ".repeat(widths[c] - row[c].length());
            line.append(c < TEXT_COLUMNS ? row[c] + pad : pad + row[c]);
        }
        return line.toString();
    }
}
