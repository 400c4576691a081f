package io.loadgen.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code loadgen compare} and {@code gate --baseline} on real runs, end to end in this JVM: output shapes, bad input,
 * and the gate's significance test.
 *
 * <p>The runs, each 3.5 s with the first 1.5 s left out as warm-up, in 100 ms intervals (20 measured), workers
 * parking ({@code --wait park}: no spinning on a shared 2-core machine):
 * <ul>
 * <li>{@code base} and {@code slow} run at once, each in a JVM of its own ({@link #runAlone}). {@code base}: mockdb,
 * delay uniform in [0, 10 ms], 5,000 ops/s over 100 threads (each thread's operations 20 ms apart, more than the
 * longest delay, so none falls behind); {@code slow}: the same store with 11 ms, so
 * every percentile is 10 % higher (less the timer's overshoot, ~0.1 ms: p99 9.9 ms becomes 10.9 ms, +9.9 %).
 * 10,000 operations a run put p99's sampling error at sqrt(0.0099 / 10,000) x 10 ms = 0.01 ms (0.1 %), so the
 * change's interval is far above both 0 and 5 %: the gate's 'p99:+5%' fails, and compare says slower. The pair
 * runs again (at most twice) when either harness fell behind, a store's service p99 was not its own, or its interval
 * thread was held up ({@link #distortion}); the tests that need the two told apart skip, saying why, if the third
 * attempt was still distorted.</li>
 * <li>{@code noisy1} and {@code noisy2}: a store serving one operation at a time at 2,500 ops/s, asked for 2,000
 * Poisson arrivals a second (80 % busy: a queue that comes and goes), both with seed 7, so both draw the same
 * arrivals: the same store and the same load, differing only by the machine's timing. A queue's p99 varies
 * widely from interval to interval (measured: each run's 95 % interval of p99 spans about -25 to +20 %), so
 * a difference of a few % between the two (measured: up to 8 %), which would fail a plain 'p99:+1%', is not
 * significant and the gate passes. (Fails only if the machine made one run's queue significantly longer
 * throughout, which a 95 % interval admits in at most 2.5 % of same pairs; the shared arrivals make it rarer.)</li>
 * </ul>
 */
class CompareCommandTest {
    @TempDir
    static Path dir;

    static Path base;
    static Path slow;
    static Path baseJson;
    static Path slowJson;
    static Path noisy1;
    static Path noisy2;
    static Path update;

    private static Path run(String name, String... settings) {
        Path hlog = dir.resolve(name + ".hlog");
        Cli cli = Cli.run(runArgs(hlog, settings));
        assertEquals(0, cli.exitCode, cli.err);
        return hlog;
    }

    private static String[] runArgs(Path hlog, String... settings) {
        List<String> args = new ArrayList<>(List.of("run", "--driver", "mockdb", "--duration", "3500ms", "--warmup",
                "1500ms", "--interval", "100ms", "--wait", "park", "-q", "--hlog", hlog.toString(), "--json",
                hlog.toString().replace(".hlog", ".json")));
        args.addAll(List.of(settings));
        return args.toArray(new String[0]);
    }

    /**
     * A run in a JVM of its own, as a user's run is: the base and slow stores read 14-27 ms at p99 for 10 and 11 ms
     * when both ran in this test JVM at once (its heap holds every earlier test's garbage and both runs' 700 MB of
     * histograms), and 10.3 and 11.1 ms in two JVMs at once.
     */
    private static Path runAlone(String name, String... settings) {
        Path hlog = dir.resolve(name + ".hlog");
        try {
            ChildProcess child = ChildProcess.java(ChildProcess.testClasspath(), "io.loadgen.cli.Main",
                    runArgs(hlog, settings));
            assertEquals(0, child.awaitExit(60), child.err());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        return hlog;
    }

    /**
     * Why the base/slow pair did not measure what the tests premise, or null when it did. The premise: each run's
     * interval thread closed at least {@value #MIN_INTERVALS} of the 20 intervals; each store's service p99 reads as
     * the store is, within 1 ms of its longest delay (a park overshoots by 0.1-0.4 ms here; 1 ms is the 10 % the
     * tests must find), and the slow one's at least 8 % above the base one's; and each harness kept the schedule (verdict healthy, lag p99 under 2 ms, a fifth of the
     * store's delay range).
     * <ul>
     * <li>An interval thread held up for a second closes one long interval instead of ten (a clean-clone CI once
     * got 6; its workers kept the schedule), leaving the bootstrap too few intervals to judge by.</li>
     * <li>A machine shared with other builds sometimes stalls a run for tens of ms, and the stall can fall inside the
     * store's sleep, where the lag does not see it: a clean-clone CI read service p99 20.1 and 18.1 ms for the 10 and
     * 11 ms stores (one 20 ms stall delays 1 % of 5,000 ops/s x 2 s), and compare rightly found the two the same;
     * run alone on that VM, both in the test JVM, all three attempts read 14-54 ms. The warm-up is 1.5 s because the
     * two runs' preallocated histograms (about 700 MB together) cost young collections of 300-550 ms in this JVM
     * before each run's own full collection: with 0.5 s of warm-up they fell inside the measured window.</li>
     * </ul>
     * Any of these, and the pair runs again (at most twice). If the last attempt is still distorted, the tests that
     * need the two stores told apart are skipped with the reason ({@link #assumeTheTwoStoresWereMeasured}), as a
     * ground-truth test skips on a stalling machine.
     */
    private static String distortion(Path base, Path slow) {
        for (Path hlog : List.of(base, slow)) {
            int intervals = intervals(hlog);
            if (intervals < MIN_INTERVALS) {
                return hlog.getFileName() + ": " + intervals + " intervals of 20 (the interval thread was held up)";
            }
        }
        double baseUs = json(base).at("/operations/READ/service/p99_us").asDouble();
        double slowUs = json(slow).at("/operations/READ/service/p99_us").asDouble();
        if (baseUs > 11_000 || slowUs > 12_000 || slowUs < 1.08 * baseUs) {
            return String.format("service p99 %.1f ms for the 10 ms store and %.1f ms for the 11 ms one (%+.1f %%, not"
                    + " the stores' 10 %%): the machine's stalls, not the stores, set them", baseUs / 1000,
                    slowUs / 1000, 100 * (slowUs / baseUs - 1));
        }
        for (Path hlog : List.of(base, slow)) {
            JsonNode harness = json(hlog).get("harness");
            double lagUs = harness.at("/lag/p99_us").asDouble();
            if (!harness.get("verdict").asText().equals("healthy") || lagUs >= 2000) {
                return String.format("%s: the harness fell behind (verdict %s, lag p99 %.1f ms)", hlog.getFileName(),
                        harness.get("verdict").asText(), lagUs / 1000);
            }
        }
        return null;
    }

    private static JsonNode json(Path hlog) {
        try {
            return new ObjectMapper().readTree(Path.of(hlog.toString().replace(".hlog", ".json")).toFile());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Why the last base/slow pair is not the 10 % change the tests premise, or null when it is. */
    static String distorted;

    /**
     * Skips a test that needs the two stores told apart when the last attempt did not measure them as they are. That
     * includes a harness that fell behind: a clean-clone CI whose third attempt only fell behind read the two stores
     * 10.8 and 11.5 ms (+6.9 %) with intervals too noisy to tell them apart, and compare rightly said same.
     */
    private static void assumeTheTwoStoresWereMeasured() {
        org.junit.jupiter.api.Assumptions.assumeTrue(distorted == null,
                () -> "the machine distorted all 3 attempts at the base/slow pair; the last: " + distorted);
    }

    /** Intervals a run needs for the tests below: 12 of its 20, the bootstrap's 8 with room. */
    private static final int MIN_INTERVALS = 12;

    /** The measured intervals of a run's log, as compare counts them ("baseline: FILE (N intervals)"). */
    private static int intervals(Path hlog) {
        Cli cli = Cli.run("compare", hlog.toString(), hlog.toString());
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\((\\d+) intervals?\\)").matcher(cli.out);
        return m.find() ? Integer.parseInt(m.group(1)) : 0;
    }

    @BeforeAll
    static void runs() {
        String[] uniform = {"-p", "mockdb.randomize=true", "--target", "5000", "--threads", "100"};
        String[] queue = {"-p", "mockdb.capacity=2500", "--target", "2000", "--arrival", "poisson", "--threads", "50",
                "--seed", "7"};
        // Each pair at once, so the machine's load, and this JVM's collections, fall on both alike.
        for (int attempt = 0; attempt < 3 && (base == null || distorted != null); attempt++) {
            CompletableFuture<Path> b = CompletableFuture.supplyAsync(() -> runAlone("base", concat(uniform, "-p",
                    "mockdb.delay=10ms")));
            CompletableFuture<Path> s = CompletableFuture.supplyAsync(() -> runAlone("slow", concat(uniform, "-p",
                    "mockdb.delay=11ms")));
            base = b.join();
            slow = s.join();
            distorted = distortion(base, slow);
        }
        CompletableFuture<Path> u = CompletableFuture.supplyAsync(() -> run("update", "--operation", "UPDATE",
                "--target", "100"));
        for (int attempt = 0; attempt < 3 && (noisy1 == null || intervals(noisy1) < MIN_INTERVALS
                || intervals(noisy2) < MIN_INTERVALS); attempt++) {
            CompletableFuture<Path> n1 = CompletableFuture.supplyAsync(() -> run("noisy1", queue));
            CompletableFuture<Path> n2 = CompletableFuture.supplyAsync(() -> run("noisy2", queue));
            noisy1 = n1.join();
            noisy2 = n2.join();
        }
        update = u.join();
        baseJson = dir.resolve("base.json");
        slowJson = dir.resolve("slow.json");
    }

    private static String[] concat(String[] a, String... b) {
        List<String> all = new ArrayList<>(List.of(a));
        all.addAll(List.of(b));
        return all.toArray(new String[0]);
    }

    private static String row(String out, String start) {
        return out.lines().filter(l -> l.matches(start.replace(" ", " +") + " .*")).findFirst()
                .orElseThrow(() -> new AssertionError("no row " + start + " in\n" + out));
    }

    @Test
    void aTenPercentSlowerStoreIsSlowerInEachPercentileAndTheMaxIsNotJudged() {
        assumeTheTwoStoresWereMeasured();
        Cli cli = Cli.run("compare", base.toString(), slow.toString());
        assertEquals(0, cli.exitCode, cli.err);
        String[] lines = cli.out.split("\n");
        // 20 intervals of 100 ms, fewer when a loaded machine made the run's interval thread late (it then closes
        // one longer interval): at least the bootstrap's 8.
        assertTrue(lines[0].matches("baseline:  " + java.util.regex.Pattern.quote(base.toString())
                + " \\((8|9|1[0-9]|2[01]) intervals\\)"), lines[0]);
        assertTrue(lines[1].matches("candidate: " + java.util.regex.Pattern.quote(slow.toString())
                + " \\((8|9|1[0-9]|2[01]) intervals\\)"), lines[1]);
        assertTrue(lines[3].matches("op +view +stat +baseline +candidate +change +95 % CI +verdict"), lines[3]);
        // Service time is the store's delay and the park's overshoot; intended adds the harness's schedule lag,
        // into which a shared machine's stalls enter (CompareGroundTruthTest judges intended, re-running disturbed
        // runs): here intended must only have an interval.
        for (String view : new String[]{"intended", "service"}) {
            for (String p : new String[]{"p50", "p90", "p99"}) {
                String row = row(cli.out, "READ " + view + " " + p);
                assertTrue(row.matches(".* [-+][0-9.]+ to [-+][0-9.]+ % +(same|slower by [0-9.]+ % \\(95 % CI"
                        + " [0-9.]+-[0-9.]+ %\\))"), row);
                if (view.equals("service")) {
                    assertTrue(row.matches(".* slower by [0-9.]+ % \\(95 % CI [0-9.]+-[0-9.]+ %\\)"), row);
                }
            }
            assertTrue(row(cli.out, "READ " + view + " max").endsWith("unknown: the max is one operation: no"
                    + " interval-to-interval variation estimates it"), cli.out);
        }
        // An open-loop run's rate is the schedule's, whatever the store: throughput is the same.
        assertTrue(row(cli.out, "READ - throughput").endsWith(" same"), cli.out);
        assertTrue(row(cli.out, "READ - error_rate").matches(".* 0% +0% +\\+0.0 % +\\+0.0 to \\+0.0 % +same"), cli.out);
        assertTrue(cli.out.matches("(?s).*\nmethod: circular moving-block bootstrap over each run's intervals \\(blocks"
                + " of [23] and [23] intervals, 1000 resamples, seed 1\\), percentile 95 % intervals.*"), cli.out);
        assertTrue(cli.out.matches("(?s).*\n[0-9]+ slower, 0 faster, [0-9]+ same, [0-9]+ unknown \\(of 12 rows\\)\n.*"),
                cli.out);
    }

    @Test
    void jsonHasARowPerFigureAndTheMethodAndIsReproducible() throws Exception {
        assumeTheTwoStoresWereMeasured();
        Cli cli = Cli.run("compare", base.toString(), slow.toString(), "--json", "-");
        assertEquals(0, cli.exitCode, cli.err);
        assertTrue(cli.err.contains("op "), "the table goes to stderr: " + cli.err);
        JsonNode root = new ObjectMapper().readTree(cli.out);
        JsonNode rows = root.get("rows");
        assertEquals(12, rows.size(), "2 views x 5 statistics, throughput, error rate");
        for (JsonNode r : rows) {
            for (String key : new String[]{"op", "view", "stat", "baseline", "candidate", "change", "ci_low", "ci_high",
                    "verdict"}) {
                assertTrue(r.has(key), key + " in " + r);
            }
            assertTrue(Set.of("same", "slower", "faster", "unknown").contains(r.get("verdict").asText()), r.toString());
            assertEquals(r.get("verdict").asText().equals("unknown"), r.has("reason"), r.toString());
        }
        JsonNode p99 = rows.get(7);
        assertEquals("service", p99.get("view").asText());
        assertEquals("p99", p99.get("stat").asText());
        assertEquals("slower", p99.get("verdict").asText());
        double change = p99.get("candidate").asDouble() / p99.get("baseline").asDouble() - 1;
        assertEquals(change, p99.get("change").asDouble(), 1e-9);
        assertTrue(p99.get("ci_low").asDouble() > 0.05 && p99.get("ci_low").asDouble() <= change
                && change <= p99.get("ci_high").asDouble(), p99.toString());
        assertTrue(rows.get(10).get("view").isNull() && rows.get(10).get("stat").asText().equals("throughput"));
        JsonNode method = root.get("method");
        assertEquals(1000, method.get("resamples").asInt());
        assertEquals(0.95, method.get("level").asDouble());
        assertEquals(1, method.get("seed").asLong());
        assertEquals(Math.round(Math.cbrt(method.get("baseline_intervals").asInt())),
                method.get("baseline_block_length").asInt(), "n^(1/3)");
        assertEquals(cli.out, Cli.run("compare", base.toString(), slow.toString(), "--json", "-").out,
                "the same inputs and seed give the same output");
        assertFalse(cli.out.equals(Cli.run("compare", base.toString(), slow.toString(), "--json", "-", "--seed", "2").out),
                "another seed draws other resamples");
    }

    @Test
    void jsonSummariesShowTheChangeButNoVerdict() {
        assumeTheTwoStoresWereMeasured();
        Cli cli = Cli.run("compare", baseJson.toString(), slowJson.toString());
        assertEquals(0, cli.exitCode, cli.err);
        String row = row(cli.out, "READ intended p99");
        assertTrue(row.contains(" +") && row.endsWith("unknown: no intervals: " + baseJson + " is a JSON summary;"
                + " compare interval logs"), row);
        assertTrue(cli.out.contains("READ  corrected"), "JSON summaries both hold the corrected view: " + cli.out);
        assertTrue(cli.out.contains("0 slower, 0 faster, 0 same, 17 unknown (of 17 rows)"), cli.out);
    }

    @Test
    void badInputIsOneLineAndExitCode2() {
        Cli one = Cli.run("compare", base.toString());
        assertEquals(2, one.exitCode);
        assertEquals("loadgen: compare takes two runs, BASELINE then CANDIDATE (got 1: " + base + "); e.g. loadgen"
                + " compare old.hlog new.hlog; quote a glob of one sharded run's logs\n", one.err);
        Cli three = Cli.run("compare", base.toString(), slow.toString(), noisy1.toString());
        assertEquals(2, three.exitCode);
        assertTrue(three.err.startsWith("loadgen: compare takes two runs, BASELINE then CANDIDATE (got 3: "), three.err);
        Cli ops = Cli.run("compare", base.toString(), update.toString());
        assertEquals(2, ops.exitCode);
        assertEquals("loadgen: the baseline " + base + " has operation types READ but the candidate " + update
                + " has UPDATE; compare two runs of the same workload\n", ops.err);
        Cli missing = Cli.run("compare", base.toString(), dir.resolve("nope.hlog").toString());
        assertEquals(2, missing.exitCode);
        assertTrue(missing.err.contains("nope.hlog: no such file"), missing.err);
        Cli share = Cli.run("compare", base.toString(), slow.toString(), "--min-change", "abc");
        assertEquals(2, share.exitCode);
        assertTrue(share.err.contains("is not a share"), share.err);
    }

    @Test
    void aDamagedLogIsExitCode3() throws Exception {
        Path damaged = dir.resolve("damaged.hlog");
        List<String> lines = new ArrayList<>(Files.readAllLines(slow));
        int i = lines.size() / 2;
        lines.set(i, lines.get(i).substring(0, lines.get(i).length() - 20) + "!!!!");
        Files.write(damaged, lines);
        Cli cli = Cli.run("compare", base.toString(), damaged.toString());
        assertEquals(3, cli.exitCode, cli.out + cli.err);
        assertTrue(cli.err.contains("warning: " + damaged + ":"), "the corrupt line is named: " + cli.err);
        assertTrue(cli.err.endsWith("loadgen: " + damaged + ": 1 corrupt line skipped; compare reads only whole runs\n"),
                cli.err);
    }

    @Test
    void theGateFailsASignificantRegressionBeyondItsAllowance() {
        assumeTheTwoStoresWereMeasured();
        Cli cli = Cli.run("gate", slow.toString(), "--baseline", base.toString(), "--max-regression", "p99:+5%");
        assertEquals(99, cli.exitCode, cli.out + cli.err);
        String row = row(cli.out, "READ.service.p99 <= baseline \\+5%");
        assertTrue(row.matches(".* ms \\(\\+[0-9.]+ %, 95 % CI \\+[0-9.]+ to \\+[0-9.]+ %\\) +<= [0-9.]+ ms \\(baseline"
                + " [0-9.]+ ms \\+5%\\), if significant +FAIL"), row);
    }

    @Test
    void theGatePassesANoisySamePairThatIsNotSignificant() {
        Cli cli = Cli.run("gate", noisy2.toString(), "--baseline", noisy1.toString(), "--max-regression", "p99:+1%");
        assertEquals(0, cli.exitCode, cli.out + cli.err);
        String row = row(cli.out, "READ.intended.p99 <= baseline \\+1%");
        assertTrue(row.contains(", 95 % CI "), "judged with an interval: " + row);
        assertNotNull(cli.out);
        System.out.println(cli.out);
    }

    @Test
    void theHtmlPageIsWritten() throws Exception {
        Path html = dir.resolve("compare.html");
        Cli cli = Cli.run("compare", base.toString(), slow.toString(), "--html", html.toString());
        assertEquals(0, cli.exitCode, cli.err);
        assertTrue(cli.err.contains("loadgen: wrote " + html), cli.err);
        String page = Files.readString(html);
        assertTrue(page.contains("<meta name=\"generator\" content=\"loadgen ComparePage\">"));
        assertTrue(page.contains("\"verdict\":\"slower\""), "the rows are embedded");
        assertFalse(page.contains("@@"), "every slot filled");
    }
}
