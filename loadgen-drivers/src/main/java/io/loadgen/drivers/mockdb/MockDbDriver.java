package io.loadgen.drivers.mockdb;

import io.loadgen.core.driver.Driver;
import io.loadgen.core.driver.Operation;
import io.loadgen.core.driver.Status;
import io.loadgen.drivers.support.Sleeper;
import io.loadgen.drivers.support.WorkerRandoms;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * A store that takes a set time per operation and, optionally, stops the world on a fixed period and
 * serves a limited number of operations per second.
 * Worker threads call {@link #execute} concurrently; {@link #stats} is called once, after they stop.
 *
 * <p>Pause windows are {@code [openNs + j*every, openNs + j*every + length)} for {@code j = 1, 2, ...}.
 * An operation that arrives inside a window waits for the window's end before its delay starts;
 * one whose delay ends inside a window returns at that window's end. A window that lies wholly
 * inside an operation's delay does not lengthen it (the store "worked through" it). With
 * {@code delay = 0} an operation arriving at time {@code t} in a window therefore takes exactly
 * {@code windowEnd - t}, which is what makes the latency distribution known in advance.
 *
 * <p>With a capacity C ({@code mockdb.capacity}), the store serves one operation at a time, in arrival
 * order, like a single-threaded server: each occupies it for {@code 1/C}, from when it arrives or when the
 * store is next free, whichever is later; its delay (and any pause) follows. So an operation arriving at
 * {@code t} completes at {@code max(t, free) + 1/C + delay}, and the store is then free at
 * {@code max(t, free) + 1/C}: a backlog of k operations ahead of it adds {@code k/C}. When the store is next
 * free is one {@link AtomicLong}, advanced by compare-and-set, so workers never lock.
 */
final class MockDbDriver implements Driver {
    private final long delayNs;
    private final boolean randomize;
    private final long pauseEveryNs;
    private final long pauseLengthNs;
    private final long openNs;
    private final long occupancyNs;
    /** When the store is next free to serve an operation, on the nanoTime timeline (capacity only). */
    private final AtomicLong freeNs;
    private final SplittableRandom[] randoms;
    private final LongAdder pausedOperations = new LongAdder();

    /** @param openNs when the driver opened, on the {@link System#nanoTime()} timeline; pauses count from it */
    MockDbDriver(MockDbSettings settings, SplittableRandom[] randoms, long openNs) {
        this.delayNs = settings.delayNs();
        this.randomize = settings.randomize();
        this.pauseEveryNs = settings.pauseEveryNs();
        this.pauseLengthNs = settings.pauseLengthNs();
        this.occupancyNs = settings.occupancyNs();
        this.randoms = randoms;
        this.openNs = openNs;
        this.freeNs = new AtomicLong(openNs);
    }

    @Override
    public Status execute(Operation op) throws InterruptedException {
        long arrivalNs = System.nanoTime();
        long workNs = randomize ? WorkerRandoms.uniformNs(randoms[op.workerIndex()], 0, delayNs) : delayNs;
        long startNs = occupancyNs == 0 ? arrivalNs : takeTurn(arrivalNs);
        long servedNs = completionNs(startNs, occupancyNs);
        long doneNs = completionNs(servedNs, workNs);
        if (doneNs != startNs + occupancyNs + workNs) {
            pausedOperations.increment();
        }
        Sleeper.sleepUntil(doneNs);
        return Status.OK;
    }

    /**
     * Takes the store's next turn for an operation arriving at {@code arrivalNs} and returns when the turn
     * starts: at arrival, or when the store is next free if that is later. The turn occupies the store for
     * {@code 1/capacity} (a pause it runs into holds it, as it holds any work), so the store is next free at
     * {@code completionNs(start, 1/capacity)}. Lock-free (a compare-and-set loop); allocates nothing.
     */
    long takeTurn(long arrivalNs) {
        while (true) {
            long freeAtNs = freeNs.get();
            long startNs = freeAtNs - arrivalNs > 0 ? freeAtNs : arrivalNs;
            if (freeNs.compareAndSet(freeAtNs, completionNs(startNs, occupancyNs))) {
                return startNs;
            }
        }
    }

    /** When an operation arriving at {@code arrivalNs} and needing {@code workNs} completes. Pure. */
    long completionNs(long arrivalNs, long workNs) {
        return pauseEndNs(pauseEndNs(arrivalNs) + workNs);
    }

    /** The end of the pause window containing {@code nowNs}, or {@code nowNs} when it is in none. Pure. */
    long pauseEndNs(long nowNs) {
        long sinceOpenNs = nowNs - openNs;
        if (pauseEveryNs == 0 || sinceOpenNs < pauseEveryNs) {
            return nowNs;
        }
        long intoPeriodNs = sinceOpenNs % pauseEveryNs;
        return intoPeriodNs < pauseLengthNs ? nowNs - intoPeriodNs + pauseLengthNs : nowNs;
    }

    /**
     * {@code pauses}: pause windows that began between open and now (the end of the run), whether or
     * not an operation ran into one. {@code paused_operations}: operations a window made later.
     */
    @Override
    public Map<String, Number> stats() {
        Map<String, Number> stats = new LinkedHashMap<>();
        stats.put("pauses", pauseEveryNs == 0 ? 0L : Math.max(0L, (System.nanoTime() - openNs) / pauseEveryNs));
        stats.put("paused_operations", pausedOperations.sum());
        return stats;
    }

    /** What the status line shows as it rises: the operations that waited out a pause, per interval. */
    @Override
    public Map<String, Number> liveStats() {
        return Map.of("paused_operations", pausedOperations.sum());
    }
}
