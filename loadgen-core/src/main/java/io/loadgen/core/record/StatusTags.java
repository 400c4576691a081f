package io.loadgen.core.record;

import io.loadgen.core.driver.Status;
import org.HdrHistogram.Histogram;

/**
 * The interval log's {@code OP.status} tag: per interval, how many operations of type OP ended with
 * each {@link Status}, held in an HdrHistogram as a count at the value {@code Status.ordinal()}
 * (0 = OK, 1 = ERROR, ...). Interval logs thereby keep what the JSON's {@code errors} and
 * {@code returns} hold, window by window, in the standard format (HistogramLogProcessor reads the
 * line like any other; its values are not latencies). Stateless.
 */
public final class StatusTags {
    public static final String SUFFIX = ".status";

    private StatusTags() {
    }

    public static String tag(String op) {
        return op + SUFFIX;
    }

    /** True for an {@code OP.status} tag. */
    public static boolean isStatusTag(String tag) {
        return tag != null && tag.endsWith(SUFFIX) && tag.length() > SUFFIX.length();
    }

    /** The operation type of an {@code OP.status} tag. */
    public static String operationOf(String tag) {
        return tag.substring(0, tag.length() - SUFFIX.length());
    }

    /** {@code 0=OK 1=ERROR ...}, for the log's header. */
    public static String legend() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < Status.count(); i++) {
            b.append(i == 0 ? "" : " ").append(i).append('=').append(Status.byOrdinal(i).name());
        }
        return b.toString();
    }

    /** A histogram that holds every status ordinal exactly. */
    public static Histogram newHistogram() {
        return new Histogram(Math.max(2, Status.count()), 2);
    }

    /** Sets {@code h} to operation type {@code op}'s counts in {@code counts} (indexed {@code op * Status.count() + status}). */
    public static void fill(Histogram h, long[] counts, int op) {
        h.reset();
        int base = op * Status.count();
        for (int s = 0; s < Status.count(); s++) {
            if (counts[base + s] > 0) {
                h.recordValueWithCount(s, counts[base + s]);
            }
        }
    }

    /** The status counts an {@code OP.status} histogram holds, indexed by ordinal. */
    public static long[] counts(Histogram h) {
        long[] counts = new long[Status.count()];
        for (int s = 0; s < Status.count(); s++) {
            counts[s] = h.getCountAtValue(s);
        }
        return counts;
    }

    /** Operations that did not end OK. */
    public static long errors(Histogram h) {
        return h.getTotalCount() - h.getCountAtValue(Status.OK.ordinal());
    }
}
