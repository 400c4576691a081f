package io.loadgen.core.run;

/**
 * Hears about every interval the run's interval aggregator closes, with that interval's histograms by tag: what
 * live gates judge a run on (an {@link IntervalSink} that sees only the histograms). Called on the aggregator thread, never on a worker, after the interval is
 * logged; keep it short (it delays the next status line, not the workers). A listener may stop the
 * run ({@link LoadRun#stop}). An exception it throws is logged and the listener is not called again.
 */
@FunctionalInterface
public interface IntervalListener {
    void onInterval(IntervalHistograms interval);
}
