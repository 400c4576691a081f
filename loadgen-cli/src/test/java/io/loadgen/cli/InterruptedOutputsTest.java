package io.loadgen.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A run interrupted (SIGTERM, a real child process) writes everything it measured (issue 24 item 6): its charts
 * when --plot asks for them, and, stopped while waiting for --start-at, a log of its header alone rather than an
 * interval of negative length.
 */
class InterruptedOutputsTest {
    @TempDir
    Path dir;

    private static void sigterm(ChildProcess child) throws Exception {
        Process kill = new ProcessBuilder("kill", "-TERM", Long.toString(child.process.pid())).start();
        assertEquals(0, kill.waitFor());
    }

    @Test
    void aRunStoppedBeforeItsStartAtWritesNoIntervalAndSaysSo() throws Exception {
        Path hlog = dir.resolve("run.hlog");
        Path json = dir.resolve("run.json");
        Instant startAt = Instant.now().plusSeconds(120);
        ChildProcess child = ChildProcess.java(ChildProcess.testClasspath(), Main.class.getName(),
                "run", "--driver", "noop", "--target", "100", "--duration", "5s", "--start-at", startAt.toString(),
                "--hlog", hlog.toString(), "--json", json.toString(), "--plot", dir.resolve("charts").toString());
        assertTrue(child.awaitErr("for --start-at", 60), "waiting for its start: " + child.err());
        sigterm(child);
        int exit = child.awaitExit(30);

        assertEquals(143, exit, child.err());
        assertTrue(child.err().contains("loadgen: interrupted before --start-at; nothing was measured"), child.err());
        assertTrue(child.err().contains("before --start-at " + startAt.truncatedTo(java.time.temporal.ChronoUnit.MILLIS)
                + ": nothing was issued or measured, and the interval log holds its header only"), child.err());
        List<String> intervals = Files.readAllLines(hlog).stream()
                .filter(l -> !l.startsWith("#") && !l.startsWith("\"")).toList();
        assertEquals(List.of(), intervals, "no interval, so none of negative length");
        assertTrue(Files.readString(hlog).contains("#[StartTime: " + startAt.getEpochSecond()), "the header is there");
        JsonNode summary = new ObjectMapper().readTree(json.toFile());
        assertEquals("interrupted", summary.get("stop_reason").asText());
        assertEquals(0.0, summary.get("duration_s").asDouble());
        assertTrue(child.err().contains("--plot: nothing was measured, so no chart is drawn"), child.err());
    }

    @Test
    void anInterruptedRunDrawsItsCharts() throws Exception {
        Path charts = dir.resolve("charts");
        ChildProcess child = ChildProcess.java(ChildProcess.testClasspath(), Main.class.getName(),
                "run", "--driver", "noop", "--target", "200", "--duration", "60s", "--interval", "200ms",
                "--plot", charts.toString());
        assertTrue(child.awaitStatusLine(60), "the run started: " + child.err());
        Thread.sleep(1_000);
        sigterm(child);
        int exit = child.awaitExit(60);

        assertEquals(143, exit, child.err());
        for (String chart : List.of("run.percentiles.png", "run.over-time.png", "run.html")) {
            assertTrue(Files.size(charts.resolve(chart)) > 1000, chart + " drawn: " + child.err());
            assertTrue(child.err().contains("loadgen: wrote " + charts.resolve(chart)), child.err());
        }
    }
}
