package io.loadgen.plot.html;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadgen.core.log.LogReport;
import io.loadgen.core.log.LogReport.TagTotal;
import io.loadgen.core.log.LogReportOptions;
import io.loadgen.core.log.LogSet;
import io.loadgen.core.log.LogSummary;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * What {@code loadgen report LOG --tag T --start S --end E} computes, through core's {@link LogReport}
 * as the command runs it: the summed histogram, and {@code --json - --json-by tag}'s view of it (µs).
 * Test thread.
 */
record ReportWindow(Histogram histogram, int intervals, ObjectNode json) {
    static ReportWindow of(Path log, String tag, double startSec, double endSec) throws IOException {
        LogReportOptions o = new LogReportOptions();
        o.selection = LogReportOptions.TagSelection.ONE;
        o.tag = tag;
        o.rangeStartSec = startSec;
        o.rangeEndSec = endSec;
        try (LogSet set = LogSet.open(List.of(log), w -> { });
             PrintStream nowhere = new PrintStream(OutputStream.nullOutputStream())) {
            List<TagTotal> totals = new LogReport(o, nowhere, null).run(set);
            ObjectNode byTag = LogSummary.byTag(totals, List.of(log.toString()));
            return new ReportWindow(totals.get(0).histogram(), totals.get(0).intervals(), (ObjectNode) byTag.path("tags").get(tag)); // null for OP.status
        }
    }
}
