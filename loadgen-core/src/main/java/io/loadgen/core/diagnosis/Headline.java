package io.loadgen.core.diagnosis;

import java.util.Locale;

import static io.loadgen.core.diagnosis.Figures.duration;
import static io.loadgen.core.diagnosis.Figures.percent;
import static io.loadgen.core.diagnosis.Figures.rate;

/**
 * The one sentence at the end of a run: the primary cause with its figures, e.g.
 * <pre>
 * redis kept up: 2,000 ops/s offered and 2,000 done, intended p99 310 us (service p99 290 us).
 * stw-mockdb stalled: it stopped answering for up to 247 ms (service max; its median is 716 us), ...
 * </pre>
 * Stateless; any thread.
 */
final class Headline {
    private Headline() {
    }

    static String of(Evidence e, Cause primary) {
        if (e.completed() == 0) {
            return "No operation completed in " + duration(e.measuredNs()) + " of " + e.target() + ", so there is no"
                    + " latency to report.";
        }
        if (primary.code() != CauseCode.OK) {
            String text = primary.text();
            return (text.startsWith(e.target()) ? text : capitalize(text)) + ".";
        }
        String failed = e.failed() == 0 ? "" : "; " + Figures.count(e.failed()) + " of " + Figures.count(e.completed())
                + " " + Figures.noun(e.completed(), "operation") + " failed (" + percent(e.failedShare()) + ", within --max-error-rate "
                + percent(e.maxErrorRate()) + ")";
        if (!e.throttled()) {
            return e.target() + " did " + rate(e.achievedOpsPerSec()) + " ops/s unthrottled, service p99 "
                    + duration(e.service().p99Ns()) + failed + "; give --target OPS to measure latency from intended"
                    + " start times.";
        }
        return e.target() + " kept up: " + rate(e.targetOpsPerSec()) + " ops/s offered and "
                + rate(e.achievedOpsPerSec()) + " done, intended p99 " + duration(e.intended().p99Ns())
                + " (service p99 " + duration(e.service().p99Ns()) + ")" + failed + ".";
    }

    private static String capitalize(String s) {
        return s.isEmpty() ? s : s.substring(0, 1).toUpperCase(Locale.ROOT) + s.substring(1);
    }
}
