package io.loadgen.core.sweep;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.loadgen.core.BadInputException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Reads a sweep back from the files {@link SweepFiles} wrote: {@code sweep --csv} (the table's columns) or
 * {@code sweep --json} (a list of steps, each with its run summary), told apart by content. Each step
 * becomes a {@link SweepPoint} holding what the table printed. Stateless; any thread.
 */
public final class SweepResults {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final double NS_PER_MS = 1e6;
    private static final double NS_PER_US = 1e3;

    private SweepResults() {
    }

    /** True when {@code file} starts like a sweep's CSV or a JSON list, the two forms {@link #read} takes. */
    public static boolean looksLikeSweep(Path file) {
        try (java.io.InputStream in = Files.newInputStream(file)) {
            String head = new String(in.readNBytes(SweepFiles.CSV_HEADER.length() + 8), StandardCharsets.UTF_8).strip();
            return head.startsWith(SweepFiles.CSV_HEADER) || head.startsWith("[");
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * The steps of a sweep, in the order they ran.
     *
     * @throws BadInputException naming the file and what is wrong, for a file that is neither form
     */
    public static List<SweepPoint> read(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new BadInputException("sweep results " + file + " do not exist; give the file 'loadgen sweep --csv FILE'"
                    + " or '--json FILE' wrote");
        } catch (IOException e) {
            throw new BadInputException("cannot read " + file + " (" + e.getMessage() + ")");
        }
        String t = text.strip();
        List<SweepPoint> points = t.startsWith("[") ? fromJson(file, t) : fromCsv(file, t);
        if (points.isEmpty()) {
            throw new BadInputException(file + " holds no sweep steps; give the file 'loadgen sweep --csv FILE' or"
                    + " '--json FILE' wrote after at least one step");
        }
        return points;
    }

    private static List<SweepPoint> fromCsv(Path file, String text) {
        String[] lines = text.split("\r?\n");
        // A sweep from before the diagnosis column has the same columns but the last: both read alike.
        String header = lines[0].strip();
        boolean withDiagnosis = header.equals(SweepFiles.CSV_HEADER);
        if (!withDiagnosis && !header.equals(SweepFiles.CSV_HEADER_BEFORE_DIAGNOSIS)) {
            throw new BadInputException(file + " is not a sweep's CSV or JSON (its first line is not '"
                    + SweepFiles.CSV_HEADER + "'); give the file 'loadgen sweep --csv FILE' or '--json FILE' wrote");
        }
        List<SweepPoint> points = new ArrayList<>();
        for (int i = 1; i < lines.length; i++) {
            if (lines[i].isBlank()) {
                continue;
            }
            String[] c = lines[i].split(",", -1);
            try {
                int columns = withDiagnosis ? 11 : 10;
                if (c.length != columns) {
                    throw new NumberFormatException(c.length + " columns, not " + columns);
                }
                points.add(new SweepPoint(Double.parseDouble(c[0]), Double.parseDouble(c[1]), Boolean.parseBoolean(c[9]),
                        ms(c[2]), ms(c[3]), ms(c[4]), ms(c[5]), ms(c[6]), Long.parseLong(c[7]), Long.parseLong(c[8])));
            } catch (NumberFormatException e) {
                throw new BadInputException(file + ":" + (i + 1) + ": not a sweep row (" + e.getMessage() + ")");
            }
        }
        return points;
    }

    private static double ms(String cell) {
        return Double.parseDouble(cell) * NS_PER_MS;
    }

    private static List<SweepPoint> fromJson(Path file, String text) {
        JsonNode root;
        try {
            root = MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new BadInputException(io.loadgen.core.ParseErrors.at(file, e) + ": not valid JSON; give the file"
                    + " 'loadgen sweep --json FILE' wrote");
        }
        List<SweepPoint> points = new ArrayList<>();
        for (JsonNode step : root) {
            if (!step.has("offered_ops_per_sec") || !step.path("operations").isObject()) {
                throw new BadInputException(file + " is a JSON list but not a sweep's (a step lacks offered_ops_per_sec"
                        + " or operations); give the file 'loadgen sweep --json FILE' wrote");
            }
            points.add(point(file, step));
        }
        return points;
    }

    private static SweepPoint point(Path file, JsonNode step) {
        JsonNode ops = step.get("operations");
        if (ops.size() != 1) {
            throw new BadInputException(file + ": step " + step.path("step").asInt() + " has " + ops.size()
                    + " operation types, and a sweep's JSON keeps each apart; plot the sweep's CSV (sweep --csv FILE),"
                    + " whose columns sum them");
        }
        Iterator<Map.Entry<String, JsonNode>> only = ops.fields();
        JsonNode op = only.next().getValue();
        JsonNode intended = op.path("intended");
        long errors = op.path("errors").asLong(0);
        return new SweepPoint(step.get("offered_ops_per_sec").asDouble(), step.path("achieved_ops_per_sec").asDouble(),
                step.path("kept_up").asBoolean(), us(intended, "p50_us"), us(intended, "p99_us"),
                us(intended, "p99_9_us"), us(intended, "max_us"), us(op.path("service"), "p99_us"), errors,
                step.path("unissued_operations").asLong(0));
    }

    private static double us(JsonNode view, String key) {
        return view.path(key).asDouble(Double.NaN) * NS_PER_US;
    }
}
