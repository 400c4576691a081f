package io.loadgen.core.diagnosis;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.loadgen.core.diagnosis.CauseCode.CONCURRENCY_LIMITED;
import static io.loadgen.core.diagnosis.CauseCode.HARNESS_SATURATED;
import static io.loadgen.core.diagnosis.CauseCode.HARNESS_STALLED;
import static io.loadgen.core.diagnosis.CauseCode.MACHINE_NOISE;
import static io.loadgen.core.diagnosis.CauseCode.OK;
import static io.loadgen.core.diagnosis.CauseCode.TARGET_FAILING;
import static io.loadgen.core.diagnosis.CauseCode.TARGET_SLOW;
import static io.loadgen.core.diagnosis.CauseCode.TARGET_STALLED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The diagnosis from exact evidence: each cause named by the evidence that names it and by no other, in the
 * order of importance, with its figures. The evidence of each case is the one a real run of that kind measures
 * (the runs themselves: DiagnosisRunTest, and the drivers' DiagnosisScenariosTest).
 */
class DiagnoserTest {
    private static final long US = 1_000;
    private static final long MS = 1_000_000;

    private static List<CauseCode> codes(Diagnosis d) {
        List<CauseCode> codes = new ArrayList<>();
        d.causes().forEach(c -> codes.add(c.code()));
        return codes;
    }

    @Test
    void aTargetThatKeptUpWithAnOnTimeHarnessIsOk() {
        Diagnosis d = Evidences.healthy().diagnose();
        assertEquals(List.of(OK), codes(d));
        assertEquals("mockdb kept up: 1,000 ops/s offered and 1,000 done, intended p99 4.2 ms (service p99 4.2 ms).",
                d.headline());
        assertFalse(d.blamesHarness());
    }

    @Test
    void aSleepingThreadsHiccupThatDelayedNoWorkerIsMachineNoiseNotBlame() {
        // The issue's first example: mockdb 4 ms at 1000/s, intended max 8.4 ms, and the hiccup meter woke 36.2 ms
        // late. The workers' own delay stayed at p99 80 us, max 0.9 ms: nothing of the latencies is the harness's.
        Diagnosis d = Evidences.healthy().hiccupMax(36_200 * US).diagnose();
        assertEquals(List.of(OK, MACHINE_NOISE), codes(d));
        assertFalse(d.blamesHarness());
        assertTrue(d.get(MACHINE_NOISE).text().contains("36.2 ms"), d.get(MACHINE_NOISE).text());
        assertTrue(d.headline().startsWith("mockdb kept up"), d.headline());
    }

    @Test
    void aHiccupSmallBesideTheLatenciesIsNotEvenContext() {
        // 10% of intended p99 (4.2 ms) is 0.42 ms: a 0.3 ms hiccup is below it.
        assertEquals(List.of(OK), codes(Evidences.healthy().hiccupMax(300 * US).diagnose()));
    }

    @Test
    void aTargetFailingAboveTheLimitIsTheFirstCauseWithTheTopStatusAndASample() {
        Diagnosis d = Evidences.healthy().rate(1000, 20_000)
                .failed(19_086, "ERROR", "OOM command not allowed when used memory > 'maxmemory'.").diagnose();
        assertEquals(TARGET_FAILING, d.primary().code());
        assertEquals("mockdb failed 19,086 of 20,000 operations (95%, above --max-error-rate 10%): 19,086 ERROR; most"
                + " were ERROR, e.g. \"OOM command not allowed when used memory > 'maxmemory'.\".", d.headline());
        assertEquals(0.9543, d.primary().figures().get("failed_share").doubleValue(), 1e-4);
        // The same run with the limit lifted: failures are said in the headline, not blamed.
        Diagnosis lifted = Evidences.healthy().rate(1000, 20_000).failed(19_086, "ERROR", null).maxErrorRate(1).diagnose();
        assertEquals(List.of(OK), codes(lifted));
        assertTrue(lifted.headline().contains("19,086 of 20,000 operations failed (95%, within --max-error-rate 100%)"),
                lifted.headline());
    }

    @Test
    void tooFewInFlightForTheRateIsConcurrencyLimitedWithTheNumberNeededAndTheFlag() {
        // The issue's ping example: one issuer, one in flight, 1000/s against a 10 ms server. By Little's law
        // 1000/s x 10 ms = 10 in flight are needed; 1 carries 100/s. The service time is flat (min 9.9 ms, p50
        // 10 ms), so the client's concurrency, not the server, held the rate.
        Diagnosis d = Evidences.healthy().concurrency(1, 1, true).rate(1000, 941)
                .service(Evidences.flat(10 * MS)).intended(new Latencies(941, 10 * MS, 4_600 * MS, 4_600 * MS,
                        9_000 * MS, 9_100 * MS, 9_200 * MS)).unissued(9_000).diagnose();
        assertEquals(List.of(CONCURRENCY_LIMITED), codes(d));
        Cause c = d.primary();
        assertEquals(10L, c.figures().get("in_flight_needed"));
        assertEquals(100L, c.figures().get("carries_ops_per_sec"));
        assertEquals("Too little concurrency for the rate: 1 operation in flight can carry at most 100 ops/s at mockdb's"
                + " service mean of 10 ms; 1,000 ops/s needs 10 (Little's law): --max-in-flight 10 (per thread; now 1).",
                d.headline());
    }

    @Test
    void aBlockingRunShortOfThreadsNamesThreads() {
        Diagnosis d = Evidences.healthy().concurrency(2, 1, false).rate(1000, 2_000)
                .service(Evidences.flat(10 * MS)).intended(Evidences.flat(3_000 * MS)).unissued(8_000).diagnose();
        assertEquals(List.of(CONCURRENCY_LIMITED), codes(d));
        assertTrue(d.primary().text().endsWith(": --threads 10 (now 2)"), d.primary().text());
    }

    @Test
    void aTargetWhoseLatencyRoseUnderLoadIsSlowFirstAndConcurrencyOnlyIfItHasRoom() {
        // A store serving one request at a time, 2 ms each (500/s), asked for 1000/s by 8 threads: each
        // request waits for the other seven, so service p50 16 ms against its fastest 2 ms.
        Diagnosis d = Evidences.healthy().rate(1000, 5_000)
                .service(new Latencies(5_000, 2 * MS, 16 * MS, 16 * MS, 17 * MS, 18 * MS, 20 * MS))
                .intended(new Latencies(5_000, 2 * MS, 2_500 * MS, 2_500 * MS, 4_900 * MS, 5_000 * MS, 5_000 * MS))
                .unissued(5_000).diagnose();
        assertEquals(List.of(TARGET_SLOW, CONCURRENCY_LIMITED), codes(d));
        assertTrue(d.headline().startsWith("mockdb could not keep up: 1,000 ops/s offered, 500 ops/s done"), d.headline());
        assertTrue(d.get(CONCURRENCY_LIMITED).text().startsWith("if mockdb has spare capacity"));
    }

    @Test
    void aPausingStoreIsStalledNotSlowAndNotTheHarness() {
        // The demo: stw-mockdb, 25 threads at 10,000/s, service p50 0.72 ms and max 247 ms (its pauses), intended
        // p99 370 ms; the harness's delay p99 0.3 ms. Little's law: 10,000/s x 1.76 ms = 18 in flight < 25.
        Diagnosis d = Evidences.healthy().concurrency(25, 1, false).rate(10_000, 297_333)
                .service(new Latencies(297_333, 211 * US, 716 * US, 1_757 * US, 19_382 * US, 157_679 * US, 246_939 * US))
                .intended(new Latencies(297_333, 214 * US, 4_857 * US, 44_526 * US, 370_147 * US, 508_821 * US,
                        731_906 * US))
                .delay(new Latencies(297_333, 0, 1 * US, 20 * US, 300 * US, 900 * US, 5_517 * US))
                .hiccupMax(5_263 * US).unissued(2_667).shares(0.39, 0.0003).diagnose();
        assertEquals(List.of(TARGET_STALLED), codes(d));
        assertTrue(d.headline().startsWith("mockdb stalled: it stopped answering for up to 247 ms (service max; its"
                + " median is 716 us)"), d.headline());
        assertFalse(d.blamesHarness());
    }

    @Test
    void aHarnessThatCannotIssueThisFastIsSaturatedAndTheTargetIsNotBlamed() {
        // noop at 20,000,000/s: the workers behind 99% of the time, 60% of it the harness's own work.
        Diagnosis d = Evidences.healthy().concurrency(1, 1, false).rate(20_000_000, 70_000_000)
                .service(new Latencies(70_000_000, 20, 40, 45, 100, 1_000, 2 * MS))
                .intended(new Latencies(70_000_000, 20, 700 * MS, 700 * MS, 1_400 * MS, 1_410 * MS, 1_412 * MS))
                .delay(new Latencies(70_000_000, 0, 30, 30, 80, 500, 1 * MS)).shares(0.99, 0.6).diagnose();
        assertEquals(List.of(HARNESS_SATURATED), codes(d));
        assertEquals(7_070_707L, d.primary().figures().get("can_issue_ops_per_sec"));
        assertTrue(d.blamesHarness());
    }

    @Test
    void aStalledHarnessIsBlamedInProportionToWhatItsDelayExplains() {
        // The harness stopped for 300 ms at 1000/s: about 300 operations (of 5000) wait, up to 300 ms, every one
        // of them the harness's. Service stays 10 us. Intended p99 = 250 ms, of which the harness's own delay p99
        // is 249 ms: all of it.
        Diagnosis d = Evidences.healthy().rate(1000, 5_000).service(Evidences.flat(10 * US))
                .intended(new Latencies(5_000, 10 * US, 20 * US, 9 * MS, 250 * MS, 298 * MS, 300 * MS))
                .delay(new Latencies(5_000, 0, 10 * US, 9 * MS, 249 * MS, 297 * MS, 300 * MS))
                .undelayed(Evidences.flat(10 * US)).diagnose();
        assertEquals(List.of(HARNESS_STALLED), codes(d));
        Cause c = d.primary();
        assertTrue(c.text().startsWith("the load generator itself stalled, up to 300 ms (not its GC: its threads were"
                + " not scheduled on time); its own delay can explain at most "), c.text());
        assertTrue(d.blamesHarness());
        // Its own 290 ms GC pause: said so.
        assertTrue(Evidences.healthy().rate(1000, 5_000).service(Evidences.flat(10 * US))
                .intended(new Latencies(5_000, 10 * US, 20 * US, 9 * MS, 250 * MS, 298 * MS, 300 * MS))
                .delay(new Latencies(5_000, 0, 10 * US, 9 * MS, 249 * MS, 297 * MS, 300 * MS)).gc(1, 290 * MS)
                .undelayed(Evidences.flat(10 * US))
                .diagnose().primary().text().contains("its own GC paused it, longest 290 ms"));
    }

    @Test
    void aHarnessStallInTheFirstIntervalSaysAWarmUpLeavesItOut() {
        // On a loaded machine the workers' first second (JIT compilation, class loading, the JVM's own threads on
        // the cores) delayed operations by up to 172 ms: that is the harness's, and --warmup leaves it out.
        Diagnosis d = Evidences.healthy().delay(new Latencies(5_000, 0, 0, 0, 2 * MS, 168 * MS, 172 * MS))
                .intended(new Latencies(5_000, 4 * MS, 4 * MS, 4 * MS, 6 * MS, 172 * MS, 176 * MS)).delayMaxAt(0)
                .undelayed(new Latencies(5_000, 4 * MS, 4 * MS, 4 * MS, 4_500 * US, 5 * MS, 6 * MS)).diagnose();
        assertEquals(HARNESS_STALLED, d.primary().code());
        assertTrue(d.primary().text().endsWith("; the longest came in the run's first 1 s, as the JVM compiled and"
                + " loaded the workers' code: --warmup 2s leaves the start out of the summary"), d.primary().text());
        // Later in the run: no such hint.
        assertFalse(Evidences.healthy().delay(new Latencies(5_000, 0, 0, 0, 2 * MS, 168 * MS, 172 * MS))
                .intended(new Latencies(5_000, 4 * MS, 4 * MS, 4 * MS, 6 * MS, 172 * MS, 176 * MS))
                .undelayed(new Latencies(5_000, 4 * MS, 4 * MS, 4 * MS, 4_500 * US, 5 * MS, 6 * MS))
                .delayMaxAt(3_000 * MS).diagnose().primary().text().contains("--warmup"));
    }

    @Test
    void aHarnessDelayThatThePercentileDoesNotShowIsNotBlamed() {
        // A busy machine delayed 0.1% of the operations by 1.7 ms, but those were not the ones at intended p99.9:
        // less each operation's harness delay, p99.9 reads the same 6 ms. The harness's part of it is 0.
        Diagnosis d = Evidences.healthy().delay(new Latencies(10_000, 0, 0, 20 * US, 250 * US, 1_720 * US, 3_500 * US))
                .intended(new Latencies(10_000, 4 * MS, 4 * MS, 4 * MS, 4_450 * US, 6 * MS, 7 * MS))
                .undelayed(new Latencies(10_000, 4 * MS, 4 * MS, 4 * MS, 4_400 * US, 6 * MS, 7 * MS)).diagnose();
        assertEquals(List.of(OK), codes(d));
        // The same delay where, without it, p99.9 would read 6 ms instead of 7.7: named, with its part.
        Diagnosis shown = Evidences.healthy().delay(new Latencies(10_000, 0, 0, 20 * US, 250 * US, 1_720 * US, 3_500 * US))
                .intended(new Latencies(10_000, 4 * MS, 4 * MS, 4 * MS, 4_450 * US, 7_700 * US, 8 * MS))
                .undelayed(new Latencies(10_000, 4 * MS, 4 * MS, 4 * MS, 4_400 * US, 6 * MS, 7 * MS)).diagnose();
        assertEquals(List.of(HARNESS_STALLED), codes(shown));
        assertTrue(shown.primary().text().endsWith("its own delay can explain at most 1.7 ms of intended p99.9 = 7.7 ms"
                + " (22%)"), shown.primary().text());
    }

    @Test
    void aSmallHarnessDelayBesideALargeP99IsNotBlamed() {
        // A 30 ms harness delay beside a 400 ms p99 is 7.5%: under a tenth, so not a cause.
        Diagnosis d = Evidences.healthy().intended(Evidences.flat(400 * MS)).service(Evidences.flat(370 * MS))
                .delay(new Latencies(10_000, 0, 1 * MS, 1 * MS, 30 * MS, 30 * MS, 30 * MS))
                .undelayed(new Latencies(10_000, 370 * MS, 370 * MS, 370 * MS, 390 * MS, 397 * MS, 410 * MS)).diagnose();
        assertEquals(List.of(OK), codes(d));
        // The same 30 ms beside a 200 us p99 is the story.
        Diagnosis small = Evidences.healthy().intended(new Latencies(10_000, 100 * US, 150 * US, 1 * MS, 30_100 * US,
                        30_200 * US, 30_300 * US)).service(Evidences.flat(150 * US))
                .delay(new Latencies(10_000, 0, 1 * US, 1 * MS, 30 * MS, 30 * MS, 30 * MS))
                .undelayed(Evidences.flat(150 * US)).diagnose();
        assertEquals(HARNESS_STALLED, small.primary().code());
    }

    @Test
    void aMinorHarnessDelayComesAfterTheTargetsCause() {
        // The demo's stalls, and a harness delay of 20% of p99.9: both said, the target first.
        Diagnosis d = Evidences.healthy().concurrency(25, 1, false).rate(10_000, 297_333)
                .service(new Latencies(297_333, 211 * US, 716 * US, 1_757 * US, 19_382 * US, 157_679 * US, 246_939 * US))
                .intended(new Latencies(297_333, 214 * US, 4_857 * US, 44_526 * US, 370_147 * US, 508_821 * US,
                        731_906 * US))
                .delay(new Latencies(297_333, 0, 1 * US, 20 * US, 300 * US, 102 * MS, 120 * MS))
                .undelayed(new Latencies(297_333, 214 * US, 4_800 * US, 44_000 * US, 369 * MS, 407 * MS, 700 * MS))
                .diagnose();
        assertEquals(List.of(TARGET_STALLED, HARNESS_STALLED), codes(d));
    }

    @Test
    void anUnthrottledRunIsOkAndSaysNoCorrectionIsPossible() {
        Diagnosis d = Evidences.healthy().unthrottled().diagnose();
        assertEquals(List.of(OK), codes(d));
        assertTrue(d.headline().startsWith("mockdb did 1,000 ops/s unthrottled, service p99 4.2 ms; give --target OPS"),
                d.headline());
    }

    @Test
    void aRunThatCompletedNothingSaysSo() {
        Diagnosis d = Evidences.healthy().rate(0.001, 0).diagnose();
        assertEquals("No operation completed in 10 s of mockdb, so there is no latency to report.", d.headline());
    }

    @Test
    void everyCodeHasAStableKeyAndIsFoundByIt() {
        for (CauseCode c : CauseCode.values()) {
            assertEquals(c, CauseCode.ofKey(c.key().toUpperCase(java.util.Locale.ROOT)));
        }
        assertEquals("harness_stalled", HARNESS_STALLED.key());
    }

    @Test
    void blameIsWeighedOnlyAtPercentilesWithTenOperationsAboveThem() {
        assertEquals(0, Diagnoser.blamedPercentiles(99).length);
        assertEquals(0, Diagnoser.blamedPercentiles(999).length);
        assertEquals(List.of(99.0), boxed(Diagnoser.blamedPercentiles(1_000)));
        assertEquals(List.of(99.0, 99.9), boxed(Diagnoser.blamedPercentiles(10_000)));
        // 50 fast successes, the slowest two delayed 2 ms by the harness: their p99 is the max, so no blame.
        Diagnosis few = Evidences.healthy().rate(100, 50)
                .intended(new Latencies(50, 100 * US, 200 * US, 300 * US, 2_200 * US, 2_200 * US, 2_200 * US))
                .undelayed(Evidences.flat(200 * US)).diagnose();
        assertFalse(few.has(HARNESS_STALLED), few.headline());
    }

    private static List<Double> boxed(double[] values) {
        List<Double> out = new ArrayList<>();
        for (double v : values) {
            out.add(v);
        }
        return out;
    }

    @Test
    void aServiceTimeTheMachinesOwnStallExplainsIsNoTargetStall() {
        // An instant target on a busy machine: service max 56 ms against a 0.8 ms median, but the hiccup meter saw
        // the whole machine stop for 77 ms: the machine's, not the target's. Queueing is the target's slowness.
        Diagnosis d = Evidences.healthy().concurrency(1, 1, true).rate(200, 2_000)
                .service(new Latencies(2_000, 500 * US, 800 * US, 900 * US, 4 * MS, 30 * MS, 56 * MS))
                .intended(new Latencies(2_000, 500 * US, 900 * US, 2 * MS, 60 * MS, 70 * MS, 78 * MS))
                .hiccupMax(77 * MS).diagnose();
        assertFalse(d.has(TARGET_STALLED), d.headline());
        // The same with a calm machine (hiccup 2 ms): the target stalled.
        Diagnosis calm = Evidences.healthy().concurrency(1, 1, true).rate(200, 2_000)
                .service(new Latencies(2_000, 500 * US, 800 * US, 900 * US, 4 * MS, 30 * MS, 56 * MS))
                .intended(new Latencies(2_000, 500 * US, 900 * US, 2 * MS, 60 * MS, 70 * MS, 78 * MS))
                .hiccupMax(2 * MS).diagnose();
        assertEquals(TARGET_STALLED, calm.primary().code(), calm.headline());
    }

    @Test
    void aTargetThatKeptTheRateButMadeOperationsQueueIsNotSaidToHaveFallenShort() {
        // 2 threads, 10 ms operations at 150/s: 1.5 in flight needed, 2 available; the operations queue behind
        // each other now and then, yet all 1,500 were done in the 10 s.
        Diagnosis d = Evidences.healthy().concurrency(2, 1, false).rate(150, 1_500)
                .service(new Latencies(1_500, 9 * MS, 10 * MS, 10 * MS, 12 * MS, 14 * MS, 15 * MS))
                .intended(new Latencies(1_500, 9 * MS, 10 * MS, 12 * MS, 25 * MS, 30 * MS, 31 * MS)).diagnose();
        assertEquals(TARGET_SLOW, d.primary().code());
        assertTrue(d.headline().startsWith("mockdb's latency made operations queue behind each other at 150 ops/s:"
                + " intended p99 25 ms against service p99 12 ms"), d.headline());
    }

    @Test
    void workersThatWakeLateEvenAtTheMedianAreToldOfTheWaitStrategy() {
        // A 57 us target at 2,000 ops/s: the workers wake 130 us late from their park, at the median too, so the
        // harness is most of intended p99 = 400 us (without its delay: 200 us).
        Diagnosis d = Evidences.healthy().rate(2_000, 20_000)
                .service(new Latencies(20_000, 14 * US, 57 * US, 60 * US, 150 * US, 300 * US, 2 * MS))
                .intended(new Latencies(20_000, 100 * US, 190 * US, 200 * US, 400 * US, 600 * US, 3 * MS))
                .undelayed(new Latencies(20_000, 14 * US, 60 * US, 70 * US, 200 * US, 350 * US, 2 * MS))
                .delay(new Latencies(20_000, 50 * US, 130 * US, 130 * US, 250 * US, 400 * US, 2 * MS)).diagnose();
        assertEquals(HARNESS_STALLED, d.primary().code());
        assertTrue(d.primary().text().contains("; even the median operation started 130 us late (of intended p50 190 us):"
                + " the workers wake slowly from their wait here; --wait spin (a core per thread) or --wait hybrid wakes"
                + " them sooner"), d.primary().text());
    }
}
