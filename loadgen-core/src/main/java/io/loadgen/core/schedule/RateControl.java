package io.loadgen.core.schedule;

import io.loadgen.core.BadInputException;
import io.loadgen.core.time.NanoClock;

import java.util.ArrayList;
import java.util.List;

/**
 * Changes a running run's target rate: any thread (an HTTP handler, the {@code --rate-file} reader on the
 * aggregator thread) asks for a new total rate; the change is validated as {@code --target} is, and takes effect
 * at the next interval boundary, where every worker's {@link ChangeableSchedule} switches to its share of it.
 * Requests are serialized by a lock; workers only read the published {@link Change}, a volatile reference to an
 * immutable record, and never wait.
 * <pre><code>
 * RateControl control = run.rateControl();      // before or during LoadRun.run()
 * String error = control.requestRate("5k");      // an HTTP handler: null = accepted (200), else 400 with it
 * </code></pre>
 * A run without a schedule to change (unthrottled), a phased run (its phases own the rate) and the steps of
 * findmax and sweep (they own the rate) refuse every request with the reason.
 */
public final class RateControl {
    /** The source named in the log's event line for a request without one. */
    public static final String API = "api";
    private static final java.util.regex.Pattern SOURCE = java.util.regex.Pattern.compile("[a-z0-9][a-z0-9.-]{0,31}");

    /**
     * A target rate in force from {@code atNs} on (the run's clock), for this run (a shard's part when sharded).
     *
     * @param workerIntervalNs each worker's mean gap at this rate: threads / rate, in ns
     * @param source           who asked: {@code start}, {@code api}, {@code http}, {@code rate-file}
     * @param previous         the change this one follows, null for the run's starting rate
     */
    public record Change(long atNs, double opsPerSec, double workerIntervalNs, String source, Change previous) {
    }

    private final String refusal;
    private final int threads;
    private final int shards;
    private final long intervalNs;
    private final NanoClock clock;
    private final Change first;
    /** What the workers follow: the newest change, read on every operation. */
    volatile Change current;
    private long t0Ns;
    private boolean started;
    private boolean ended;
    /** Changes not yet handed to the interval log, oldest first; guarded by this. */
    private final List<Change> unlogged = new ArrayList<>();

    /**
     * A control for a run with a schedule.
     *
     * @param opsPerSec  this run's starting rate (a shard's part when sharded)
     * @param shards     how many shards share a requested total (1 for a whole run)
     * @param intervalNs the run's interval: changes switch at its boundaries
     */
    public RateControl(double opsPerSec, int threads, int shards, long intervalNs, NanoClock clock) {
        this(null, opsPerSec, threads, shards, intervalNs, clock);
    }

    private RateControl(String refusal, double opsPerSec, int threads, int shards, long intervalNs, NanoClock clock) {
        this.refusal = refusal;
        this.threads = threads;
        this.shards = shards;
        this.intervalNs = intervalNs;
        this.clock = clock;
        this.first = new Change(0, opsPerSec, opsPerSec > 0 ? threads * 1e9 / opsPerSec : 0, "start", null);
        this.current = first;
    }

    /** A control that refuses every request with {@code why} (one line, e.g. "the run is unthrottled ..."). */
    public static RateControl refusing(String why) {
        return new RateControl(why, 0, 1, 1, 1, NanoClock.SYSTEM);
    }

    /**
     * Asks for a new total target rate, written as {@code --target} takes it ({@code 5000}, {@code 5k},
     * {@code 1.5M/s}); from the next interval boundary on. For an HTTP handler: answer 200 on null, else 400
     * with the returned line.
     *
     * @return null when accepted, else why not, one line
     */
    public String requestRate(String text) {
        return requestRate(text, API);
    }

    /** {@link #requestRate(String)}, naming who asked in the log's event line (one word of {@code [a-z0-9.-]}). */
    public String requestRate(String text, String source) {
        if (source == null || !SOURCE.matcher(source).matches()) {
            source = API;
        }
        try {
            request(Rates.parse(text, "rate"), source);
            return null;
        } catch (BadInputException e) {
            return e.getMessage();
        }
    }

    /**
     * Asks for a new total target rate in ops/s (over all shards, as {@code --target}); returns when it switches,
     * on the run's clock.
     *
     * @throws BadInputException when the rate is out of {@code --target}'s bounds or the run cannot change it
     */
    public long request(double totalOpsPerSec, String source) {
        if (source == null || !SOURCE.matcher(source).matches()) {
            throw new IllegalArgumentException("a source is one lower-case word of [a-z0-9.-], not '" + source + "'");
        }
        if (refusal != null) {
            throw new BadInputException(refusal);
        }
        Rates.checkTarget(totalOpsPerSec, "rate", null);
        double opsPerSec = totalOpsPerSec / shards;
        synchronized (this) {
            if (!started) {
                throw new BadInputException("the run has not started yet; ask again once it runs");
            }
            if (ended) {
                throw new BadInputException("the run has ended; there is no rate to change");
            }
            long k = Math.floorDiv(clock.nanoTime() - t0Ns, intervalNs) + 1;
            long atNs = t0Ns + k * intervalNs;
            Change c = current;
            if (c.opsPerSec() == opsPerSec) {
                return c.atNs();
            }
            Change next = new Change(atNs, opsPerSec, threads * 1e9 / opsPerSec, source, c);
            if (!unlogged.isEmpty() && unlogged.get(unlogged.size() - 1).atNs() == atNs) {
                unlogged.remove(unlogged.size() - 1); // the newer request for the same boundary wins
            }
            unlogged.add(next);
            current = next;
            return atNs;
        }
    }

    /** The run starts at {@code t0Ns}: requests are taken from now on. The run's thread, once. */
    public synchronized void start(long t0Ns) {
        this.t0Ns = t0Ns;
        this.started = true;
    }

    /** The run has ended: requests are refused from now on. Any thread. */
    public synchronized void end() {
        this.ended = true;
    }

    /** Whether this control may change the rate at all (false: it refuses every request). */
    public boolean changeable() {
        return refusal == null;
    }

    /** Why this control refuses every request (one line), or null when it takes them. */
    public String refusal() {
        return refusal;
    }

    /** Whether any change was accepted. Any thread. */
    public boolean changed() {
        return current != first;
    }

    /** The run's starting rate, before any change. */
    Change first() {
        return first;
    }

    /** The newest rate asked for (in force now, or from the next boundary), ops/s for this run. Any thread. */
    public double targetOpsPerSec() {
        return current.opsPerSec();
    }

    /** The rate in force at {@code atNs} on the run's clock, ops/s for this run. Any thread. */
    public double targetAt(long atNs) {
        Change c = current;
        while (c.previous() != null && c.atNs() - atNs > 0) {
            c = c.previous();
        }
        return c.opsPerSec();
    }

    /**
     * The mean target over {@code [fromNs, toNs)}: the operations the schedules in force intended there, per
     * second. The rate at {@code fromNs} when the span is empty. Any thread.
     */
    public double meanOpsPerSec(long fromNs, long toNs) {
        if (toNs - fromNs <= 0) {
            return targetAt(fromNs);
        }
        double operations = 0;
        long endNs = toNs;
        for (Change c = current; c != null && endNs - fromNs > 0; c = c.previous()) {
            long startNs = c.previous() == null || c.atNs() - fromNs < 0 ? fromNs : c.atNs();
            if (endNs - startNs > 0) {
                operations += c.opsPerSec() * (endNs - startNs) / 1e9;
                endNs = startNs;
            }
        }
        return operations * 1e9 / (toNs - fromNs);
    }

    /**
     * Hands over the changes that switch at or before {@code untilNs} and were not handed over yet, oldest first,
     * for the interval log's event lines; an empty list (no allocation) when there are none. Aggregator thread.
     */
    public synchronized List<Change> drainSwitched(long untilNs) {
        if (unlogged.isEmpty() || unlogged.get(0).atNs() - untilNs > 0) {
            return List.of();
        }
        List<Change> due = new ArrayList<>();
        while (!unlogged.isEmpty() && unlogged.get(0).atNs() - untilNs <= 0) {
            due.add(unlogged.remove(0));
        }
        return due;
    }
}
