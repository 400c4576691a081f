package io.loadgen.core.summary;

import io.loadgen.core.driver.Status;
import io.loadgen.core.record.Histograms;
import io.loadgen.core.record.View;
import org.HdrHistogram.Histogram;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Hand-built run results with known distributions, for the summary-format tests. Test thread only.
 *
 * <ul>
 *   <li>READ: service records 1, 2, ... 1000 µs once each; intended records 2, 4, ... 2000 µs;
 *       corrected is service corrected for a 100 µs expected interval (so it holds more values).
 *       Statuses OK=990, ERROR=10.</li>
 *   <li>UPDATE: service 100 × 5 ms; intended 100 × 7 ms; corrected likewise. OK=97, NOT_FOUND=3.</li>
 *   <li>lag: 1100 × 20 µs. 1100 operations in 10 s at a 110 ops/s target on 2 threads.</li>
 * </ul>
 */
final class KnownRuns {
    static final long US = 1_000L;
    static final long MS = 1_000_000L;
    static final long RUN_TIME_NS = 10_000_000_000L;
    static final long EXPECTED_INTERVAL_NS = 100 * US;

    private KnownRuns() {
    }

    static RunResult throttled() {
        return new RunResult("mockdb", 110.0, 2, RUN_TIME_NS, List.of(read(true), update(true)),
                repeated(1100, 20 * US), EXPECTED_INTERVAL_NS, 7, driverStats(), harness(), "duration");
    }

    /**
     * The throttled run as if an async issuer with 1024 in flight had run it: 1 x 1024 / 1000 ops/s = 1.024 s,
     * longer than a 1 s run, so its corrected view is not applicable.
     */
    static RunResult notApplicable() {
        RunResult t = throttled();
        return new RunResult(t.driver(), 1000.0, 1, 1_000_000_000L, t.operations(), t.lag(), MS, 7,
                t.driverStats(), t.harness(), "duration", CorrectedBasis.of(1000.0, 1, 1024, 1_000_000_000L));
    }

    /** The same operations with no target rate: intended equals service, no lag, no interval. */
    static RunResult unthrottled() {
        return new RunResult("mockdb", 0.0, 2, RUN_TIME_NS, List.of(read(false), update(false)),
                Histograms.newHistogram(), 0, 0, driverStats(), harness(), "duration");
    }

    static OpResult read(boolean throttled) {
        Histogram service = Histograms.newHistogram();
        Histogram intended = Histograms.newHistogram();
        for (long us = 1; us <= 1000; us++) {
            service.recordValue(us * US);
            intended.recordValue(2 * us * US);
        }
        return op("READ", service, throttled ? intended : service, statuses(Status.OK, 990, Status.ERROR, 10));
    }

    static OpResult update(boolean throttled) {
        Histogram service = repeated(100, 5 * MS);
        Histogram intended = repeated(100, 7 * MS);
        return op("UPDATE", service, throttled ? intended : service, statuses(Status.OK, 97, Status.NOT_FOUND, 3));
    }

    /** An operation type that was configured but never completed: every histogram empty. */
    static OpResult empty(String name) {
        return op(name, Histograms.newHistogram(), Histograms.newHistogram(), new long[Status.count()]);
    }

    static Histogram repeated(int times, long ns) {
        Histogram h = Histograms.newHistogram();
        h.recordValueWithCount(ns, times);
        return h;
    }

    private static OpResult op(String name, Histogram service, Histogram intended, long[] statuses) {
        Map<View, Histogram> views = new EnumMap<>(View.class);
        views.put(View.SERVICE, service);
        views.put(View.INTENDED, intended);
        views.put(View.CORRECTED, service.copyCorrectedForCoordinatedOmission(EXPECTED_INTERVAL_NS));
        return new OpResult(name, views, statuses);
    }

    private static long[] statuses(Status a, long countA, Status b, long countB) {
        long[] counts = new long[Status.count()];
        counts[a.ordinal()] = countA;
        counts[b.ordinal()] = countB;
        return counts;
    }

    private static Map<String, Number> driverStats() {
        Map<String, Number> stats = new LinkedHashMap<>();
        stats.put("connections", 4);
        stats.put("retries", 2L);
        return stats;
    }

    private static Map<String, Number> harness() {
        Map<String, Number> stats = new LinkedHashMap<>();
        stats.put("gc_count", 3);
        stats.put("gc_time_ms", 12.5);
        return stats;
    }

    /** Lowest value, in whole µs, that a histogram reports for a recorded {@code ns}. */
    static long lowestMicros(long ns) {
        return Histograms.newHistogram().lowestEquivalentValue(ns) / US;
    }

    /** Highest value, in whole µs, that a histogram reports for a recorded {@code ns}. */
    static long highestMicros(long ns) {
        return Histograms.newHistogram().highestEquivalentValue(ns) / US;
    }
}
