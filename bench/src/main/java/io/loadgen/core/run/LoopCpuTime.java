package io.loadgen.core.run;

import io.loadgen.core.StopSignal;
import io.loadgen.core.driver.Driver;
import io.loadgen.core.driver.Status;
import io.loadgen.core.record.WorkerRecorders;
import io.loadgen.core.schedule.FixedRateSchedule;
import io.loadgen.core.time.NanoClock;
import io.loadgen.core.wait.WaitStrategy;
import io.loadgen.core.workload.OperationPlan;

import java.lang.management.ManagementFactory;

/**
 * The worker loop's CPU time per operation with a no-op driver, for A/B comparisons on a shared machine
 * where wall-clock benchmarks swing by tens of percent: a thread's CPU time does not count the time it
 * was descheduled. {@code scheduled} uses a schedule that is always due (so every operation is issued
 * behind schedule: lag, position and the harness's behind-schedule share are all counted);
 * {@code unthrottled} has none; {@code traced} is {@code unthrottled} with {@code --trace}'s ring, drained by another
 * thread as the trace writer does but without formatting (its CPU is not counted: the worker's share only).
 * Prints the fastest of five measured rounds of 10,000,000 operations, after three warm-up rounds.
 * Run: {@code java -cp bench/target/benchmarks.jar io.loadgen.core.run.LoopCpuTime scheduled}.
 */
public final class LoopCpuTime {
    private static final int OPS = 10_000_000;
    private static final int WARM_UP_ROUNDS = 3;
    private static final int ROUNDS = 5;

    private LoopCpuTime() {
    }

    public static void main(String[] args) {
        boolean scheduled = args.length > 0 && args[0].equals("scheduled");
        boolean traced = args.length > 0 && args[0].equals("traced");
        Driver noop = op -> Status.OK;
        io.loadgen.core.trace.TraceRing ring = traced
                ? new io.loadgen.core.trace.TraceRing(io.loadgen.core.trace.TraceWriter.ringRows(1), false, 0) : null;
        WorkerRecorders recorders = new WorkerRecorders(1, false, ring);
        if (traced) {
            TraceDrainer.start(ring); // a daemon: it ends with the JVM
        }
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        double best = Double.MAX_VALUE;
        for (int round = 0; round < WARM_UP_ROUNDS + ROUNDS; round++) {
            LoadThread w = new Worker(new LoadThread.Setup(0, recorders, WaitStrategy.SPIN, NanoClock.SYSTEM,
                    new StopSignal(), new SchedulePosition(1), OPS, OperationPlan.fixed("READ").forThread(0, 1, null),
                    new String[]{"READ"}, new int[]{0}), noop)
                    .arm(scheduled ? new FixedRateSchedule(System.nanoTime() - 1_000_000_000L, 1) : null, Long.MAX_VALUE);
            long before = mx.getCurrentThreadCpuTime();
            w.run();
            double nsPerOp = (mx.getCurrentThreadCpuTime() - before) / (double) OPS;
            recorders.flip();
            if (round >= WARM_UP_ROUNDS) {
                best = Math.min(best, nsPerOp);
            }
        }
        System.out.printf(java.util.Locale.ROOT, "%s loop: %.1f ns of CPU per operation (fastest of %d rounds)%n",
                scheduled ? "scheduled" : traced ? "traced unthrottled" : "unthrottled", best, ROUNDS);
    }
}
