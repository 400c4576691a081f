package io.loadgen.core.gate;

import org.HdrHistogram.Histogram;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Sums interval histograms by tag over a stretch of time (a whole range, or one window), and the
 * span they cover. Reusable: {@link #reset()} keeps the histograms for the next window, so a
 * long log allocates one histogram per tag, not one per window. One thread.
 */
final class HistogramSet {
    private final Map<String, Histogram> pool = new LinkedHashMap<>();
    private final Map<String, Histogram> present = new LinkedHashMap<>();
    private long firstStartMs = Long.MAX_VALUE;
    private long lastEndMs = Long.MIN_VALUE;

    /** Adds one interval's histogram of {@code tag}, covering [startMs, endMs) (ms on any common base). */
    void add(String tag, Histogram interval, long startMs, long endMs) {
        Histogram sum = present.get(tag);
        if (sum == null) {
            sum = pool.computeIfAbsent(tag, t -> new Histogram(interval.getNumberOfSignificantValueDigits()));
            present.put(tag, sum);
        }
        sum.add(interval);
        firstStartMs = Math.min(firstStartMs, startMs);
        lastEndMs = Math.max(lastEndMs, endMs);
    }

    boolean isEmpty() {
        return present.isEmpty();
    }

    /** The time the added intervals cover, from the first start to the last end; 0 when empty. */
    long spanMs() {
        return isEmpty() ? 0 : Math.max(0, lastEndMs - firstStartMs);
    }

    /** The sums by tag, in the order tags first came; a view that changes with this set. */
    Map<String, Histogram> byTag() {
        return Collections.unmodifiableMap(present);
    }

    void reset() {
        for (Histogram h : present.values()) {
            h.reset();
        }
        present.clear();
        firstStartMs = Long.MAX_VALUE;
        lastEndMs = Long.MIN_VALUE;
    }
}
