package io.loadgen.core.summary;

import io.loadgen.core.driver.Status;
import io.loadgen.core.record.View;
import org.HdrHistogram.Histogram;

import java.util.EnumMap;
import java.util.Map;

/**
 * The end-of-run result for one operation type: a total histogram (ns) per {@link View} and the
 * count of each returned {@link Status}. Built once by the run on the main thread; treat as
 * read-only afterwards.
 *
 * @param name         the operation type, e.g. {@code READ}
 * @param views        total histograms by view, values in nanoseconds (all three views present)
 * @param statusCounts how many operations returned each status, indexed by {@link Status#ordinal()}
 */
public record OpResult(String name, Map<View, Histogram> views, long[] statusCounts) {

    public OpResult {
        views = new EnumMap<>(views);
        statusCounts = statusCounts.clone();
    }

    public Histogram histogram(View view) {
        return views.get(view);
    }

    /** Operations completed (the service histogram's count). */
    public long count() {
        return views.get(View.SERVICE).getTotalCount();
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
