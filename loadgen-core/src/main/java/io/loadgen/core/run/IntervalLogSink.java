package io.loadgen.core.run;

import io.loadgen.core.output.OutputFailures;
import io.loadgen.core.record.IntervalLog;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.HdrHistogram.Histogram;

import java.util.Locale;

/**
 * Writes each interval to the run's interval log: the pauses that ended in it as {@code #[event: ...]}
 * lines first (so a reader has them with the interval's lines), then every histogram of
 * {@link IntervalSnapshot#byTag()} in its order, then a flush, so a killed run loses at most the interval
 * in progress. A write that fails is said once; the run goes on and reports it at the end. Aggregator thread.
 */
final class IntervalLogSink implements IntervalSink {
    private static final Logger LOG = LogManager.getLogger(IntervalLogSink.class);

    private final IntervalLog log;
    private boolean failed;

    IntervalLogSink(IntervalLog log) {
        this.log = log;
    }

    @Override
    public void onInterval(IntervalSnapshot s) {
        for (IntervalSnapshot.Event e : s.events()) {
            log.writeEvent(e.kind(), e.source(), e.startEpochMs(), e.lengthNs(), e.rateOpsPerSec());
        }
        for (Histogram h : s.byTag().values()) {
            log.write(h);
        }
        if (!failed && !log.flush()) {
            failed = true;
            LOG.error("the interval log could not be written at {} s ({}); the run goes on and its summary is"
                    + " complete, but the log ends here", String.format(Locale.ROOT, "%.1f",
                    (s.endMs() - s.runStartMs()) / 1000.0), OutputFailures.reason(log.failure()));
        }
    }
}
