package io.loadgen.core.gate;

import io.loadgen.core.stats.IntervalSeries;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Keeps the intervals of logs as {@link LogSource} reads them (after its range, warm-up and tag checks), as one
 * {@link IntervalSeries} per tag on a common interval index: lines that start at the same millisecond are one
 * interval (a run writes every tag of an interval with the same start; merged shards' lines with the same start
 * add up), and a tag absent from an interval is empty in it, so resampling an index takes the same stretch of time
 * from every series. An interval's length is from its start to the latest end among its lines. One thread.
 */
final class IntervalCollector {
    private final Map<String, IntervalSeries.Builder> builders = new LinkedHashMap<>();
    private final Map<String, Histogram> current = new LinkedHashMap<>();
    private long startMs = Long.MIN_VALUE;
    private long endMs = Long.MIN_VALUE;
    private final List<Double> lengths = new ArrayList<>();

    /** Adds one line: {@code tag}'s histogram over [startMs, endMs). Lines come in start order. */
    void add(String tag, Histogram h, long lineStartMs, long lineEndMs) {
        if (lineStartMs != startMs) {
            flush();
            startMs = lineStartMs;
        }
        endMs = Math.max(endMs, lineEndMs);
        Histogram sum = current.get(tag);
        if (sum == null) {
            sum = new Histogram(h.getNumberOfSignificantValueDigits());
            current.put(tag, sum);
        }
        sum.add(h);
    }

    private void flush() {
        if (startMs == Long.MIN_VALUE) {
            return;
        }
        double seconds = Math.max(0, endMs - startMs) / 1000.0;
        // current holds every tag seen so far (reset after each interval), so every series gets this interval.
        for (Map.Entry<String, Histogram> e : current.entrySet()) {
            IntervalSeries.Builder b = builders.computeIfAbsent(e.getKey(), t -> IntervalSeries.builder());
            while (b.size() < lengths.size()) {
                b.addEmpty(lengths.get(b.size())); // a tag first seen now was empty before
            }
            b.add(e.getValue(), seconds);
            e.getValue().reset();
        }
        lengths.add(seconds);
        startMs = Long.MIN_VALUE;
        endMs = Long.MIN_VALUE;
    }

    /** The series by tag, all {@link #intervals()} long, in the order tags first came. */
    Map<String, IntervalSeries> series() {
        flush();
        Map<String, IntervalSeries> out = new LinkedHashMap<>();
        builders.forEach((tag, b) -> out.put(tag, b.build()));
        return out;
    }

    int intervals() {
        flush();
        return lengths.size();
    }
}
