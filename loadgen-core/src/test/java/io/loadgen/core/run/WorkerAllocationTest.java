package io.loadgen.core.run;

import io.loadgen.core.StopSignal;
import io.loadgen.core.driver.Driver;
import io.loadgen.core.driver.Status;
import io.loadgen.core.record.WorkerRecorders;
import io.loadgen.core.schedule.FixedRateSchedule;
import io.loadgen.core.schedule.Schedule;
import io.loadgen.core.time.NanoClock;
import io.loadgen.core.wait.WaitStrategy;
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
        return new LoadThread.Setup(0, new WorkerRecorders(1, async), WaitStrategy.PARK, NanoClock.SYSTEM,
                new StopSignal(), new SchedulePosition(1), operations, OperationPlan.fixed("READ").forThread(0, 1, null),
                new String[]{"READ"}, new int[]{0});
    }

    /** Every other operation fails, so both the success and the failed series are recorded. */
    private static final Driver HALF_FAIL = op -> (op.keyNumber() & 1) == 0 ? Status.OK : Status.ERROR;

    private static long allocatedByWorker(Schedule schedule, long operations) throws InterruptedException {
        return allocatedByWorker(schedule, operations, OK);
    }

    private static long allocatedByWorker(Schedule schedule, long operations, Driver driver) throws InterruptedException {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        LoadThread worker = new Worker(setup(operations, false), driver).arm(schedule, Long.MAX_VALUE);
        long[] bytes = new long[1];
        Thread t = new Thread(() -> {
            long before = mx.getCurrentThreadAllocatedBytes();
            worker.run();
            bytes[0] = mx.getCurrentThreadAllocatedBytes() - before;
        });
        t.start();
        t.join();
        assertEquals(operations, worker.issued());
        return bytes[0];
    }

    private static long allocatedByAsyncIssuer(long operations) throws InterruptedException {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        // Completes inside submit, so issue, completion and recording all run on the measured thread.
        io.loadgen.core.driver.AsyncDriver inline = (op, completion) -> completion.complete(Status.OK);
        LoadThread issuer = new AsyncIssuer(setup(operations, true), inline, 16)
                .arm(new FixedRateSchedule(System.nanoTime(), 1), Long.MAX_VALUE);
        long[] bytes = new long[1];
        Thread t = new Thread(() -> {
            long before = mx.getCurrentThreadAllocatedBytes();
            issuer.run();
            bytes[0] = mx.getCurrentThreadAllocatedBytes() - before;
        });
        t.start();
        t.join();
        assertEquals(operations, issuer.issued());
        return bytes[0];
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
}
