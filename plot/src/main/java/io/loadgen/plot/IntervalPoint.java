package io.loadgen.plot;

import org.HdrHistogram.Histogram;

/**
 * One interval of one tag: its histogram and when it ran, in seconds after the log's StartTime (for merged
 * logs, the earliest StartTime), as {@code loadgen report} counts them. Immutable once read (the
 * histogram is not to be changed).
 *
 * @param startSec  the interval's start
 * @param endSec    the interval's end
 * @param histogram what it recorded (ns for latency tags; status numbers for {@code OP.status})
 */
public record IntervalPoint(double startSec, double endSec, Histogram histogram) {
    /** Values recorded per second of the interval: operations per second for any tag of an operation type. */
    public double perSecond() {
        double length = endSec - startSec;
        return length > 0 ? histogram.getTotalCount() / length : 0.0;
    }
}
