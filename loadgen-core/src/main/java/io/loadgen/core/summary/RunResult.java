package io.loadgen.core.summary;

import io.loadgen.core.diagnosis.Diagnosis;
import org.HdrHistogram.Histogram;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything a finished (or interrupted) run measured, after the warm-up: the immutable input of
 * every summary format (YCSB text, JSON, .hgrm, the side-by-side table). Built on the main thread.
 *
 * @param driver              the driver's name, e.g. {@code stw-mockdb}
 * @param targetOpsPerSec     the total intended rate, or 0 for an unthrottled run (no schedule)
 * @param threads             worker threads
 * @param runTimeNs           measured time after the warm-up, from the end of the warm-up to the last completion
 * @param operations          one entry per operation type the run issued, in the driver's order
 * @param lag                 the scheduler's own delay (ns): actual start minus the later of the intended start and the moment the worker became free; empty when unthrottled
 * @param expectedIntervalNs  each worker's intended gap (threads / target); 0 when unthrottled. The corrected
 *                            view's interval is {@code corrected}'s, which also counts the operations in flight
 * @param unissuedOps         operations whose intended start fell inside the run but that were never
 *                            issued because the run ended first (the backlog left behind)
 * @param driverStats         the driver's own counters ({@code Driver#stats()})
 * @param harness             the harness's own health: GC count and time during the run, etc.
 * @param stopReason          why the run ended: {@code duration}, {@code operations}, {@code SIGINT}, ...
 * @param corrected           the expected interval the corrected view was computed with and the concurrency it
 *                            came from, or why the run has none ({@link CorrectedBasis})
 * @param health              the harness's watch on itself: hiccups, its GC pauses, its share of the workers'
 *                            time, and the verdict; {@link HarnessReport#NONE} when it did not watch
 * @param info                when the run started, its seed and effective properties; {@link RunInfo#NONE} when unknown
 * @param diagnosis           what the numbers mean: the causes that shaped them and the headline; null for a result
 *                            without one (a summary made from an interval log)
 */
public record RunResult(
        String driver,
        double targetOpsPerSec,
        int threads,
        long runTimeNs,
        List<OpResult> operations,
        Histogram lag,
        long expectedIntervalNs,
        long unissuedOps,
        Map<String, Number> driverStats,
        Map<String, Number> harness,
        String stopReason,
        CorrectedBasis corrected,
        HarnessReport health,
        RunInfo info,
        Diagnosis diagnosis) {

    public RunResult {
        operations = List.copyOf(operations);
        Objects.requireNonNull(corrected, "corrected");
        Objects.requireNonNull(health, "health");
        Objects.requireNonNull(info, "info");
        driverStats = Collections.unmodifiableMap(new LinkedHashMap<>(driverStats));
        harness = Collections.unmodifiableMap(new LinkedHashMap<>(harness));
    }

    /** A result without a diagnosis (a summary made from a log). */
    public RunResult(String driver, double targetOpsPerSec, int threads, long runTimeNs, List<OpResult> operations,
                     Histogram lag, long expectedIntervalNs, long unissuedOps, Map<String, Number> driverStats,
                     Map<String, Number> harness, String stopReason, CorrectedBasis corrected, HarnessReport health,
                     RunInfo info) {
        this(driver, targetOpsPerSec, threads, runTimeNs, operations, lag, expectedIntervalNs, unissuedOps,
                driverStats, harness, stopReason, corrected, health, info, null);
    }

    /** A result without its start, seed and properties ({@link RunInfo#NONE}). */
    public RunResult(String driver, double targetOpsPerSec, int threads, long runTimeNs, List<OpResult> operations,
                     Histogram lag, long expectedIntervalNs, long unissuedOps, Map<String, Number> driverStats,
                     Map<String, Number> harness, String stopReason, CorrectedBasis corrected, HarnessReport health) {
        this(driver, targetOpsPerSec, threads, runTimeNs, operations, lag, expectedIntervalNs, unissuedOps,
                driverStats, harness, stopReason, corrected, health, RunInfo.NONE);
    }

    /** A result without the harness's watch on itself ({@link HarnessReport#NONE}). */
    public RunResult(String driver, double targetOpsPerSec, int threads, long runTimeNs, List<OpResult> operations,
                     Histogram lag, long expectedIntervalNs, long unissuedOps, Map<String, Number> driverStats,
                     Map<String, Number> harness, String stopReason, CorrectedBasis corrected) {
        this(driver, targetOpsPerSec, threads, runTimeNs, operations, lag, expectedIntervalNs, unissuedOps,
                driverStats, harness, stopReason, corrected, HarnessReport.NONE);
    }

    /**
     * A result whose corrected view, if any, was computed as for serial callers: with
     * {@code expectedIntervalNs} (threads / target), or not at all when that is 0.
     */
    public RunResult(String driver, double targetOpsPerSec, int threads, long runTimeNs, List<OpResult> operations,
                     Histogram lag, long expectedIntervalNs, long unissuedOps, Map<String, Number> driverStats,
                     Map<String, Number> harness, String stopReason) {
        this(driver, targetOpsPerSec, threads, runTimeNs, operations, lag, expectedIntervalNs, unissuedOps,
                driverStats, harness, stopReason, CorrectedBasis.serial(expectedIntervalNs));
    }

    public boolean throttled() {
        return targetOpsPerSec > 0;
    }

    /** Operations completed after the warm-up, over all types. */
    public long totalOperations() {
        long n = 0;
        for (OpResult op : operations) {
            n += op.count();
        }
        return n;
    }

    /** Completed operations per second of measured run time. */
    public double throughputOpsPerSec() {
        return runTimeNs <= 0 ? 0.0 : totalOperations() * 1e9 / runTimeNs;
    }
}
