package io.loadgen.core.run;

import io.loadgen.core.diagnosis.Diagnoser;
import io.loadgen.core.diagnosis.Figures;

import java.io.PrintStream;

/**
 * Warns once, early, when the run cannot carry its rate: after the first measured interval (the first after
 * the warm-up), when threads x in-flight is less than Little's law asks for at the latency the target showed
 * in it (rate x service mean), e.g.
 * <pre>
 * loadgen: warning: 1 operation in flight cannot carry 1,000 ops/s at ping's service mean of 10.1 ms: Little's law
 * needs 11; raise --max-in-flight 11 (per thread; now 1). The run goes on; its operations queue, and intended shows
 * the wait.
 * </pre>
 * A blocking driver's threads have one operation in flight each whatever its connections, so its warning names
 * {@code --threads} and says that {@code -c} does not help. A rate changed while the run goes on is checked again, in
 * the first interval at the new rate. The end of the run judges the same law over the whole run
 * ({@code concurrency_limited}). Aggregator thread.
 */
final class LittlesLawCheck implements IntervalSink {
    private final PrintStream out;
    private final String driver;
    private final double targetOpsPerSec;
    private final int threads;
    private final int inFlightPerThread;
    private final boolean async;
    private boolean done;

    /**
     * @param targetOpsPerSec the run's rate; a phased run's rate comes from each interval's phase instead
     */
    LittlesLawCheck(PrintStream out, String driver, double targetOpsPerSec, int threads, int inFlightPerThread,
                    boolean async) {
        this.out = out;
        this.driver = driver;
        this.targetOpsPerSec = targetOpsPerSec;
        this.threads = threads;
        this.inFlightPerThread = inFlightPerThread;
        this.async = async;
    }

    @Override
    public void onInterval(IntervalSnapshot s) {
        for (IntervalSnapshot.Event e : s.events()) {
            if (IntervalSnapshot.Event.RATE_CHANGE.equals(e.kind())) {
                done = false; // switched at this interval's end: the next one runs at the new rate
                return;
            }
        }
        if (done || !s.measured()) {
            return;
        }
        long count = 0;
        double totalNs = 0;
        for (IntervalSnapshot.Op op : s.operations()) {
            count += op.service().getTotalCount() + op.failedService().getTotalCount();
            totalNs += op.service().getMean() * op.service().getTotalCount()
                    + op.failedService().getMean() * op.failedService().getTotalCount();
        }
        if (count == 0) {
            return; // nothing to measure the latency by yet: try the next interval
        }
        done = true;
        double rate = s.targetOpsPerSec() > 0 ? s.targetOpsPerSec() : targetOpsPerSec;
        long meanNs = (long) (totalNs / count);
        long needed = Diagnoser.inFlightNeeded(rate, meanNs);
        long slots = (long) threads * inFlightPerThread;
        if (needed > slots) {
            out.println(warning(rate, meanNs, needed, slots));
        }
    }

    String warning(double rate, long meanNs, long needed, long slots) {
        return "loadgen: warning: " + slots + (slots == 1 ? " operation" : " operations") + " in flight cannot carry "
                + Figures.rate(rate) + " ops/s at " + driver + "'s service mean of " + Figures.duration(meanNs)
                + ": Little's law needs " + needed + "; raise "
                + Diagnoser.concurrencyFlag(async, threads, inFlightPerThread, needed)
                + (async ? "" : " (a blocking driver's thread has one operation in flight, so -c does not raise it)")
                + ". The run goes on; its operations queue, and intended shows the wait.";
    }
}
