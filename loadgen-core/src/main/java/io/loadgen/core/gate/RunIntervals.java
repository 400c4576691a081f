package io.loadgen.core.gate;

import io.loadgen.core.BadInputException;
import io.loadgen.core.record.StatusTags;
import io.loadgen.core.stats.IntervalSeries;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One run as a comparison reads it: its whole-run figures (as {@code gate} reads them, from interval logs or a
 * JSON summary, warm-up left out, the input checked) and, for interval logs, each tag's intervals on one interval
 * index ({@link IntervalSeries}), from which a bootstrap estimates how much a figure varies. A JSON summary has no
 * intervals. Immutable after reading; one thread.
 */
public final class RunIntervals {
    private final String source;
    private final Measurements whole;
    private final Map<String, IntervalSeries> series;
    private final List<Verdict> damage;

    RunIntervals(String source, Measurements whole, Map<String, IntervalSeries> series, List<Verdict> damage) {
        this.source = source;
        this.whole = whole;
        this.series = Map.copyOf(series);
        this.damage = damage.stream().filter(v -> v.isInputCheck() && !v.passed()).toList();
    }

    /**
     * Reads one run: a JSON summary, or one or more interval logs of it (merged on time, a sharded run's whole).
     *
     * @throws BadInputException for a missing file or one of neither kind, as {@code gate} says it
     */
    public static RunIntervals read(List<Path> files, Consumer<String> warnings, InputPolicy policy)
            throws IOException {
        GateSource source = GateSource.open(files, TimeRange.ALL, warnings, policy);
        IntervalCollector collector = source instanceof LogSource log ? log.collectIntervals() : null;
        GateSource.Evaluation evaluation = source.evaluate(List.of());
        return new RunIntervals(source.name(), evaluation.whole(), collector == null ? Map.of() : collector.series(),
                evaluation.verdicts());
    }

    /** {@code source} evaluated, with the intervals {@code collector} kept (null: none, a JSON summary). */
    static RunIntervals of(GateSource source, GateSource.Evaluation evaluation, IntervalCollector collector) {
        return new RunIntervals(source.name(), evaluation.whole(), collector == null ? Map.of() : collector.series(),
                evaluation.verdicts());
    }

    /** The whole run's measurements, as rules read them. */
    Measurements measurements() {
        return whole;
    }

    /** The file, or the files joined with {@code +}. */
    public String source() {
        return source;
    }

    /** The input checks that failed (corrupt lines, a torn tail, a shard missing): the run's figures are not whole. */
    public List<Verdict> damage() {
        return damage;
    }

    /** The operation types, in the run's order. */
    public List<String> operations() {
        return whole.operations();
    }

    public boolean has(String op, GateView view) {
        return whole.has(op, view);
    }

    /** {@code stat} of the whole run (ns); NaN when nothing was measured. */
    public double latency(String op, GateView view, Stat stat) {
        return whole.latency(op, view, stat);
    }

    /** Operations of {@code op} that succeeded, per second of the run. */
    public double throughput(String op) {
        return whole.throughput(op);
    }

    /** The share of {@code op}'s operations that failed; NaN when the input holds no error counts or no operations. */
    public double errorRate(String op) {
        long count = whole.count(op);
        if (count == 0) {
            return Double.NaN;
        }
        try {
            return (double) whole.errors(op) / count;
        } catch (BadInputException e) {
            return Double.NaN; // an older log without OP.status lines
        }
    }

    /** Whether the run has intervals (interval logs); a JSON summary has none. */
    public boolean hasIntervals() {
        return !series.isEmpty();
    }

    /** {@code view}'s intervals of {@code op} (its successes), or null when the input has none. */
    public IntervalSeries series(String op, GateView view) {
        return series.get(view.tag(op));
    }

    /** {@code op}'s status counts per interval ({@code OP.status}), or null when the input has none. */
    public IntervalSeries statuses(String op) {
        return series.get(StatusTags.tag(op));
    }
}
