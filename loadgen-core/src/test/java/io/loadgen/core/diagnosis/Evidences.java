package io.loadgen.core.diagnosis;

import java.util.ArrayList;
import java.util.List;

/**
 * Evidence for tests, from a healthy run on up: mockdb at 1000 ops/s on 8 threads for 10 s, every operation
 * 4 ms (intended = service, nothing failed, the harness on time). Each setter changes one thing; build() makes
 * the {@link Evidence}. Not thread-safe; tests only.
 */
public final class Evidences {
    private static final long MS = 1_000_000;
    private static final long US = 1_000;

    String target = "mockdb";
    boolean throttled = true;
    double rate = 1000;
    long measuredNs = 10_000 * MS;
    long completed = 10_000;
    long failed;
    List<Evidence.StatusCount> failures = new ArrayList<>();
    String sample;
    long unissued;
    int threads = 8;
    int inFlight = 1;
    boolean async;
    Latencies intended = flat(4 * MS);
    Latencies service = flat(4 * MS);
    Latencies delay = new Latencies(10_000, 0, 20 * US, 25 * US, 80 * US, 200 * US, 900 * US);
    long hiccupMaxNs = 300 * US;
    long gcPauses;
    long gcPauseMaxNs;
    double behindShare;
    double harnessShare;
    double maxErrorRate = Diagnoser.DEFAULT_MAX_ERROR_RATE;
    Latencies reported;
    Latencies undelayed;
    long delayMaxAtNs = 5_000 * MS;

    public static Evidences healthy() {
        return new Evidences();
    }

    /** A distribution that is {@code ns} throughout but for a 5% tail at p99 and a 10% one at the max. */
    public static Latencies flat(long ns) {
        return new Latencies(10_000, ns - ns / 100, ns, ns, ns + ns / 20, ns + ns / 15, ns + ns / 10);
    }

    public Evidences intended(Latencies l) {
        intended = l;
        reported = null;
        return this;
    }

    /** The successes' intended latency less the harness's delay of each (default: intended, nothing delayed). */
    public Evidences undelayed(Latencies l) {
        undelayed = l;
        return this;
    }

    /** The successes' intended latency, when some operations failed (default: every operation's). */
    public Evidences reported(Latencies l) {
        reported = l;
        return this;
    }

    public Evidences service(Latencies l) {
        service = l;
        return this;
    }

    public Evidences delay(Latencies l) {
        delay = l;
        return this;
    }

    public Evidences failed(long n, String status, String message) {
        failed = n;
        failures.add(new Evidence.StatusCount(status, n));
        sample = message;
        return this;
    }

    public Evidences hiccupMax(long ns) {
        hiccupMaxNs = ns;
        return this;
    }

    public Evidences gc(long pauses, long maxNs) {
        gcPauses = pauses;
        gcPauseMaxNs = maxNs;
        return this;
    }

    public Evidences shares(double behind, double harness) {
        behindShare = behind;
        harnessShare = harness;
        return this;
    }

    public Evidences rate(double opsPerSec, long completedOps) {
        rate = opsPerSec;
        completed = completedOps;
        return this;
    }

    public Evidences concurrency(int threadCount, int inFlightPerThread, boolean isAsync) {
        threads = threadCount;
        inFlight = inFlightPerThread;
        async = isAsync;
        return this;
    }

    /** When (from t0) the interval with the harness's longest delay began. */
    public Evidences delayMaxAt(long ns) {
        delayMaxAtNs = ns;
        return this;
    }

    public Evidences unissued(long n) {
        unissued = n;
        return this;
    }

    public Evidences unthrottled() {
        throttled = false;
        rate = 0;
        delay = Latencies.NONE;
        return this;
    }

    public Evidences maxErrorRate(double share) {
        maxErrorRate = share;
        return this;
    }

    public Evidence build() {
        return new Evidence(target, throttled, rate, measuredNs, completed, failed, failures, sample, unissued, threads,
                inFlight, async, intended, service, delay, hiccupMaxNs, gcPauses, gcPauseMaxNs, behindShare,
                harnessShare, maxErrorRate, reported != null ? reported : intended, service,
                !throttled ? Latencies.NONE : undelayed != null ? undelayed : reported != null ? reported : intended,
                delayMaxAtNs, 1_000 * MS, 0);
    }

    public Diagnosis diagnose() {
        return Diagnoser.diagnose(build());
    }
}
