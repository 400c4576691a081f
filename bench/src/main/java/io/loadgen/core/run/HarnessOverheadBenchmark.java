package io.loadgen.core.run;

import io.loadgen.core.StopSignal;
import io.loadgen.core.driver.Driver;
import io.loadgen.core.driver.Status;
import io.loadgen.core.record.WorkerRecorders;
import io.loadgen.core.schedule.FixedRateSchedule;
import io.loadgen.core.time.NanoClock;
import io.loadgen.core.wait.WaitStrategy;
import io.loadgen.core.workload.OperationPlan;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * The harness's own cost per operation, with a driver that does nothing:
 * <ul>
 *   <li>{@code record}: recording one operation (intended and service) into a worker's recorders;</li>
 *   <li>{@code unthrottledLoop}: one trip of the worker loop without a schedule (clock reads, driver call,
 *       recording, status count);</li>
 *   <li>{@code scheduledLoop}: the same with a schedule that is always due (also lag and position),
 *       i.e. the overhead added to every operation of a throttled run, excluding the wait itself;</li>
 *   <li>{@code workloadaLoop}: {@code unthrottledLoop} with YCSB's workloada choosing each operation and key
 *       (50/50 READ/UPDATE, scrambled zipfian over 1000 records, hashed keys), as {@code run -P workloada};</li>
 *   <li>{@code asyncLoop}: an async issuer with one operation in flight (as the {@code ping} driver runs by
 *       default), the driver completing inside {@code submit}: issue, slot, completion and recording.</li>
 *   <li>{@code tracedRecord}, {@code tracedUnthrottledLoop}: {@code record} and {@code unthrottledLoop} with
 *       {@code --trace}'s ring, which a thread of the benchmark drains as the trace writer does (a batch, or a
 *       1 ms sleep when empty) without formatting: the worker's own share of tracing. Rows the drainer cannot take
 *       in time are dropped, as in a run.</li>
 * </ul>
 * Run: {@code java -jar bench/target/benchmarks.jar HarnessOverhead}. Single-threaded, one worker.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class HarnessOverheadBenchmark {
    private static final int LOOP_OPS = 10_000;
    private static final Driver NOOP = op -> Status.OK;

    private static final io.loadgen.core.driver.AsyncDriver INLINE = (op, completion) -> completion.complete(Status.OK);

    private WorkerRecorders recorders;
    private WorkerRecorders asyncRecorders;
    private WorkerRecorders workloadaRecorders;
    private OperationPlan workloada;
    private long t;
    private WorkerRecorders tracedRecorders;
    private io.loadgen.core.trace.TraceRing ring;
    private TraceDrainer drainer;

    @Setup
    public void setUp() {
        recorders = new WorkerRecorders(1);
        asyncRecorders = new WorkerRecorders(1, true);
        workloada = io.loadgen.core.workload.CoreWorkloadPlan.run(io.loadgen.core.workload.CoreWorkloadPlan.Config.of(
                io.loadgen.core.workload.WorkloadOptions.from(java.util.Map.of("recordcount", "1000",
                        "operationcount", "1000", "readallfields", "true", "readproportion", "0.5",
                        "updateproportion", "0.5", "scanproportion", "0", "insertproportion", "0",
                        "requestdistribution", "zipfian"))));
        workloadaRecorders = new WorkerRecorders(workloada.operations().size());
        t = System.nanoTime();
        ring = new io.loadgen.core.trace.TraceRing(io.loadgen.core.trace.TraceWriter.ringRows(1), false, 0);
        tracedRecorders = new WorkerRecorders(1, false, ring);
        drainer = TraceDrainer.start(ring);
    }

    @org.openjdk.jmh.annotations.TearDown
    public void tearDown() throws InterruptedException {
        drainer.close();
    }

    @Benchmark
    public void tracedRecord() {
        long start = t += 997;
        tracedRecorders.record(0, start - 1_000, start, start + (start & 0xFFFF), 1_000, 0);
    }

    @Benchmark
    @OperationsPerInvocation(LOOP_OPS)
    public long tracedUnthrottledLoop() {
        LoadThread w = new Worker(new LoadThread.Setup(0, tracedRecorders, WaitStrategy.SPIN, NanoClock.SYSTEM,
                new StopSignal(), new SchedulePosition(1), LOOP_OPS, OperationPlan.fixed("READ").forThread(0, 1, null),
                new String[]{"READ"}, new int[]{0}), NOOP).arm(null, Long.MAX_VALUE);
        w.run();
        return w.issued();
    }

    @Benchmark
    public void record() {
        long start = t += 997; // varying values, so the counts index moves like real latencies
        recorders.record(0, start - 1_000, start, start + (start & 0xFFFF), 1_000, 0);
    }

    @Benchmark
    @OperationsPerInvocation(LOOP_OPS)
    public long unthrottledLoop() {
        return loop(null);
    }

    @Benchmark
    @OperationsPerInvocation(LOOP_OPS)
    public long scheduledLoop() {
        return loop(new FixedRateSchedule(System.nanoTime() - 1_000_000_000L, 1));
    }

    @Benchmark
    @OperationsPerInvocation(LOOP_OPS)
    public long workloadaLoop() {
        LoadThread w = new Worker(new LoadThread.Setup(0, workloadaRecorders, WaitStrategy.SPIN, NanoClock.SYSTEM,
                new StopSignal(), new SchedulePosition(1), LOOP_OPS,
                workloada.forThread(0, 1, new java.util.SplittableRandom(t)), new String[]{"READ", "UPDATE"},
                new int[]{0, 1}), NOOP).arm(null, Long.MAX_VALUE);
        w.run();
        return w.issued();
    }

    @Benchmark
    @OperationsPerInvocation(LOOP_OPS)
    public long asyncLoop() {
        LoadThread issuer = new AsyncIssuer(new LoadThread.Setup(0, asyncRecorders, WaitStrategy.SPIN, NanoClock.SYSTEM,
                new StopSignal(), new SchedulePosition(1), LOOP_OPS, OperationPlan.fixed("READ").forThread(0, 1, null),
                new String[]{"READ"}, new int[]{0}), INLINE, 1).arm(null, Long.MAX_VALUE);
        issuer.run();
        return issuer.issued();
    }

    private long loop(FixedRateSchedule schedule) {
        LoadThread w = new Worker(new LoadThread.Setup(0, recorders, WaitStrategy.SPIN, NanoClock.SYSTEM,
                new StopSignal(), new SchedulePosition(1), LOOP_OPS, OperationPlan.fixed("READ").forThread(0, 1, null),
                new String[]{"READ"}, new int[]{0}), NOOP).arm(schedule, Long.MAX_VALUE);
        w.run();
        return w.issued();
    }
}
