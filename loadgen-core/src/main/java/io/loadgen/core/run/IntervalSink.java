package io.loadgen.core.run;

/**
 * One output of a run's intervals: the interval log, the status line, the totals, live gates, the
 * harness's health, or anything new (a chart feed, a metrics exporter). The interval aggregator calls
 * every sink in turn, on its own thread, never a worker's, with the same read-only
 * {@link IntervalSnapshot}; keep it short (it delays the next sink, not the workers).
 * <pre><code>
 * LoadRun run = new LoadRun(options, provider, System.err)
 *         .addSink(s -> exporter.publish(s.endMs(), s.operations().get(0).intended().getValueAtPercentile(99)));
 * </code></pre>
 * A sink given to {@link LoadRun#addSink} that throws is logged and not called again; the run goes on.
 */
@FunctionalInterface
public interface IntervalSink {
    /** One interval has closed; {@code snapshot} is valid during this call only. */
    void onInterval(IntervalSnapshot snapshot);

    /** The run has ended: the last snapshot was handed over. Aggregator thread. Default: nothing. */
    default void onEnd() {
    }
}
