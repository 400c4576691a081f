package io.loadgen.core.diagnosis;

import java.util.List;
import java.util.Objects;

/**
 * What a run measured that a {@link Diagnosis} is judged from: over the measured time (after the warm-up),
 * the schedule and what was done of it, the operations' latency from their intended and their actual start,
 * the harness's own delay of them, its share of the workers' time, the platform's hiccups and the harness's
 * GC. Plain numbers, so {@link Diagnoser#diagnose} is a pure function a test can feed exactly. Immutable.
 *
 * @param target            the driver's name, e.g. {@code redis}: who the sentences call the target
 * @param throttled         whether the run had a schedule (a target rate)
 * @param targetOpsPerSec   the rate asked for, ops/s; 0 when unthrottled
 * @param measuredNs        the measured time
 * @param completed         operations completed, whatever their status
 * @param failed            of those, the ones that did not end OK
 * @param failures          the failures by status, most first
 * @param sampleFailure     a message of one failure (a driver exception), or null
 * @param unissued          operations due before the end that were never issued (the backlog left)
 * @param threads           worker (or issuer) threads
 * @param inFlightPerThread operations one thread may have in flight (1 for a blocking worker)
 * @param async             whether the driver is async (in-flight set by {@code --max-in-flight}), else blocking
 * @param intended          every completed operation's latency from its intended start
 * @param service           the same from its actual start
 * @param harnessDelay      how much of each operation's wait the harness itself caused (its lag, or what it
 *                          carried over from the operations before it in a backlog, whichever is larger); {@link Latencies#NONE}
 *                          when unthrottled
 * @param hiccupMaxNs       the longest stall the hiccup meter (a sleeping thread) saw; -1 when not measured
 * @param gcPauses          the harness JVM's GC pauses
 * @param gcPauseMaxNs      the longest of them
 * @param behindShare       the share of the workers' time spent on operations issued behind schedule, 0..1
 * @param harnessShare      of that, the share the harness itself took between operations, 0..1
 * @param maxErrorRate      the failed share above which the run failed ({@code --max-error-rate}); 1 disables
 * @param reportedIntended  the successes' latency from their intended start: what the summary reports, so what a
 *                          harness delay could distort (failures are reported apart)
 * @param reportedService   the successes' service time
 * @param undelayed         the successes' intended latency less the harness's own delay of each: what the target
 *                          alone would have given them; {@link Latencies#NONE} when unthrottled
 * @param delayMaxAtNs      when the harness's longest delay happened: the start of its interval, in ns from the
 *                          run's start (the first interval: 0); -1 when unknown
 * @param intervalNs        the run's interval ({@code --interval})
 * @param warmupNs          the run's warm-up ({@code --warmup}), 0 for none
 */
public record Evidence(String target, boolean throttled, double targetOpsPerSec, long measuredNs, long completed,
                       long failed, List<StatusCount> failures, String sampleFailure, long unissued, int threads,
                       int inFlightPerThread, boolean async, Latencies intended, Latencies service,
                       Latencies harnessDelay, long hiccupMaxNs, long gcPauses, long gcPauseMaxNs,
                       double behindShare, double harnessShare, double maxErrorRate, Latencies reportedIntended,
                       Latencies reportedService, Latencies undelayed, long delayMaxAtNs, long intervalNs, long warmupNs) {

    public Evidence {
        Objects.requireNonNull(target, "target");
        failures = List.copyOf(failures);
        Objects.requireNonNull(intended, "intended");
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(harnessDelay, "harnessDelay");
        Objects.requireNonNull(reportedIntended, "reportedIntended");
        Objects.requireNonNull(reportedService, "reportedService");
        Objects.requireNonNull(undelayed, "undelayed");
    }

    /** How many operations of one status. */
    public record StatusCount(String status, long count) {
    }

    /** Operations completed per second of measured time. */
    public double achievedOpsPerSec() {
        return measuredNs <= 0 ? 0 : completed * 1e9 / measuredNs;
    }

    /** The failed share of the completed operations, 0..1 (0 when none completed). */
    public double failedShare() {
        return completed == 0 ? 0 : (double) failed / completed;
    }

    /** How many operations could be in flight at once: threads x in-flight per thread. */
    public long slots() {
        return (long) threads * inFlightPerThread;
    }

    /** This evidence with another failed-share limit. */
    public Evidence withMaxErrorRate(double rate) {
        return new Evidence(target, throttled, targetOpsPerSec, measuredNs, completed, failed, failures,
                sampleFailure, unissued, threads, inFlightPerThread, async, intended, service, harnessDelay, hiccupMaxNs,
                gcPauses, gcPauseMaxNs, behindShare, harnessShare, rate, reportedIntended, reportedService, undelayed, delayMaxAtNs, intervalNs,
                warmupNs);
    }
}
