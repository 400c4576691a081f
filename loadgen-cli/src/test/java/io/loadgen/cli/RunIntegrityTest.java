package io.loadgen.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.loadgen.plot.LogSeries;
import org.HdrHistogram.HistogramLogProcessor;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 24, items 4 and 5, on real runs: what report, gate and plot say of a run's log agrees with the run's JSON
 * (the warm-up left out, one run and four shards), and what does not add up is refused: a cut log's counts and
 * throughput, a damaged log's JSON, logs of two runs, one log under two names.
 */
class RunIntegrityTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    private static String path(String name) {
        return dir.resolve(name).toString();
    }

    @BeforeAll
    static void run() {
        Cli warm = Cli.run("run", "--driver", "mockdb", "-p", "mockdb.delay=1ms", "--target", "400", "--duration", "3s",
                "--warmup", "1s", "--interval", "250ms", "--seed", "3", "-q", "--hlog", path("warm.hlog"), "--json",
                path("warm.json"));
        assertEquals(0, warm.exitCode, warm.err);
        Cli other = Cli.run("run", "--driver", "mockdb", "--target", "200", "--duration", "1s", "--interval", "250ms",
                "-q", "--hlog", path("other.hlog"));
        assertEquals(0, other.exitCode, other.err);
    }

    private static JsonNode json(String text) throws Exception {
        return JSON.readTree(text);
    }

    @Test
    void reportAndGateCountWhatTheRunCountedAndHistogramLogProcessorsOptionsWhatItCounts() throws Exception {
        JsonNode run = JSON.readTree(Path.of(path("warm.json")).toFile());
        long count = run.at("/operations/READ/intended/count").asLong();
        assertTrue(count > 0);
        Cli report = Cli.run("report", path("warm.hlog"), "--json", "-");
        assertEquals(0, report.exitCode, report.err);
        JsonNode merged = json(report.out);
        assertEquals(count, merged.at("/operations/READ/intended/count").asLong(), "the run's count, not its warm-up's");
        assertEquals(run.at("/operations/READ/count").asLong(), merged.at("/operations/READ/count").asLong());
        assertTrue(run.path("run_id").asText().matches("[0-9a-f-]{36}"), run.toString());
        assertEquals(run.path("run_id"), merged.path("run_id"), "report names the run its log is of");
        assertFalse(merged.at("/integrity/damaged").asBoolean(true));
        assertTrue(merged.at("/integrity/partial").isNull(), "the run wrote its closing line");
        Cli gate = Cli.run("gate", path("warm.hlog"), "--rule", "READ.intended.count >= " + count, "--rule",
                "READ.intended.count <= " + count);
        assertEquals(0, gate.exitCode, gate.out + gate.err);
        LogSeries drawn = LogSeries.read(List.of(Path.of(path("warm.hlog"))), LogSeries.Selection.all(), w -> { });
        assertEquals(count, drawn.series("READ.intended").total().getTotalCount(), "plot draws the run's operations");

        // HistogramLogProcessor's option set gives HistogramLogProcessor's bytes: every line, the warm-up's too.
        new HistogramLogProcessor(new String[]{"-i", path("warm.hlog"), "-o", path("hlp"), "-tag", "READ.intended"}).run();
        Cli hlp = Cli.run("report", "-i", path("warm.hlog"), "-o", path("ours"), "-tag", "READ.intended");
        assertEquals(0, hlp.exitCode, hlp.err);
        assertArrayEquals(Files.readAllBytes(Path.of(path("hlp.hgrm"))), Files.readAllBytes(Path.of(path("ours.hgrm"))));
        assertArrayEquals(Files.readAllBytes(Path.of(path("hlp"))), Files.readAllBytes(Path.of(path("ours"))));
        Cli included = Cli.run("report", path("warm.hlog"), "--include-warmup", "--json", "-");
        long withWarmup = json(included.out).at("/operations/READ/intended/count").asLong();
        assertTrue(withWarmup > count, "the warm-up's second holds operations: " + withWarmup + " vs " + count);
        assertTrue(Files.readString(Path.of(path("hlp.hgrm"))).contains("Total count    =" + String.format("%13d", withWarmup)),
                "HistogramLogProcessor counts what --include-warmup counts");
    }

    @Test
    void fourShardsLogsAddUpToTheirJsonsAndShardsOfAnotherRunAreRefused() throws Exception {
        long sum = 0;
        List<String> logs = new ArrayList<>();
        String id = null;
        for (int i = 0; i < 4; i++) {
            Cli shard = Cli.run("run", "--driver", "mockdb", "-p", "mockdb.delay=1ms", "--target", "800", "--duration",
                    "2s", "--warmup", "1s", "--interval", "250ms", "--shard", i + "/4", "-q", "--hlog",
                    path("shard-" + i + ".hlog"), "--json", path("shard-" + i + ".json"));
            assertEquals(0, shard.exitCode, shard.err);
            JsonNode j = JSON.readTree(Path.of(path("shard-" + i + ".json")).toFile());
            sum += j.at("/operations/READ/count").asLong();
            id = id == null ? j.path("run_id").asText() : id;
            assertEquals(id, j.path("run_id").asText(), "the shards of one run share its id");
            logs.add(path("shard-" + i + ".hlog"));
        }
        List<String> args = new ArrayList<>(List.of("report", "--json", "-"));
        args.addAll(logs);
        Cli report = Cli.run(args.toArray(String[]::new));
        assertEquals(0, report.exitCode, report.err);
        assertEquals(sum, json(report.out).at("/operations/READ/count").asLong(),
                "the merged logs count what the four shards' JSONs count");
        assertEquals(id, json(report.out).path("run_id").asText());

        // Shard 3 of another run (another id) with the first three of this one: refused by report, gate and plot.
        Path stranger = dir.resolve("stranger-3.hlog");
        Files.writeString(stranger, Files.readString(Path.of(logs.get(3))).replace("#[run_id: " + id + "]",
                "#[run_id: 00000000-0000-4000-8000-000000000003]"));
        String[] mixed = {logs.get(0), logs.get(1), logs.get(2), stranger.toString()};
        String refusal = "loadgen: " + stranger + " is of run 00000000-0000-4000-8000-000000000003 but " + logs.get(0)
                + " of run " + id + ": logs of different runs do not merge into one run's numbers; give one run's"
                + " logs, or --allow-mixed to merge them anyway\n";
        for (String command : new String[]{"report", "plot"}) {
            List<String> a = new ArrayList<>(List.of(command));
            a.addAll(List.of(mixed));
            Cli refused = Cli.run(a.toArray(String[]::new));
            assertEquals(Main.EXIT_DAMAGED_INPUT, refused.exitCode, command + ": " + refused.err);
            assertEquals(refusal, refused.err, command);
        }
        Cli gate = Cli.run("gate", mixed[0], mixed[1], mixed[2], mixed[3], "--rule", "READ.intended.p99 < 10s");
        assertEquals(Main.EXIT_DAMAGED_INPUT, gate.exitCode, gate.err);
        assertEquals(refusal, gate.err);
        Cli allowed = Cli.run("report", mixed[0], mixed[1], mixed[2], mixed[3], "--allow-mixed", "--json", "-");
        assertEquals(0, allowed.exitCode, allowed.err);
    }

    @Test
    void aCutLogSaysHowMuchItHoldsAndItsCountsDoNotPassAGate() throws Exception {
        // Killed 1.5 s into its 3 s: the intervals before, and no closing line.
        List<String> kept = new ArrayList<>();
        for (String line : Files.readAllLines(Path.of(path("warm.hlog")))) {
            if (line.startsWith("#[run end: ")) {
                break;
            }
            if (!line.startsWith("Tag=") || Double.parseDouble(line.split(",")[1]) < 1.5) {
                kept.add(line);
            }
        }
        Path cut = dir.resolve("cut.hlog");
        Files.write(cut, kept);
        Cli report = Cli.run("report", cut.toString(), "--json", path("cut.json"));
        assertEquals(0, report.exitCode, report.err);
        JsonNode partial = JSON.readTree(Path.of(path("cut.json")).toFile()).at("/integrity/partial");
        assertEquals(3.0, partial.path("planned_s").asDouble());
        double held = partial.path("held_s").asDouble();
        assertEquals(1.5, held, 0.1, "the last interval kept ends about 1.5 s in");
        assertEquals(held / 3.0, partial.path("fraction").asDouble(), 0.001);
        String holds = String.format(Locale.ROOT, "the log holds %.1f s of a 3 s run (%.0f %%)", held, 100 * held / 3);
        assertEquals("loadgen: partial: " + holds + ", cut without its closing #[run end] line (a killed run, a full"
                + " disk): counts and throughput are of that part only\n", report.err);
        Cli plot = Cli.run("plot", cut.toString(), "-o", path("cut-charts"));
        assertEquals(0, plot.exitCode, plot.err);
        assertEquals("warning: " + cut + ": partial: " + holds + ", cut without its closing #[run end] line; the"
                + " charts show that part\n", plot.err);
        for (String input : new String[]{cut.toString(), path("cut.json")}) {
            Cli gate = Cli.run("gate", input, "--rule", "throughput > 1/s", "--rule", "READ.intended.p99 < 10s");
            assertEquals(Main.EXIT_GATE_FAILED, gate.exitCode, gate.out + gate.err);
            assertTrue(gate.out.contains(" but partial: " + holds), gate.out);
            assertTrue(gate.out.contains("FAILED: 1 of 2 gates failed"), "the latency rule still judges: " + gate.out);
            Cli allowed = Cli.run("gate", input, "--rule", "throughput > 1/s", "--allow-partial");
            assertEquals(0, allowed.exitCode, allowed.out + allowed.err);
        }
    }

    @Test
    void aDamagedLogsJsonIsRefusedAsTheLogIs() throws Exception {
        List<String> lines = new ArrayList<>(Files.readAllLines(Path.of(path("warm.hlog"))));
        List<String> intended = lines.stream().filter(l -> l.startsWith("Tag=READ.intended,")).toList();
        lines.add(lines.indexOf(intended.get(7)), intended.get(5)); // an interval written twice, later
        Path damaged = dir.resolve("damaged.hlog");
        Files.write(damaged, lines);
        Cli report = Cli.run("report", damaged.toString(), "--json", path("damaged.json"));
        assertEquals(0, report.exitCode, report.err);
        Cli onLog = Cli.run("gate", damaged.toString(), "--rule", "throughput > 1/s");
        Cli onJson = Cli.run("gate", path("damaged.json"), "--rule", "throughput > 1/s");
        for (Cli gate : List.of(onLog, onJson)) {
            assertEquals(Main.EXIT_DAMAGED_INPUT, gate.exitCode, gate.out + gate.err);
            assertTrue(gate.out.lines().skip(1).findFirst().orElseThrow().matches("input intact: \\S+ +1 overlapping"
                    + " interval +intact +FAIL"), gate.out);
        }
    }

    @Test
    void oneLogUnderTwoNamesIsRefusedInOneLine() throws Exception {
        Path gz = dir.resolve("warm-copy.hlog.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
            out.write(Files.readAllBytes(Path.of(path("warm.hlog"))));
        }
        String twice = gz + " holds the same intervals as " + path("warm.hlog") + " (one log under two names); its"
                + " intervals would count twice: give each log once\n";
        Cli report = Cli.run("report", path("warm.hlog"), gz.toString());
        assertEquals(Main.EXIT_DAMAGED_INPUT, report.exitCode, report.err);
        assertEquals("loadgen: not merged: " + twice, report.err);
        Cli plot = Cli.run("plot", path("warm.hlog"), gz.toString(), "-o", path("charts"));
        assertEquals(Main.EXIT_DAMAGED_INPUT, plot.exitCode, plot.err);
        assertEquals("loadgen: not plotted: " + twice, plot.err, "was an IllegalArgumentException");
        Cli gate = Cli.run("gate", path("warm.hlog"), gz.toString(), "--rule", "throughput > 1/s");
        assertEquals(Main.EXIT_DAMAGED_INPUT, gate.exitCode, gate.out + gate.err);
        assertTrue(gate.err.startsWith("warning: " + twice), gate.err);
    }

    @Test
    void logsOfTwoRunsAreRefusedUnlessMixingIsAllowed() {
        Cli report = Cli.run("report", path("warm.hlog"), path("other.hlog"));
        assertEquals(Main.EXIT_DAMAGED_INPUT, report.exitCode, report.err);
        assertTrue(report.err.matches("loadgen: \\S+other.hlog is of run \\S+ but \\S+warm.hlog of run \\S+: logs of"
                + " different runs do not merge into one run's numbers; give one run's logs, or --allow-mixed to merge"
                + " them anyway\n"), report.err);
        Cli gate = Cli.run("gate", path("warm.hlog"), path("other.hlog"), "--rule", "throughput > 1/s");
        assertEquals(Main.EXIT_DAMAGED_INPUT, gate.exitCode, gate.err);
        assertEquals(report.err, gate.err);
        assertEquals(0, Cli.run("report", path("warm.hlog"), path("other.hlog"), "--allow-mixed").exitCode);
        assertEquals(0, Cli.run("gate", path("warm.hlog"), path("other.hlog"), "--allow-mixed", "--rule",
                "throughput > 1/s").exitCode);
    }
}
