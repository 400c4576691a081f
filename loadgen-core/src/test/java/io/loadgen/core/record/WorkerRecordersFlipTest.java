package io.loadgen.core.record;

import io.loadgen.core.driver.Status;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Interval flips racing a writer never lose an operation and never split one across two intervals, with one
 * writer (a blocking worker) or several (an async driver's completions). Each recorded
 * operation writes its intended, service, lag, delay and status count in one critical section; a reader that
 * flips as fast as it can must find, in every interval, as many values in each of those series as status
 * counts, and over all intervals exactly the operations recorded. Bounded: a fixed count of operations.
 */
class WorkerRecordersFlipTest {
    private static final int OPERATIONS_PER_WRITER = 2_000_000;
    private static final int OK = Status.OK.ordinal();
    private static final int ERROR = Status.ERROR.ordinal();

    @Test
    void oneWriterNeverLosesOrSplitsAnOperationAcrossFlips() throws InterruptedException {
        checkFlips(new WorkerRecorders(1, false), 1);
    }

    @Test
    void severalWritersNeverLoseOrSplitAnOperationAcrossFlips() throws InterruptedException {
        checkFlips(new WorkerRecorders(1, true), 2);
    }

    @Test
    void anUnthrottledRunReadsTheServiceViewFromTheIntendedOne() {
        WorkerRecorders recorders = new WorkerRecorders(1, false, true, null);
        recorders.record(0, 1_000, 1_000, 5_000, WorkerRecorders.NO_LAG, OK);
        recorders.record(0, 2_000, 2_000, 9_000, WorkerRecorders.NO_LAG, ERROR);
        recorders.flip();
        Histogram intended = Histograms.newHistogram();
        Histogram service = Histograms.newHistogram();
        recorders.addTo(0, View.INTENDED, intended);
        recorders.addTo(0, View.SERVICE, service);
        assertEquals(intended, service);
        assertEquals(1, service.getTotalCount());
        assertEquals(4_000, service.getMaxValue(), 4_000 / 1000.0, "the successful operation's 4 µs");
        Histogram failedService = Histograms.newHistogram();
        recorders.addFailedTo(0, View.SERVICE, failedService);
        assertEquals(1, failedService.getTotalCount());
        assertEquals(7_000, failedService.getMaxValue(), 7_000 / 1000.0, "the failed operation's 7 µs");
    }

    private static void checkFlips(WorkerRecorders recorders, int writers) throws InterruptedException {
        AtomicBoolean done = new AtomicBoolean();
        Thread[] threads = new Thread[writers];
        for (int w = 0; w < writers; w++) {
            threads[w] = new Thread(() -> {
                for (int i = 0; i < OPERATIONS_PER_WRITER; i++) {
                    long start = 1_000L * i;
                    recorders.record(0, start - 500, start, start + 100 + (i & 1023), 500, 300, (i & 7) == 0 ? ERROR : OK);
                }
            });
            threads[w].start();
        }
        Thread watcher = new Thread(() -> {
            for (Thread t : threads) {
                try {
                    t.join();
                } catch (InterruptedException e) {
                    return;
                }
            }
            done.set(true);
        });
        watcher.start();
        long total = 0;
        int intervals = 0;
        long[] status = new long[Status.count()];
        Histogram intended = Histograms.newHistogram();
        Histogram service = Histograms.newHistogram();
        Histogram failedIntended = Histograms.newHistogram();
        Histogram lag = Histograms.newHistogram();
        Histogram delay = Histograms.newHistogram();
        while (true) {
            boolean last = done.get(); // read before the flip: a flip after the writers ended holds their last writes
            recorders.flip();
            intended.reset();
            service.reset();
            failedIntended.reset();
            lag.reset();
            delay.reset();
            java.util.Arrays.fill(status, 0);
            recorders.addTo(0, View.INTENDED, intended);
            recorders.addTo(0, View.SERVICE, service);
            recorders.addFailedTo(0, View.INTENDED, failedIntended);
            recorders.addLagTo(lag);
            recorders.addHarnessDelayTo(delay);
            recorders.addStatusTo(status);
            long operations = status[OK] + status[ERROR];
            assertEquals(status[OK], intended.getTotalCount(), "interval " + intervals + ": successes' intended");
            assertEquals(status[OK], service.getTotalCount(), "interval " + intervals + ": successes' service");
            assertEquals(status[ERROR], failedIntended.getTotalCount(), "interval " + intervals + ": failures");
            assertEquals(operations, lag.getTotalCount(), "interval " + intervals + ": lag");
            assertEquals(operations, delay.getTotalCount(), "interval " + intervals + ": harness delay");
            total += operations;
            intervals++;
            if (last) {
                break;
            }
        }
        watcher.join();
        assertEquals((long) writers * OPERATIONS_PER_WRITER, total, "every operation, in exactly one interval");
        assertTrue(intervals > 2, "the reader flipped while the writers wrote: " + intervals + " intervals");
    }
}
