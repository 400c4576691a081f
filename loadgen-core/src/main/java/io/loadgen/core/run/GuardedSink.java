package io.loadgen.core.run;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * A sink from outside the run (a live gate, an exporter) that must not end it: an exception it throws
 * is logged once and the sink is not called again, while the run and the other sinks carry on.
 * Aggregator thread.
 */
final class GuardedSink implements IntervalSink {
    private static final Logger LOG = LogManager.getLogger(GuardedSink.class);

    private final IntervalSink sink;
    private final String what;
    private boolean dropped;

    GuardedSink(IntervalSink sink, String what) {
        this.sink = sink;
        this.what = what;
    }

    /** Live gates' {@link IntervalListener}, as a sink: the snapshot's histograms by tag. */
    static GuardedSink of(IntervalListener listener) {
        return new GuardedSink(s -> listener.onInterval(
                new IntervalHistograms(s.runStartMs(), s.startMs(), s.endMs(), s.measured(), s.byTag())),
                "interval listener");
    }

    @Override
    public void onInterval(IntervalSnapshot snapshot) {
        if (dropped) {
            return;
        }
        try {
            sink.onInterval(snapshot);
        } catch (RuntimeException e) {
            drop(e);
        }
    }

    @Override
    public void onEnd() {
        if (dropped) {
            return;
        }
        try {
            sink.onEnd();
        } catch (RuntimeException e) {
            drop(e);
        }
    }

    private void drop(RuntimeException e) {
        LOG.error("{} failed; it is not called again", what, e);
        dropped = true;
    }
}
