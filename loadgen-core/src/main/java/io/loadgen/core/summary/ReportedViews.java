package io.loadgen.core.summary;

import io.loadgen.core.record.View;

import java.util.ArrayList;
import java.util.List;

/**
 * Which views of a {@link RunResult} the summary formats print, in a given order, and the unit
 * conversions they share. Stateless; called by the summary formats on the main thread.
 *
 * <p>A run whose corrected view is not applicable ({@link CorrectedBasis#applicable()}: no schedule,
 * phases, or an expected interval as long as the run) leaves {@code corrected} out of every format, and
 * the formats say why in one line. An unthrottled run has no scheduler {@code lag} either.
 */
final class ReportedViews {
    static final double NS_PER_US = 1_000.0;
    static final double NS_PER_MS = 1_000_000.0;

    private ReportedViews() {
    }

    /** The views of {@code order} that {@code result} reports: all of them, less {@code corrected} when not applicable. */
    static List<View> of(RunResult result, View... order) {
        List<View> views = new ArrayList<>(order.length);
        for (View view : order) {
            if (view != View.CORRECTED || result.corrected().applicable()) {
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
