package io.loadgen.core.summary;

import io.loadgen.core.record.View;

import java.util.ArrayList;
import java.util.List;

/**
 * Which views of a {@link RunResult} the summary formats print, in a given order, and the unit
 * conversions they share. Stateless; called by the summary formats on the main thread.
 *
 * <p>An unthrottled run has no schedule and so no expected interval: its {@code intended} view
 * equals {@code service} and its {@code corrected} view cannot be computed, so {@code corrected}
 * is left out of every format (and so is the scheduler's {@code lag}, which does not exist).
 */
final class ReportedViews {
    static final double NS_PER_US = 1_000.0;
    static final double NS_PER_MS = 1_000_000.0;

    private ReportedViews() {
    }

    /** The views of {@code order} that {@code result} reports: all of them, less {@code corrected} when unthrottled. */
    static List<View> of(RunResult result, View... order) {
        List<View> views = new ArrayList<>(order.length);
        for (View view : order) {
            if (view != View.CORRECTED || result.throttled()) {
                views.add(view);
            }
        }
        return views;
    }

    static double micros(long ns) {
        return ns / NS_PER_US;
    }

    static double millis(long ns) {
        return ns / NS_PER_MS;
    }
}
