package io.loadgen.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD;

/** {@code loadgen calibrate}: passes on an idle machine, fails naming the scenario when starved, refuses bad names. */
class CalibrateCommandTest {
    /** Busy threads per core in the starved test (see it). */
    private static final int SPINNERS_PER_CORE = 16;

    @TempDir
    Path dir;

    /**
     * The whole default calibration, once, in this JVM: every scenario's measured figure lies within its
     * tolerance (each derived in {@code Calibration}) and no diagnosis blames the harness, so it exits 0. Its
     * runs have fixed lengths adding up to 23.3 s (the help's "about 25 s"); 60 s is the promise.
     *
     * <p>This machine is shared: other builds load it now and then (load averages of 6 on its 2 cores, the hiccup
     * meter seeing the whole VM stop for 380 ms). Then the calibration rightly fails: the numbers measured
     * meanwhile are not to be trusted. A figure outside its tolerance is therefore accepted only when the hiccup
     * meter, a thread of its own apart from the workers, saw the machine stall during that run (5 ms or more) and
     * either those stalls can explain the error beyond the figure's allowance ({@code Check.machineStalled}: a
     * percentile moves by at most the stalls' total, the M/D/1 mean by at most 2 lambda D_max T / n) or the run's
     * workers were measured late for their starts (the diagnosis blames the harness, which no error on the
     * analytic side can cause: CPU starvation delays 16 workers more than the meter's one thread, as measured
     * here: a 70 ms stall seen by the meter, workers up to 195 ms late). The failure line says so; without such
     * a witness the tool is wrong, and the test fails.
     */
    @Test
    @Timeout(value = 60, threadMode = SEPARATE_THREAD)
    void passesOnAnIdleMachine() throws Exception {
        Path json = dir.resolve("calibration.json");
        long start = System.nanoTime();
        Cli cli = Cli.run("calibrate", "--json", json.toString());
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.println(cli.out);
        assertTrue(seconds < 60, "the calibration's promise: at most 60 s, took " + seconds);
        JsonNode root = new ObjectMapper().readTree(json.toFile());
        Set<String> names = new TreeSet<>();
        boolean tolerated = false;
        for (JsonNode s : root.get("scenarios")) {
            names.add(s.get("name").asText());
            double analytic = s.get("analytic").asDouble();
            double measured = s.get("measured").asDouble();
            double error = s.get("error").asDouble();
            assertEquals((measured - analytic) / analytic, error, 1e-9, s.toString());
            boolean blamesHarness = false;
            for (JsonNode cause : s.get("diagnosis")) {
                blamesHarness |= cause.asText().startsWith("harness_");
            }
            boolean within = Math.abs(error) <= s.get("tolerance").asDouble() && !blamesHarness;
            assertEquals(within, s.get("pass").asBoolean(), s.toString());
            if (!within) {
                double allowance = s.get("tolerance").asDouble() * analytic;
                double shift = s.get("stall_shift_ms").asDouble();
                assertTrue(shift > 0 && (shift + allowance >= Math.abs(measured - analytic) || blamesHarness),
                        "outside its tolerance without a machine stall to explain it: " + s);
                assertTrue(s.get("machine_stalled").asBoolean(), s.toString());
                assertTrue(cli.err.contains("FAIL " + s.get("name").asText() + ": ")
                        && cli.err.contains("the machine itself stalled meanwhile"), cli.err);
                System.out.println("(tolerated: the machine stalled during " + s.get("name").asText() + ": " + s + ")");
                tolerated = true;
            }
        }
        assertEquals(Set.of("backlog", "pause", "md1", "freeze"), names);
        assertEquals(tolerated ? Main.EXIT_FAILED : 0, cli.exitCode, cli.out + cli.err);
        assertEquals(!tolerated, root.get("pass").asBoolean(), root.toString());
        assertTrue(cli.out.contains(tolerated ? "loadgen calibrate: FAIL" : "loadgen calibrate: PASS"), cli.out);
        assertTrue(root.at("/timer_floor/overshoot_p99_us").asDouble() > 0, root.toString());
        assertTrue(cli.out.contains("timer floor: park overshoot p99 "), cli.out);
        // One worker keeps at least 10,000 ops/s (a 100 us gap, measured here at 5,000,000) unless the machine
        // stalled: the criterion's bound is one wake-up budget, 0.25 ms at p99.
        assertTrue(root.get("max_one_worker_ops_per_sec").asDouble() >= 10_000
                || root.at("/hiccups/max_ms").asDouble() >= 0.25, root.toString());
    }

    /**
     * Starved workers: {@link #SPINNERS_PER_CORE} (16) x availableProcessors threads spin (in this JVM, so in the
     * workers' own scheduling group) while the md1 scenario runs. Its figure, the mean sojourn of 3 ms, passes
     * within 0.5 ms: three standard errors (0.24 ms) plus one wake-up budget (0.25 ms). Each of its operations
     * needs its worker to run twice: at its intended start (to issue it) and when the store hands it back (a
     * wake-up from a 2 to 10 ms sleep). A woken worker shares its core with 16 threads that never sleep; the fair
     * scheduler runs the current one until its slice ends (EEVDF's base slice, 0.75 ms, on this 6.x kernel) unless
     * the woken thread may preempt at once, so the mean rises by twice the wait, which needs to average only a
     * third of a slice to fail. With 4 spinners a core that was not certain: +33 % and +98 %, but +16 % and +18 %
     * in two other runs (one of them a clean-clone CI run), around the 17 % tolerance. With 16 a core, measured
     * here: +63 %, +110 %, +110 %, each with the diagnosis blaming the harness (harness_stalled), a second,
     * independent reason to fail; the timer floor measured meanwhile says why: park overshoot p99 of 4.7-5.2 ms
     * against ~50 us idle.
     */
    @Test
    @Timeout(value = 60, threadMode = SEPARATE_THREAD)
    void failsNamingTheScenarioWhenBusyThreadsStarveTheWorkers() throws Exception {
        AtomicBoolean spin = new AtomicBoolean(true);
        List<Thread> spinners = new ArrayList<>();
        for (int i = 0; i < SPINNERS_PER_CORE * Runtime.getRuntime().availableProcessors(); i++) {
            Thread t = new Thread(() -> {
                long x = 1;
                while (spin.get()) {
                    x = x * 6364136223846793005L + 1442695040888963407L;
                }
                if (x == 42) {
                    System.out.print(""); // keeps the loop from being optimised away
                }
            }, "busy-" + i);
            t.setDaemon(true);
            t.start();
            spinners.add(t);
        }
        Cli cli;
        try {
            cli = Cli.run("calibrate", "--only", "md1", "-q");
        } finally {
            spin.set(false);
            for (Thread t : spinners) {
                t.join();
            }
        }
        System.out.println(cli.out + cli.err);
        assertEquals(Main.EXIT_FAILED, cli.exitCode, cli.out + cli.err);
        assertTrue(cli.err.contains("loadgen calibrate: FAIL md1: "), cli.err);
        assertTrue(cli.out.contains("loadgen calibrate: FAIL"), cli.out);
    }

    /**
     * SIGTERM during the second scenario, in a child JVM: the one under way ends without a verdict, the table
     * holds the first (both its figures), the summary says interrupted, and the JVM exits 143. The signal goes
     * when the pause scenario has begun: the backlog (3 s) is done by then.
     */
    @Test
    @Timeout(value = 60, threadMode = SEPARATE_THREAD)
    void aSignalPrintsTheScenariosDoneSoFar() throws Exception {
        ChildProcess child = ChildProcess.java(ChildProcess.testClasspath(), Main.class.getName(),
                "calibrate", "--only", "backlog,pause");
        assertTrue(child.awaitErr("loadgen calibrate: pause: ", 50), child.err());
        Process kill = new ProcessBuilder("kill", "-TERM", Long.toString(child.process.pid())).start();
        assertEquals(0, kill.waitFor());
        assertEquals(143, child.awaitExit(30), child.err());
        assertTrue(child.err().contains("loadgen: interrupted; stopping the calibration"), child.err());
        assertTrue(child.out().contains("backlog   intended p50") && child.out().contains("backlog   intended p99"),
                child.out());
        assertFalse(child.out().contains("\npause "), child.out());
        assertTrue(child.out().contains("of 1 scenario in ") && child.out().contains("(interrupted)"), child.out());
    }

    /** An unknown scenario: one line listing the names, exit 2, nothing run. */
    @Test
    void anUnknownScenarioIsRefusedListingTheNames() {
        Cli cli = Cli.run("calibrate", "--only", "pause,nosuch");
        assertEquals(Main.EXIT_BAD_INPUT, cli.exitCode, cli.err);
        assertEquals("loadgen: --only: no scenario 'nosuch'; choose from backlog, pause, md1, freeze\n", cli.err);
        assertEquals("", cli.out);
    }
}
