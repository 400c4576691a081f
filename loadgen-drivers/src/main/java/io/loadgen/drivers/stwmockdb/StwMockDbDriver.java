package io.loadgen.drivers.stwmockdb;

import io.loadgen.core.driver.Driver;
import io.loadgen.core.driver.Operation;
import io.loadgen.core.driver.RunEvents;
import io.loadgen.core.driver.Status;
import io.loadgen.drivers.support.Sleeper;
import io.loadgen.drivers.support.WorkerRandoms;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The four-mode store: each operation draws a {@link Mode} and a delay in that mode's range.
 * Worker threads call {@link #execute} concurrently; {@link #stats} is called once, after they stop.
 *
 * <p>Every operation holds a read lock while it runs; a stop-the-world operation holds the write
 * lock for its length instead. It first waits for operations already running to finish (like a
 * JVM reaching a safepoint), and while it waits or holds the lock no new operation starts, on any
 * thread: the non-fair {@link ReentrantReadWriteLock} makes new readers queue behind a waiting
 * writer. Each stop is logged at INFO once it is over, off the lock, and recorded as a run event
 * ({@code stop-the-world}), which the interval log keeps as an {@code #[event: ...]} line.
 */
final class StwMockDbDriver implements Driver {
    private static final Logger LOG = LogManager.getLogger(StwMockDbDriver.class);
    /** The run event each stop-the-world is recorded as. */
    static final String STOP_THE_WORLD_EVENT = "stop-the-world";
    private static final DateTimeFormatter UTC_MILLIS =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);

    private final ModeTable modes;
    private final long[] minNs;
    private final long[] maxNs;
    private final SplittableRandom[] randoms;
    private final ReentrantReadWriteLock world = new ReentrantReadWriteLock();
    private final AtomicLong stopTheWorldPauses = new AtomicLong();
    private final AtomicLong stopTheWorldTotalNs = new AtomicLong();
    private final LongAdder hiccups = new LongAdder();
    private final RunEvents events;
    private final int stopTheWorldEvent;

    /** @param events where each stop-the-world goes as a {@code stop-the-world} event (the interval log's pause marks) */
    StwMockDbDriver(StwMockDbSettings settings, SplittableRandom[] randoms, RunEvents events) {
        this.events = events;
        this.stopTheWorldEvent = events.kind(STOP_THE_WORLD_EVENT, StwMockDbDriverProvider.NAME);
        this.modes = new ModeTable(settings.probabilities);
        this.minNs = settings.minNs;
        this.maxNs = settings.maxNs;
        this.randoms = randoms;
    }

    @Override
    public Status execute(Operation op) throws InterruptedException {
        SplittableRandom random = randoms[op.workerIndex()];
        Mode mode = modes.pick(random.nextDouble());
        long lengthNs = WorkerRandoms.uniformNs(random, minNs[mode.ordinal()], maxNs[mode.ordinal()]);
        if (mode == Mode.STOP_THE_WORLD) {
            stopTheWorld(lengthNs);
        } else {
            run(mode, lengthNs);
        }
        return Status.OK;
    }

    /** Runs a fast, slow or hiccup operation of {@code lengthNs}, holding the read lock. */
    void run(Mode mode, long lengthNs) throws InterruptedException {
        Lock read = world.readLock();
        read.lockInterruptibly();
        try {
            Sleeper.sleepUntil(System.nanoTime() + lengthNs);
        } finally {
            read.unlock();
        }
        if (mode == Mode.HICCUP) {
            hiccups.increment();
        }
    }

    /** Holds every thread for {@code lengthNs} from the moment the write lock is taken, then logs it. */
    void stopTheWorld(long lengthNs) throws InterruptedException {
        Lock write = world.writeLock();
        write.lockInterruptibly();
        long startMs;
        long heldNs;
        try {
            long startNs = System.nanoTime();
            startMs = System.currentTimeMillis();
            Sleeper.sleepUntil(startNs + lengthNs);
            heldNs = System.nanoTime() - startNs;
        } finally {
            write.unlock();
        }
        long number = stopTheWorldPauses.incrementAndGet();
        stopTheWorldTotalNs.addAndGet(heldNs);
        events.record(stopTheWorldEvent, startMs, heldNs); // allocation-free; the sampler writes it to the log
        if (LOG.isInfoEnabled()) {
            LOG.info(describePause(number, startMs, heldNs));
        }
    }

    /** True while a stop-the-world operation holds every thread; for tests. */
    boolean isWorldStopped() {
        return world.isWriteLocked();
    }

    /** The log line for one stop, e.g. {@code stop-the-world #3 at 2026-11-22T03:41:07.123Z for 137.2 ms}. */
    static String describePause(long number, long startEpochMs, long lengthNs) {
        return String.format(Locale.ROOT, "stop-the-world #%d at %s for %.1f ms",
                number, UTC_MILLIS.format(Instant.ofEpochMilli(startEpochMs)), lengthNs / 1e6);
    }

    /**
     * {@code stop_the_world_pauses}: stops made; {@code stop_the_world_total_ms}: how long they held
     * every thread, as measured (so a little over the drawn lengths); {@code hiccups}: hiccups made.
     */
    @Override
    public Map<String, Number> stats() {
        Map<String, Number> stats = new LinkedHashMap<>();
        stats.put("stop_the_world_pauses", stopTheWorldPauses.get());
        stats.put("stop_the_world_total_ms", stopTheWorldTotalNs.get() / 1e6);
        stats.put("hiccups", hiccups.sum());
        return stats;
    }

    /** What the status line shows as it rises: the pauses and hiccups made in each interval. */
    @Override
    public Map<String, Number> liveStats() {
        Map<String, Number> live = new LinkedHashMap<>();
        live.put("stop_the_world_pauses", stopTheWorldPauses.get());
        live.put("hiccups", hiccups.sum());
        return live;
    }
}
