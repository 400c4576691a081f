package io.loadgen.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.loadgen.core.record.Histograms;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code run --trace} end to end, in a child process stopped by SIGTERM: the trace is flushed and whole (gzip's
 * trailer checks its length and CRC), it holds every operation of the summary once, and the max of
 * {@code end - intended} over its rows is the summary's intended max.
 */
class TraceTest {
    @TempDir
    Path dir;

    /**
     * mockdb at 1 ms with a 40 ms pause every 300 ms (a stall every worker waits behind, so intended latencies reach
     * tens of ms), 2 threads at 500 ops/s, stopped by SIGTERM after its first status lines.
     */
    @Test
    void sigtermFlushesAWholeTraceOfEveryOperation() throws Exception {
        Path trace = dir.resolve("t.csv.gz");
        Path json = dir.resolve("run.json");
        ChildProcess child = ChildProcess.java(ChildProcess.testClasspath(), Main.class.getName(),
                "run", "--driver", "mockdb", "-p", "mockdb.delay=1ms", "-p", "mockdb.pause.every=300ms",
                "-p", "mockdb.pause.length=40ms", "--target", "500", "--threads", "2", "--duration", "60s",
                "--interval", "200ms", "--trace", trace.toString(), "--json", json.toString());
        assertTrue(child.awaitStatusLine(30), "the run started: " + child.err());
        Thread.sleep(1_000);
        assertEquals(0, new ProcessBuilder("kill", "-TERM", Long.toString(child.process.pid())).start().waitFor());
        assertEquals(143, child.awaitExit(30), child.err());

        JsonNode summary = new ObjectMapper().readTree(json.toFile());
        assertEquals("interrupted", summary.get("stop_reason").asText());
        long count = summary.at("/operations/READ/count").asLong();
        assertTrue(count > 100, "operations: " + count);
        long rows = 0;
        long ok = 0;
        Histogram intended = Histograms.newHistogram();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(
                new GZIPInputStream(Files.newInputStream(trace)), StandardCharsets.UTF_8))) {
            assertEquals("intended_start_ns,actual_start_ns,end_ns,op,status,worker", in.readLine());
            String line;
            while ((line = in.readLine()) != null) { // to the end: a truncated gzip stream throws here
                String[] f = line.split(",");
                rows++;
                if (f[4].equals("OK")) {
                    ok++;
                    intended.recordValue(Long.parseLong(f[2]) - Long.parseLong(f[0]));
                }
            }
        }
        assertEquals(count, rows, "every operation of the summary is in the trace once");
        assertEquals(summary.at("/operations/READ/returns/OK").asLong(), ok);
        assertEquals(rows, summary.at("/harness/trace_rows").asLong());
        assertEquals(0, summary.at("/harness/trace_dropped_rows").asLong());
        assertTrue(intended.getMaxValue() > 20_000_000L, "a pause is in the trace: " + intended.getMaxValue());
        assertEquals(summary.at("/operations/READ/intended/max_us").asDouble(), intended.getMaxValue() / 1000.0,
                "the rows' max of end - intended is the summary's, to HdrHistogram's precision");
        assertTrue(child.err().contains("loadgen: wrote " + trace + ": " + rows + " operations, "), child.err());
    }

    @Test
    void rowsTheWriterDroppedAreCountedOnStderr() {
        io.loadgen.core.trace.TraceSummary summary = new io.loadgen.core.trace.TraceSummary(Path.of("t.csv.gz"),
                1000, 250, 42_000, 10_650, 1_000_000);
        assertEquals(java.util.List.of("loadgen: wrote t.csv.gz: 1000 operations, 10650 bytes (10.7 per operation)",
                "loadgen: --trace: 250 operations not traced: the trace writer fell behind and their workers' rings"
                        + " were full (workers never wait for it, so these operations are in every view and count,"
                        + " only not in the trace)"), RunReporter.traceLines(summary));
        assertEquals(1, RunReporter.traceLines(new io.loadgen.core.trace.TraceSummary(Path.of("t.csv"), 1, 0, 60, 60,
                -1)).size(), "nothing dropped, nothing said about it");
    }
}
