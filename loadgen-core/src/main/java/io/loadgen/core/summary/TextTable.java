package io.loadgen.core.summary;

import java.io.PrintStream;
import java.util.List;

/**
 * Prints rows of cells as columns two spaces apart, each as wide as its widest cell: numbers
 * right-aligned (the sweep table), text left-aligned without trailing blanks (the gate table).
 * Stateless; any thread.
 */
public final class TextTable {
    private static final String GAP = "  ";

    private TextTable() {
    }

    /** Prints {@code rows} (the header first) to {@code out}, one line each. */
    public static void print(List<String[]> rows, boolean rightAligned, PrintStream out) {
        int columns = rows.isEmpty() ? 0 : rows.get(0).length;
        int[] widths = new int[columns];
        for (String[] row : rows) {
            for (int c = 0; c < row.length; c++) {
                widths[c] = Math.max(widths[c], row[c].length());
            }
        }
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int c = 0; c < row.length; c++) {
                String pad = " ".repeat(widths[c] - row[c].length());
                line.append(c == 0 ? "" : GAP);
                if (rightAligned) {
                    line.append(pad).append(row[c]);
                } else {
                    line.append(row[c]).append(c < row.length - 1 ? pad : "");
                }
            }
            out.println(line);
        }
    }
}
