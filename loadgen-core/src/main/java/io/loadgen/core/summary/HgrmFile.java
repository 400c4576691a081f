package io.loadgen.core.summary;

import io.loadgen.core.BadInputException;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One percentile-distribution file read back: what HdrHistogram's {@code outputPercentileDistribution}
 * prints, as {@link HgrmFiles} ({@code run --hgrm}, values in microseconds), {@code loadgen report}
 * ({@code BASE.hgrm}, milliseconds by default) and HistogramLogProcessor write it, plain or CSV. The file
 * does not say its unit, so values are kept as written. Immutable.
 *
 * <pre>
 *        Value     Percentile TotalCount 1/(1-Percentile)
 *
 *        0.210 0.000000000000          1           1.00
 *      ...
 *      257.163 1.000000000000     297799
 * #[Mean    =     1753.880, StdDeviation   =    ...]
 * </pre>
 *
 * @param name the file's name
 * @param rows the distribution's rows, in order (the last is the maximum, at percentile 1.0)
 */
public record HgrmFile(String name, List<Row> rows) {
    /**
     * One row.
     *
     * @param value      the value at the percentile, in the file's unit
     * @param percentile a fraction, 0.0 to 1.0
     * @param totalCount values at or below {@code value}
     */
    public record Row(double value, double percentile, long totalCount) {
    }

    public HgrmFile {
        rows = List.copyOf(rows);
    }

    /** How many values the distribution holds: the last row's count. */
    public long totalCount() {
        return rows.get(rows.size() - 1).totalCount();
    }

    /**
     * Reads a {@code .hgrm} file, plain or CSV.
     *
     * @throws BadInputException when the file is missing or holds no distribution rows
     */
    public static HgrmFile read(Path file) {
        List<Row> rows = new ArrayList<>();
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            long number = 0;
            while ((line = in.readLine()) != null) {
                number++;
                String t = line.strip();
                if (t.isEmpty() || t.startsWith("#") || t.startsWith("\"") || t.startsWith("Value")) {
                    continue;
                }
                rows.add(row(file, number, t));
            }
        } catch (NoSuchFileException e) {
            throw new BadInputException(".hgrm file " + file + " does not exist; give a file 'loadgen run --hgrm DIR'"
                    + " or 'loadgen report -o BASE' wrote");
        } catch (IOException e) {
            throw new BadInputException("cannot read " + file + " (" + e.getMessage() + ")");
        }
        if (rows.isEmpty()) {
            throw new BadInputException(file + " holds no percentile rows (an empty histogram?); give a .hgrm file"
                    + " of a view that recorded values");
        }
        return new HgrmFile(file.getFileName().toString(), rows);
    }

    private static Row row(Path file, long number, String line) {
        String[] cells = line.split(line.indexOf(',') >= 0 ? "," : "\\s+");
        try {
            if (cells.length < 3) {
                throw new NumberFormatException(cells.length + " columns");
            }
            return new Row(Double.parseDouble(cells[0]), Double.parseDouble(cells[1]), Long.parseLong(cells[2]));
        } catch (NumberFormatException e) {
            throw new BadInputException(file + ":" + number + ": not a percentile-distribution row (" + e.getMessage()
                    + "); give a .hgrm file as 'loadgen run --hgrm DIR' writes it");
        }
    }
}
