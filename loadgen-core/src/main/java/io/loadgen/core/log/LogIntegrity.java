package io.loadgen.core.log;

import java.util.ArrayList;
import java.util.List;

/**
 * What reading a set of logs found wrong with them, for a consumer that must not judge incomplete data
 * ({@code gate}): corrupt lines skipped, intervals that overlap an earlier one of the same tag (written
 * twice, or two runs on one file), a file given twice. A torn last line, what a killed run leaves, is
 * expected and does not count as damage.
 */
public record LogIntegrity(long corruptLines, long overlappingIntervals, int repeatedFiles, boolean tornTail) {
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
}
