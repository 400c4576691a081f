package io.loadgen.cli;

import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code run --rate-file}: ground truth for a rate changed by editing a file while mockdb runs, and a file
 * whose content is no rate, which is warned about once while the rate stays.
 */
class RateFileTest {
    @TempDir
    Path dir;

    @Test
    void editingTheRateFileChangesTheRateFromTheNextIntervalAndBadContentIsWarnedOnce() throws Exception {
        Path rate = dir.resolve("rate");
        Path hlog = dir.resolve("run.hlog");
        Files.writeString(rate, "1000\n");
        CompletableFuture<Cli> running = CompletableFuture.supplyAsync(() -> Cli.run("run", "--driver", "mockdb",
                "-p", "mockdb.delay=1ms", "--threads", "8", "--target", "1000", "--rate-file", rate.toString(),
                "--duration", "5s", "--interval", "500ms", "--seed", "5", "--hlog", hlog.toString(),
                "--json", dir.resolve("run.json").toString()));
        // Once the run has started (its log has its header), the rate goes to 3k; a second and a half later the
        // file holds no rate for the rest of the run (an editor's half-written save), twice over.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!(Files.exists(hlog) && Files.readString(hlog).contains("#[StartTime:")) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        Thread.sleep(700);
        Files.writeString(rate, "3k\n");
        Thread.sleep(1500);
        Files.writeString(rate, "3k+\n");
        Thread.sleep(600);
        Files.writeString(rate, "  3k+ \n");
        Cli cli = running.get(60, TimeUnit.SECONDS);
        assertEquals(0, cli.exitCode, cli.err);

        // The change is an event at an interval boundary (a multiple of 0.5 s from the start), with the new rate.
        Matcher m = Pattern.compile("#\\[event: kind=rate-change source=rate-file start=([0-9.]+) length_ms=0.000"
                + " rate_ops_s=3000]").matcher(Files.readString(hlog));
        assertTrue(m.find(), "no rate-change event in the log");
        double switchSec = Double.parseDouble(m.group(1));
        assertEquals(0, Math.IEEEremainder(switchSec, 0.5), 0.002, "at a boundary: " + switchSec);
        assertTrue(switchSec >= 1 && switchSec <= 3, "switched at " + switchSec);

        // Each whole interval's operations (successes and failures), by its start: 1000/s x 0.5 s = 500 before the
        // switch, 3000/s x 0.5 s = 1500 from it on (8 threads at 1 ms each carry up to 8000/s, so nothing queues;
        // operations count where they complete, 1 ms after they are due: give or take one boundary's few).
        // Generous: 15 %. The intended median stays near the 1 ms service time in every interval: nothing queues at
        // the switch (a burst would). The median, as this shared machine's stalls reach p99 in any interval (the
        // exact continuity of the schedules across a switch is RateChangeRunTest's, in core).
        Map<Double, long[]> byStart = new TreeMap<>(); // {count, median intended ns}
        HistogramLogReader reader = new HistogramLogReader(hlog.toFile());
        EncodableHistogram e;
        while ((e = reader.nextIntervalHistogram()) != null) {
            Histogram h = (Histogram) e;
            if (h.getTag().equals("READ.intended") || h.getTag().equals("READ.failed.intended")) {
                double startSec = Math.round((h.getStartTimeStamp() / 1000.0 - reader.getStartTimeSec()) * 1000) / 1000.0;
                long[] v = byStart.computeIfAbsent(startSec, k -> new long[2]);
                v[0] += h.getTotalCount();
                if (h.getTag().equals("READ.intended")) {
                    v[1] = h.getValueAtPercentile(50);
                }
            }
        }
        int checked = 0;
        for (Map.Entry<Double, long[]> iv : byStart.entrySet()) {
            double start = iv.getKey();
            if (start < 0.4 || start > 4.4 || Math.abs(Math.IEEEremainder(start, 0.5)) > 0.05) {
                continue; // the first interval holds the start-up, the last is partial
            }
            double expected = start + 0.25 < switchSec ? 500 : 1500;
            assertEquals(expected, iv.getValue()[0], expected * 0.15, "interval from " + start + " s");
            assertTrue(iv.getValue()[1] < 20_000_000L, "intended p50 " + iv.getValue()[1] + " ns from " + start + " s");
            checked++;
        }
        assertTrue(checked >= 7, "intervals checked: " + checked);

        // The summary offers the mean target in force: 1000/s until the switch, 3000/s for the rest of the 5 s.
        double offered = (1000 * switchSec + 3000 * (5 - switchSec)) / 5;
        var json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(dir.resolve("run.json").toFile());
        assertEquals(offered, json.get("target_ops_per_sec").asDouble(), offered * 0.001);
        assertEquals(offered, json.get("throughput_ops_per_sec").asDouble(), offered * 0.05);
        assertTrue(json.get("corrected_note").asText().contains("rate was changed"), json.toString());
        // So does a report of the log: no one target or interval fits it.
        Cli report = Cli.run("report", hlog.toString(), "--json", "-");
        assertEquals(0, report.exitCode, report.err);
        assertTrue(report.out.contains("the target rate was changed while the run went on"), report.out);

        // HdrHistogram's own processor still reads the log.
        Path out = dir.resolve("hlp");
        new org.HdrHistogram.HistogramLogProcessor(new String[]{"-i", hlog.toString(), "-o", out.toString(),
                "-tag", "READ.intended"}).run();
        assertTrue(Files.readString(Path.of(out + ".hgrm")).contains("Total count"));

        // The bad content is said once (the second save held the same after trimming), and the rate stayed.
        long warnings = cli.err.lines().filter(l -> l.contains("--rate-file") && l.contains("'3k+' is not a rate")).count();
        assertEquals(1, warnings, cli.err);
        assertTrue(cli.err.contains("the rate stays at 3,000 ops/s"), cli.err);
        assertEquals(1, Pattern.compile("#\\[event: kind=rate-change").matcher(Files.readString(hlog)).results().count());
    }
}
