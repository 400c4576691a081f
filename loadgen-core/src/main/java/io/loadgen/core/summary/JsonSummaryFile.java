package io.loadgen.core.summary;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.loadgen.core.BadInputException;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The percentiles a JSON summary ({@code run --json}, {@code report --json}; schema in {@link JsonSummary})
 * holds, read back per operation type and view: {@code min}, p50, p90, p95, p99, p99.9, p99.99 and max of
 * {@code operations.OP.intended}, {@code .service}, {@code .corrected}, {@code .failed.intended} and
 * {@code .failed.service} (views that are null or empty are left out), and {@code harness.lag}. Stateless.
 */
public final class JsonSummaryFile {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** The summary's percentile keys and the percentile each holds; 0 is the min, 100 the max. */
    private static final String[] KEYS = {"min_us", "p50_us", "p90_us", "p95_us", "p99_us", "p99_9_us", "p99_99_us", "max_us"};
    private static final double[] PERCENTILES = {0, 50, 90, 95, 99, 99.9, 99.99, 100};

    private JsonSummaryFile() {
    }

    /** One value of a series: the percentile (0 to 100) and its latency in ns. */
    public record Point(double percentile, double valueNs) {
    }

    /**
     * One view of one operation type.
     *
     * @param tag    named as the interval log's tag, e.g. {@code READ.intended}, {@code READ.failed.service}
     * @param count  values in the view
     * @param points its percentiles, lowest first
     */
    public record Series(String tag, long count, List<Point> points) {
    }

    /**
     * Every non-empty view of the summary in {@code file}.
     *
     * @throws BadInputException when the file is missing, not JSON, or not a run summary
     */
    public static List<Series> read(Path file) {
        JsonNode root = tree(file);
        List<Series> all = new ArrayList<>();
        Iterator<Map.Entry<String, JsonNode>> ops = root.get("operations").fields();
        while (ops.hasNext()) {
            Map.Entry<String, JsonNode> op = ops.next();
            for (String view : new String[]{"intended", "service", "corrected"}) {
                add(all, op.getKey() + "." + view, op.getValue().path(view));
            }
            for (String view : new String[]{"intended", "service"}) {
                add(all, op.getKey() + ".failed." + view, op.getValue().path("failed").path(view));
            }
        }
        add(all, "harness.lag", root.path("harness").path("lag"));
        return all;
    }

    /**
     * The summary in {@code file} as a JSON tree, for a reader that shows it whole (the HTML explorer).
     *
     * @throws BadInputException when the file is missing, not JSON, or not a run summary
     */
    public static JsonNode tree(Path file) {
        JsonNode root;
        try {
            root = MAPPER.readTree(file.toFile());
        } catch (JsonProcessingException e) {
            throw new BadInputException(io.loadgen.core.ParseErrors.at(file, e) + ": not valid JSON; give the file"
                    + " 'loadgen run --json FILE' wrote");
        } catch (NoSuchFileException | java.io.FileNotFoundException e) {
            throw new BadInputException("JSON summary " + file + " does not exist; give the file 'loadgen run --json FILE' wrote");
        } catch (IOException e) {
            throw new BadInputException("cannot read " + file + " (" + e.getMessage() + ")");
        }
        if (root == null || !root.path("operations").isObject()) {
            throw new BadInputException(file + " is not a run summary (it has no 'operations'); give the file"
                    + " 'loadgen run --json FILE' wrote");
        }
        return root;
    }

    private static void add(List<Series> all, String tag, JsonNode view) {
        if (!view.isObject() || view.path("count").asLong(0) == 0) {
            return;
        }
        List<Point> points = new ArrayList<>();
        for (int i = 0; i < KEYS.length; i++) {
            JsonNode v = view.get(KEYS[i]);
            if (v != null && v.isNumber()) {
                points.add(new Point(PERCENTILES[i], v.asDouble() * ReportedViews.NS_PER_US));
            }
        }
        all.add(new Series(tag, view.path("count").asLong(), points));
    }
}
