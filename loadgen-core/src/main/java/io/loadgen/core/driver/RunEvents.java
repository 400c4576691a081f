package io.loadgen.core.driver;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.regex.Pattern;

/**
 * Things that happened during a run at a moment and for a while, such as a store's stop-the-world
 * pause or the harness's own GC pause, on their way to the interval log as {@code #[event: ...]}
 * comment lines ({@code io.loadgen.core.record.EventLine}). Drivers record into it through
 * {@link DriverContext#events()}. Many writers, one reader: any thread may {@link #record} (a driver's
 * worker, a JMX notification thread); only the interval sampler {@link #drain}s.
 *
 * <p>Recording allocates nothing and takes no lock: a bounded ring of preallocated slots, claimed
 * by compare-and-set, each published by its sequence number (JCTools' {@code MpscArrayQueue} design,
 * with the event's three fields in parallel arrays). When the sampler has fallen {@value #CAPACITY}
 * events behind, further events are counted in {@link #dropped()} and not kept: events are rare
 * (pauses), and the run must never wait for its log.
 * <pre><code>
 * int stw = events.kind("stop-the-world", "stw-mockdb");   // when the driver opens
 * ...
 * events.record(stw, startEpochMs, heldNs);                 // on any thread, during the run
 * </code></pre>
 */
public final class RunEvents {
    /** Events held between two samples before further ones are dropped. */
    public static final int CAPACITY = 1 << 12;

    /** Keeps nothing: for a driver opened outside a run (tests, tools), so drivers need no null check. */
    public static final RunEvents NONE = new RunEvents(1);
    /** A kind or source: one lower-case word, so its event line parses back. */
    private static final Pattern WORD = Pattern.compile("[a-z0-9][a-z0-9.-]*");

    private final int capacity;
    private final int mask;
    private final List<String> kinds = new ArrayList<>();
    private final List<String> sources = new ArrayList<>();
    private final int[] kindOf;
    private final long[] startEpochMs;
    private final long[] lengthNs;
    /** Slot i holds event n when its sequence is n + 1. */
    private final AtomicLongArray published;
    private final AtomicLong tail = new AtomicLong();
    private final AtomicLong head = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();

    /** An empty ring of {@link #CAPACITY} events. */
    public RunEvents() {
        this(CAPACITY);
    }

    /** A ring of {@code capacity} events, a power of two (tests use small ones). */
    RunEvents(int capacity) {
        if (Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("capacity must be a power of two: " + capacity);
        }
        this.capacity = capacity;
        this.mask = capacity - 1;
        this.kindOf = new int[capacity];
        this.startEpochMs = new long[capacity];
        this.lengthNs = new long[capacity];
        this.published = new AtomicLongArray(capacity);
    }

    /**
     * Registers a kind of event and returns its handle for {@link #record}; call before the run starts
     * (e.g. when a driver opens), never concurrently with recording.
     *
     * @param kind   what happened, one word of {@code [a-z0-9-]}, e.g. {@code stop-the-world}, {@code gc}
     * @param source who saw it, one word of {@code [a-z0-9.-]}, e.g. the driver's name or {@code harness}
     */
    public synchronized int kind(String kind, String source) {
        checkWord(kind, "kind");
        checkWord(source, "source");
        for (int i = 0; i < kinds.size(); i++) {
            if (kinds.get(i).equals(kind) && sources.get(i).equals(source)) {
                return i;
            }
        }
        kinds.add(kind);
        sources.add(source);
        return kinds.size() - 1;
    }

    /**
     * Records one event; any thread, no allocation, no lock. Dropped (and counted) when the ring is full.
     *
     * @param kind         a handle from {@link #kind}
     * @param startEpochMs when it began, milliseconds since the epoch
     * @param lengthNs     how long it lasted
     */
    public void record(int kind, long startEpochMs, long lengthNs) {
        if (this == NONE) {
            return;
        }
        long n;
        do {
            n = tail.get();
            if (n - head.get() >= capacity) {
                dropped.incrementAndGet();
                return;
            }
        } while (!tail.compareAndSet(n, n + 1));
        int slot = (int) (n & mask);
        kindOf[slot] = kind;
        this.startEpochMs[slot] = startEpochMs;
        this.lengthNs[slot] = lengthNs;
        published.lazySet(slot, n + 1);
    }

    /** Events recorded and not yet drained are handed to a sink, in the order claimed. */
    @FunctionalInterface
    public interface Sink {
        void accept(String kind, String source, long startEpochMs, long lengthNs);
    }

    /** Hands every published event to {@code sink} and frees its slot; the sampler thread only. Returns how many. */
    public int drain(Sink sink) {
        long n = head.get();
        int drained = 0;
        while (true) {
            int slot = (int) (n & mask);
            if (published.get(slot) != n + 1) {
                break;
            }
            int k = kindOf[slot];
            sink.accept(kinds.get(k), sources.get(k), startEpochMs[slot], lengthNs[slot]);
            n++;
            drained++;
            head.lazySet(n);
        }
        return drained;
    }

    /** Events not kept because the ring was full. */
    public long dropped() {
        return dropped.get();
    }

    private static void checkWord(String word, String what) {
        if (word == null || !WORD.matcher(word).matches()) {
            throw new IllegalArgumentException("an event's " + what + " is one lower-case word of [a-z0-9.-], not '"
                    + word + "'");
        }
    }
}
