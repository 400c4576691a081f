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
 * prints, as {@link HgrmFiles} ({@code run --hgrm}), {@code loadgen report} ({@code BASE.hgrm}) and
 * HistogramLogProcessor write it, plain or CSV; both loadgen commands write milliseconds by default, as
 * HistogramLogProcessor does. {@code run --hgrm} states the unit in a first comment line ({@link #unitLine});
 * HistogramLogProcessor's files, and so {@code report}'s, which equal them byte for byte, do not. Values are
 * kept as written. Immutable.
 *
 * <pre>
 * #[Unit: ms (recorded ns / 1000000.0, as HistogramLogProcessor's default -outputValueUnitRatio)]
 *        Value     Percentile TotalCount 1/(1-Percentile)
 *
 *        0.210 0.000000000000          1           1.00
 *      ...
 *      257.163 1.000000000000     297799
 * #[Mean    =     1753.880, StdDeviation   =    ...]
 * </pre>
 *
 * @param name the file's name
 * @param unit the unit its unit line states ({@code ns}, {@code us}, {@code ms} or {@code s}), or null when it has none
 * @param rows the distribution's rows, in order (the last is the maximum, at percentile 1.0)
 */
public record HgrmFile(String name, String unit, List<Row> rows) {
    /** Nanoseconds per value when a file does not state its unit: milliseconds, as both loadgen commands write. */
    public static final double DEFAULT_NS_PER_UNIT = 1e6;

    private static final String UNIT_PREFIX = "#[Unit: ";

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

    /**
     * The first line of a file whose values are recorded nanoseconds divided by {@code nsPerUnit}, e.g.
     * {@code #[Unit: ms (recorded ns / 1000000.0, as HistogramLogProcessor's default -outputValueUnitRatio)]}.
     */
    public static String unitLine(String unit, double nsPerUnit) {
        return UNIT_PREFIX + unit + " (recorded ns / " + nsPerUnit + ", as HistogramLogProcessor's"
                + (nsPerUnit == DEFAULT_NS_PER_UNIT ? " default" : "") + " -outputValueUnitRatio)]";
    }

    /** Nanoseconds per unit for {@code ns}, {@code us} (or {@code µs}), {@code ms} and {@code s}; NaN for anything else. */
    public static double nsPerUnit(String unit) {
        return switch (unit.toLowerCase(java.util.Locale.ROOT)) {
            case "ns" -> 1.0;
            case "us", "µs" -> 1e3;
            case "ms" -> 1e6;
            case "s" -> 1e9;
            default -> Double.NaN;
        };
    }

    /** Nanoseconds per value: from the file's unit line, else {@code fallback}. */
    public double nsPerValue(double fallback) {
        return unit != null ? nsPerUnit(unit) : fallback;
    }

    /**
     * True when a file's first bytes are a {@code .hgrm} file's: past the comment lines that may lead it (the unit
     * line, HistogramLogProcessor's two header lines), the first line is the {@code Value} column header, plain or CSV.
     */
    public static boolean startsLikeOne(String head) {
        for (String line : head.split("\n")) {
            String t = line.strip();
            if (!t.startsWith("#")) {
                return t.startsWith("Value") || t.startsWith("\"Value\"");
            }
        }
        return false;
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
        String unit = null;
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            long number = 0;
            while ((line = in.readLine()) != null) {
                number++;
                String t = line.strip();
                if (number == 1 && t.startsWith(UNIT_PREFIX)) {
                    unit = unitOf(file, t.substring(UNIT_PREFIX.length()));
                    continue;
                }
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
        return new HgrmFile(file.getFileName().toString(), unit, rows);
    }

    private static String unitOf(Path file, String rest) {
        String unit = rest.split("[\\s\\]]", 2)[0];
        if (Double.isNaN(nsPerUnit(unit))) {
            throw new BadInputException(file + ":1: unknown unit '" + unit + "'; a .hgrm file's unit line names ns, us,"
                    + " ms or s");
        }
        return unit;
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
