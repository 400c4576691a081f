package io.loadgen.core.run;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadgen.core.driver.Status;
import io.loadgen.core.gate.Gate;
import io.loadgen.core.gate.RuleParser;
import io.loadgen.core.gate.TimeRange;
import io.loadgen.core.gate.Verdict;
import io.loadgen.core.log.LogReport;
import io.loadgen.core.log.LogReportOptions;
import io.loadgen.core.log.LogSet;
import io.loadgen.core.log.LogSummary;
import io.loadgen.core.record.StatusTags;
import io.loadgen.core.summary.JsonSummary;
import io.loadgen.core.summary.OpResult;
import io.loadgen.core.summary.RunResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The interval log keeps every operation's status (the {@code OP.status} lines), so what the JSON
 * summary says about errors can be said from the log too: totals, {@code report --json}, and error
 * gates on the log, also window by window.
 */
class StatusInLogTest {
    @TempDir
    Path dir;

    @Test
    void theLogCountsEveryStatusTheSummaryCounts() throws Exception {
        // Key numbers divisible by 10 fail with ERROR, by 7 (otherwise) with NOT_FOUND: 10% and ~12.9% of operations.
        FunctionDriver driver = new FunctionDriver(op -> op.keyNumber() % 10 == 0 ? Status.ERROR
                : op.keyNumber() % 7 == 0 ? Status.NOT_FOUND : Status.OK);
        Path log = dir.resolve("status.hlog");
        RunOptions options = RunOptions.builder("function").target(3000.0).threads(2).duration(Duration.ofMillis(900))
                .interval(Duration.ofMillis(150)).hlog(log).build();
        RunResult result = new LoadRun(options, driver, null).run();
        OpResult read = result.operations().get(0);
        assertTrue(read.errors() > 100, "errors: " + read.errors());

        long[] logged = StatusTags.counts(LoadRunTest.readLog(log).get("READ.status"));
        for (Status s : Status.values()) {
            assertEquals(read.statusCount(s), logged[s.ordinal()], s.name());
        }

        List<LogReport.TagTotal> totals;
        LogReportOptions all = new LogReportOptions();
        all.selection = LogReportOptions.TagSelection.ALL;
        List<String> comments;
        try (LogSet set = LogSet.open(List.of(log), w -> { }); PrintStream nowhere = new PrintStream(OutputStream.nullOutputStream())) {
            totals = new LogReport(all, nowhere, null).run(set);
            comments = set.comments();
        }
        ObjectNode fromLog = LogSummary.byOperation(totals, comments, List.of(log.toString()));
        ObjectNode fromRun = JsonSummary.toJson(result);
        assertEquals(fromRun.at("/operations/READ/errors"), fromLog.at("/operations/READ/errors"));
        assertEquals(fromRun.at("/operations/READ/returns"), fromLog.at("/operations/READ/returns"));

        // An error gate on the log reads the same share as on the run; and window by window.
        double share = 100.0 * read.errors() / read.count();
        List<Verdict> verdicts = Gate.evaluate(List.of(log), TimeRange.ALL, List.of(
                RuleParser.parse("READ.errors < " + (share + 1) + "%"),
                RuleParser.parse("READ.errors < " + (share - 1) + "%"),
                RuleParser.parse("errors < 1% over 300ms windows")), null, null, w -> { });
        assertTrue(verdicts.get(0).passed(), verdicts.toString());
        assertFalse(verdicts.get(1).passed(), verdicts.toString());
        assertFalse(verdicts.get(2).passed(), "every window has ~23% failed operations: " + verdicts);
        assertTrue(verdicts.get(0).observed().contains("(" + read.errors() + " of " + read.count() + ")"),
                verdicts.get(0).observed());
    }

    @Test
    void theHeaderSaysWhatTheStatusValuesMean() {
        assertEquals("0=OK 1=ERROR 2=NOT_FOUND 3=NOT_IMPLEMENTED 4=UNEXPECTED_STATE 5=BAD_REQUEST 6=FORBIDDEN"
                + " 7=SERVICE_UNAVAILABLE 8=TIMEOUT", StatusTags.legend());
    }
}
