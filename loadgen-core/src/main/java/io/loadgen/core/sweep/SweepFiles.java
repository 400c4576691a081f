package io.loadgen.core.sweep;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadgen.core.summary.JsonSummary;
import io.loadgen.core.output.AtomicFile;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes a sweep's steps as CSV (the table's columns, machine-readable names; {@code kept_up} is
 * {@code true} or {@code false}, {@code diagnosis} the step's primary cause code) and as JSON (a list with one object per step: {@code step},
 * {@code offered_ops_per_sec}, {@code achieved_ops_per_sec}, {@code kept_up} and
 * {@code keep_up_min_ops_per_sec} ({@link KeepUpRule}), then every key of that step's
 * {@link JsonSummary#toJson}, so a gate reads a step like a run).
 * Stateless; main thread.
 */
public final class SweepFiles {
    static final String CSV_HEADER_BEFORE_DIAGNOSIS = "offered_ops_per_sec,achieved_ops_per_sec,intended_p50_ms,"
            + "intended_p99_ms,intended_p99_9_ms,intended_max_ms,service_p99_ms,errors,unissued,kept_up";
    static final String CSV_HEADER = CSV_HEADER_BEFORE_DIAGNOSIS + ",diagnosis";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private SweepFiles() {
    }

    public static void writeCsv(List<SweepStep> steps, Path file) throws IOException {
        AtomicFile.write(file, out -> {
            Writer w = new java.io.OutputStreamWriter(out, java.nio.charset.StandardCharsets.UTF_8);
            w.write(CSV_HEADER + "\n");
            for (SweepStep step : steps) {
                w.write(String.join(",", SweepTable.csvCells(step)) + "\n");
            }
            w.flush();
        });
    }

    public static ArrayNode toJson(List<SweepStep> steps) {
        ArrayNode list = JsonNodeFactory.instance.arrayNode();
        for (SweepStep step : steps) {
            ObjectNode node = list.addObject();
            node.put("step", step.number());
            node.put("offered_ops_per_sec", step.offeredOpsPerSec());
            node.put("achieved_ops_per_sec", step.achievedOpsPerSec());
            node.put("kept_up", step.keptUp());
            node.put("keep_up_min_ops_per_sec", KeepUpRule.minimumOpsPerSec(step));
            node.setAll(JsonSummary.toJson(step.result()));
        }
        return list;
    }

    public static void writeJson(List<SweepStep> steps, Path file) throws IOException {
        AtomicFile.write(file, out -> writeJson(steps, out));
    }

    /** Writes the JSON list to {@code out} (standard output, for {@code --json -}) and flushes it; does not close it. */
    public static void writeJson(List<SweepStep> steps, OutputStream out) throws IOException {
        MAPPER.writerWithDefaultPrettyPrinter().without(JsonGenerator.Feature.AUTO_CLOSE_TARGET).writeValue(out, toJson(steps));
        out.flush();
    }
}
