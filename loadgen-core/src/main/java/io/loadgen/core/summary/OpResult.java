package io.loadgen.core.summary;

import io.loadgen.core.driver.Status;
import io.loadgen.core.record.View;
import org.HdrHistogram.Histogram;

import java.util.EnumMap;
import java.util.Map;

/**
 * The end-of-run result for one operation type: a total histogram (ns) per {@link View} of the
 * operations that returned OK, the intended and service histograms of those that did not (the failed
 * series, YCSB's {@code READ-FAILED}), and the count of each returned {@link Status}. Built once by the
 * run on the main thread; treat as read-only afterwards.
 *
 * @param name         the operation type, e.g. {@code READ}
 * @param views        total histograms of the successes by view, values in nanoseconds (all three views
 *                     present; {@code corrected} is computed from the successes' service view)
 * @param failed       total histograms of the failures: {@link View#INTENDED} and {@link View#SERVICE};
 *                     empty when the source did not keep failures apart (a log from an older loadgen)
 * @param statusCounts how many operations returned each status, indexed by {@link Status#ordinal()}
 */
public record OpResult(String name, Map<View, Histogram> views, Map<View, Histogram> failed, long[] statusCounts) {

    public OpResult {
        views = new EnumMap<>(views);
        failed = failed.isEmpty() ? new EnumMap<>(View.class) : new EnumMap<>(failed);
        statusCounts = statusCounts.clone();
    }

    /** A result whose failures were not recorded apart (so {@link #failedKnown()} is false). */
    public OpResult(String name, Map<View, Histogram> views, long[] statusCounts) {
        this(name, views, Map.of(), statusCounts);
    }

    /** The successes' histogram of {@code view}. */
    public Histogram histogram(View view) {
        return views.get(view);
    }

    /** The failures' histogram of {@code view} (intended or service), or null when not known. */
    public Histogram failedHistogram(View view) {
        return failed.get(view);
    }

    /** Whether the failures were recorded in series of their own. */
    public boolean failedKnown() {
        return failed.containsKey(View.SERVICE);
    }

    /** Operations completed, whatever their status: successes and failures. */
    public long count() {
        return successes() + failures();
    }

    /** Operations that returned OK: the count of every success view but {@code corrected}. */
    public long successes() {
        return views.get(View.SERVICE).getTotalCount();
    }

    /** Operations recorded in the failed series; 0 when they were not recorded apart. */
    public long failures() {
        return failedKnown() ? failed.get(View.SERVICE).getTotalCount() : 0;
    }

    /** Operations that returned anything but {@link Status#OK}. */
    public long errors() {
        long errors = 0;
        for (int i = 0; i < statusCounts.length; i++) {
            if (!Status.byOrdinal(i).isOk()) {
                errors += statusCounts[i];
            }
        }
        return errors;
    }

    public long statusCount(Status status) {
        return statusCounts[status.ordinal()];
    }
}
