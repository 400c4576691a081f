package io.loadgen.core.run;

import io.loadgen.core.StopSignal;
import io.loadgen.core.driver.Driver;
import io.loadgen.core.driver.Status;
import io.loadgen.core.record.WorkerRecorders;
import io.loadgen.core.schedule.FixedRateSchedule;
import io.loadgen.core.schedule.Schedule;
import io.loadgen.core.time.NanoClock;
import io.loadgen.core.wait.WaitStrategy;
import io.loadgen.core.workload.OperationPlan;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The recording path allocates nothing: a worker's loop, measured with the JVM's per-thread allocation
 * counter, allocates a fixed few hundred bytes (its Operation holder) however many operations it runs.
 */
class WorkerAllocationTest {
    private static final Driver OK = op -> Status.OK;

    private static LoadThread.Setup setup(long operations, boolean async) {
        return new LoadThread.Setup(0, new WorkerRecorders(1, async), WaitStrategy.ADAPTIVE, NanoClock.SYSTEM,
                new StopSignal(), new SchedulePosition(1), operations, OperationPlan.fixed("READ").forThread(0, 1, null),
                new String[]{"READ"}, new int[]{0});
    }

    /** A YCSB workload's run phase: its sequence chooses each operation's type, key and field on the worker. */
    private static long allocatedByWorkloadWorker(java.util.Map<String, String> workload, long operations)
            throws InterruptedException {
        OperationPlan plan = io.loadgen.core.workload.CoreWorkloadPlan.run(io.loadgen.core.workload.CoreWorkloadPlan.Config
                .of(io.loadgen.core.workload.WorkloadOptions.from(workload)));
        String[] types = plan.operations().toArray(new String[0]);
        int[] driverIndex = java.util.stream.IntStream.range(0, types.length).toArray();
        LoadThread worker = new Worker(new LoadThread.Setup(0, new WorkerRecorders(types.length), WaitStrategy.ADAPTIVE,
                NanoClock.SYSTEM, new StopSignal(), new SchedulePosition(1), operations,
                plan.forThread(0, 1, new java.util.SplittableRandom(1)), types, driverIndex), OK).arm(null, Long.MAX_VALUE);
        return allocatedWhileRunning(worker, operations);
    }

    /** Every other operation fails, so both the success and the failed series are recorded. */
    private static final Driver HALF_FAIL = op -> (op.keyNumber() & 1) == 0 ? Status.OK : Status.ERROR;

    private static long allocatedByWorker(Schedule schedule, long operations) throws InterruptedException {
        return allocatedByWorker(schedule, operations, OK);
    }

    private static long allocatedByWorker(Schedule schedule, long operations, Driver driver) throws InterruptedException {
        return allocatedWhileRunning(new Worker(setup(operations, false), driver).arm(schedule, Long.MAX_VALUE), operations);
    }

    /** Runs the loop on a thread of its own; returns what that thread allocated, checking every operation was issued. */
    private static long allocatedWhileRunning(LoadThread loop, long operations) throws InterruptedException {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long[] bytes = new long[1];
        Thread t = new Thread(() -> {
            long before = mx.getCurrentThreadAllocatedBytes();
            loop.run();
            bytes[0] = mx.getCurrentThreadAllocatedBytes() - before;
        });
        t.start();
        t.join();
        assertEquals(operations, loop.issued());
        return bytes[0];
    }

    private static long allocatedByAsyncIssuer(long operations) throws InterruptedException {
        // Completes inside submit, so issue, completion and recording all run on the measured thread.
        io.loadgen.core.driver.AsyncDriver inline = (op, completion) -> completion.complete(Status.OK);
        LoadThread issuer = new AsyncIssuer(setup(operations, true), inline, 16)
                .arm(new FixedRateSchedule(System.nanoTime(), 1), Long.MAX_VALUE);
        return allocatedWhileRunning(issuer, operations);
    }

    /** The same, for an issuer on an executor (a driver's event loop): the allocation of that executor's thread. */
    private static long allocatedByEventLoopIssuer(long operations) throws Exception {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        java.util.concurrent.ScheduledExecutorService loop = java.util.concurrent.Executors.newSingleThreadScheduledExecutor();
        try {
            io.loadgen.core.driver.AsyncDriver inline = (op, completion) -> completion.complete(Status.OK);
            LoadThread issuer = new EventLoopIssuer(setup(operations, true), inline, 16, loop)
                    .arm(new FixedRateSchedule(System.nanoTime(), 1), Long.MAX_VALUE);
            long before = loop.submit(mx::getCurrentThreadAllocatedBytes).get();
            java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
            issuer.start("issuer", done);
            done.await();
            long after = loop.submit(mx::getCurrentThreadAllocatedBytes).get();
            assertEquals(operations, issuer.issued());
            return after - before;
        } finally {
            loop.shutdownNow();
        }
    }

    @Test
    void anIssuerOnAnEventLoopAllocatesNothingPerOperation() throws Exception {
        allocatedByEventLoopIssuer(200_000);
        long bytes = allocatedByEventLoopIssuer(2_000_000);
        assertTrue(bytes < 64 * 1024, "allocated " + bytes + " bytes for 2,000,000 operations");
    }

    @Test
    void asyncIssueAndCompletionAllocateNothingPerOperation() throws InterruptedException {
        allocatedByAsyncIssuer(200_000);
        long bytes = allocatedByAsyncIssuer(2_000_000);
        assertTrue(bytes < 64 * 1024, "allocated " + bytes + " bytes for 2,000,000 operations");
    }

    /**
     * With {@code --trace}: a worker (one producer) and an async issuer completing inline (the shared ring's
     * compare-and-set path) offer every operation to a ring a thread of the test drains meanwhile, so rows are both
     * taken and, when the ring is full, dropped; neither path allocates on the measured thread.
     */
    @Test
    void tracingAllocatesNothingPerOperation() throws InterruptedException {
        for (boolean async : new boolean[]{false, true}) {
            allocatedWhileTraced(async, 200_000);
            long bytes = allocatedWhileTraced(async, 2_000_000);
            assertTrue(bytes < 64 * 1024, (async ? "async: " : "blocking: ") + "allocated " + bytes
                    + " bytes for 2,000,000 traced operations");
        }
    }

    private static long allocatedWhileTraced(boolean async, long operations) throws InterruptedException {
        io.loadgen.core.trace.TraceRing ring = new io.loadgen.core.trace.TraceRing(1024, async, 0);
        LoadThread.Setup s = new LoadThread.Setup(0, new WorkerRecorders(1, async, ring), WaitStrategy.ADAPTIVE,
                NanoClock.SYSTEM, new StopSignal(), new SchedulePosition(1), operations,
                OperationPlan.fixed("READ").forThread(0, 1, null), new String[]{"READ"}, new int[]{0});
        io.loadgen.core.driver.AsyncDriver inline = (op, completion) -> completion.complete(Status.OK);
        LoadThread loop = async ? new AsyncIssuer(s, inline, 16) : new Worker(s, OK);
        loop.arm(null, Long.MAX_VALUE);
        java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
        long[] drained = new long[1];
        Thread drainer = new Thread(() -> {
            while (!done.get()) {
                drained[0] += ring.drain((w, type, status, i, st, e) -> { }, 256);
            }
        });
        drainer.start();
        try {
            return allocatedWhileRunning(loop, operations);
        } finally {
            done.set(true);
            drainer.join();
            drained[0] += ring.drain((w, type, status, i, st, e) -> { }, Integer.MAX_VALUE);
            assertEquals(operations, drained[0] + ring.dropped(), "every operation offered: taken or dropped");
        }
    }

    @Test
    void unthrottledLoopAllocatesNothingPerOperation() throws InterruptedException {
        allocatedByWorker(null, 200_000); // let the JIT compile the loop first
        long bytes = allocatedByWorker(null, 2_000_000);
        // Two million operations; anything per operation would be at least 16 bytes each (32 MB).
        assertTrue(bytes < 64 * 1024, "allocated " + bytes + " bytes for 2,000,000 operations");
    }

    @Test
    void recordingFailuresApartAllocatesNothingPerOperation() throws InterruptedException {
        allocatedByWorker(null, 200_000, HALF_FAIL);
        long bytes = allocatedByWorker(null, 2_000_000, HALF_FAIL);
        assertTrue(bytes < 64 * 1024, "allocated " + bytes + " bytes for 2,000,000 operations, half of them failed");
    }

    @Test
    void scheduledLoopAllocatesNothingPerOperation() throws InterruptedException {
        // A 1 ns interval keeps the worker always behind: it records lag and publishes its position each time.
        allocatedByWorker(new FixedRateSchedule(System.nanoTime(), 1), 200_000);
        long bytes = allocatedByWorker(new FixedRateSchedule(System.nanoTime(), 1), 2_000_000);
        assertTrue(bytes < 64 * 1024, "allocated " + bytes + " bytes for 2,000,000 operations");
    }

    @Test
    void aScheduleWhoseRateChangesAllocatesNothingPerOperation() throws InterruptedException {
        // 1e9 ops/s (a 1 ns gap, always behind), changed to 5e8 ops/s at the first 1 ms boundary: with 2,000,000
        // operations the worker's schedule crosses the switch and follows the change on the worker's own thread.
        allocatedByWorker(changing(), 200_000);
        long bytes = allocatedByWorker(changing(), 2_000_000);
        assertTrue(bytes < 64 * 1024, "allocated " + bytes + " bytes for 2,000,000 operations");
    }

    private static io.loadgen.core.schedule.Schedule changing() {
        long now = System.nanoTime();
        io.loadgen.core.schedule.RateControl control = new io.loadgen.core.schedule.RateControl(1e9, 1, 1,
                1_000_000, NanoClock.SYSTEM);
        control.start(now);
        control.request(5e8, "api");
        return new io.loadgen.core.schedule.ChangeableSchedule(new FixedRateSchedule(now, 1), control);
    }

    @Test
    void workloadaKeyAndOperationChoiceAllocateNothingPerOperation() throws InterruptedException {
        // Scrambled zipfian keys, hashed key numbers, a random field for each UPDATE.
        java.util.Map<String, String> workloada = java.util.Map.of("recordcount", "1000", "readproportion", "0.5",
                "updateproportion", "0.5", "requestdistribution", "zipfian");
        allocatedByWorkloadWorker(workloada, 200_000);
        long bytes = allocatedByWorkloadWorker(workloada, 2_000_000);
        assertTrue(bytes < 64 * 1024, "allocated " + bytes + " bytes for 2,000,000 operations");
    }

    @Test
    void insertsAndLatestKeysAllocateNothingPerOperation() throws InterruptedException {
        // workloadd: 5% INSERTs take and acknowledge new keys; READs follow the newest (skewed latest).
        java.util.Map<String, String> workloadd = java.util.Map.of("recordcount", "1000", "readproportion", "0.95",
                "updateproportion", "0", "insertproportion", "0.05", "requestdistribution", "latest");
        allocatedByWorkloadWorker(workloadd, 200_000);
        long bytes = allocatedByWorkloadWorker(workloadd, 2_000_000);
        assertTrue(bytes < 64 * 1024, "allocated " + bytes + " bytes for 2,000,000 operations");
    }
}
