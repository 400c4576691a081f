package io.loadgen.core.log;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What reading a set of logs found wrong with them, for a consumer that must not judge incomplete data
 * ({@code gate}): corrupt lines skipped, intervals that overlap an earlier one of the same tag (written
 * twice, or two runs on one file), a file given twice (or the same log under two names). A torn last line,
 * what a killed run leaves, is expected and does not count as damage. A log that was cut ({@link #cut()}: a
 * loadgen log whose closing {@code #[run end: ...]} line is missing, as a killed run or a full disk leaves it)
 * is not damaged but partial: it holds {@link #heldSec()} of a run planned for {@link #plannedSec()}, so its
 * counts and throughput are not the run's. {@code report --json} writes this as its {@code integrity} block
 * ({@link #toJson()}), and a gate reads it back ({@link #fromJson}) to judge the JSON as it would the log.
 *
 * @param heldSec    for a cut log, the time it holds from its StartTime to its last interval's end; else 0
 * @param plannedSec for a cut log, the run's planned {@code --duration}; NaN when unknown or not cut
 */
public record LogIntegrity(long corruptLines, long overlappingIntervals, int repeatedFiles, boolean tornTail,
                           boolean cut, double heldSec, double plannedSec) {
    /** A log set's findings when no log was cut. */
    public LogIntegrity(long corruptLines, long overlappingIntervals, int repeatedFiles, boolean tornTail) {
        this(corruptLines, overlappingIntervals, repeatedFiles, tornTail, false, 0.0, Double.NaN);
    }

    /** True when the data read is not the whole and only data of the run(s). */
    public boolean damaged() {
        return corruptLines > 0 || overlappingIntervals > 0 || repeatedFiles > 0;
    }

    /** What is wrong, for a table cell: {@code 3 corrupt lines, 1 file given twice}; "intact" when nothing is. */
    public String describe() {
        List<String> parts = new ArrayList<>();
        if (corruptLines > 0) {
            parts.add(corruptLines + " corrupt line" + (corruptLines == 1 ? "" : "s") + " skipped");
        }
        if (overlappingIntervals > 0) {
            parts.add(overlappingIntervals + " overlapping interval" + (overlappingIntervals == 1 ? "" : "s"));
        }
        if (repeatedFiles > 0) {
            parts.add(repeatedFiles + " file" + (repeatedFiles == 1 ? "" : "s") + " given twice");
        }
        return parts.isEmpty() ? "intact" : String.join(", ", parts);
    }

    /**
     * How much of the run a cut log holds, e.g. {@code the log holds 3.0 s of a 20 s run (15 %)}, or {@code the
     * log was cut after 3.0 s} when the planned length is unknown; empty when not cut.
     */
    public String describePartial() {
        if (!cut) {
            return "";
        }
        if (Double.isNaN(plannedSec) || plannedSec <= 0) {
            return String.format(Locale.ROOT, "the log was cut after %.1f s", heldSec);
        }
        return String.format(Locale.ROOT, "the log holds %.1f s of a %s s run (%.0f %%)", heldSec, number(plannedSec),
                100.0 * Math.min(1.0, heldSec / plannedSec));
    }

    /** The {@code integrity} block of {@code report --json}. */
    public ObjectNode toJson() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("damaged", damaged());
        node.put("corrupt_lines", corruptLines);
        node.put("overlapping_intervals", overlappingIntervals);
        node.put("repeated_files", repeatedFiles);
        node.put("torn_tail", tornTail);
        if (cut) {
            ObjectNode partial = node.putObject("partial");
            partial.put("held_s", Math.round(heldSec * 1000.0) / 1000.0);
            if (Double.isNaN(plannedSec)) {
                partial.putNull("planned_s");
                partial.putNull("fraction");
            } else {
                partial.put("planned_s", plannedSec);
                partial.put("fraction", Math.round(1e4 * Math.min(1.0, heldSec / plannedSec)) / 1e4);
            }
        } else {
            node.putNull("partial");
        }
        return node;
    }

    /** The findings an {@code integrity} block states ({@link #toJson()}); null when {@code node} is none. */
    public static LogIntegrity fromJson(JsonNode node) {
        if (node == null || !node.isObject()) {
            return null;
        }
        JsonNode partial = node.get("partial");
        boolean cut = partial != null && partial.isObject();
        return new LogIntegrity(node.path("corrupt_lines").asLong(0), node.path("overlapping_intervals").asLong(0),
                node.path("repeated_files").asInt(0), node.path("torn_tail").asBoolean(false), cut,
                cut ? partial.path("held_s").asDouble(0.0) : 0.0,
                cut && partial.path("planned_s").isNumber() ? partial.path("planned_s").asDouble() : Double.NaN);
    }

    private static String number(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
