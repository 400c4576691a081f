package io.loadgen.core.gate;

import io.loadgen.core.BadInputException;
import io.loadgen.core.log.LogInterval;
import io.loadgen.core.log.LogIntegrity;
import io.loadgen.core.log.LogSet;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Interval logs as a gate source: one or more logs merged on time ({@link LogSet}), optionally a
 * time range of them, read once. Rules on the whole range are judged on the histograms summed by
 * tag; windowed rules window by window as the lines stream past ({@link WindowTracker}), so memory
 * holds one histogram per tag per window length, however long the log. A sharded run's logs are judged
 * only whole: a shard missing or given twice fails the input check, as damage does. Logs hold latencies and, in
 * {@code OP.status} lines, status counts (so errors, window by window), but no corrected view. One thread.
 */
final class LogSource extends GateSource {
    static final String NO_ERRORS = "this log has no OP.status lines (an older loadgen wrote it), so no error"
            + " counts; gate errors on the JSON summary (loadgen run --json FILE)";
    static final String NO_CORRECTED = "interval logs have no corrected view (it is computed from the whole run"
            + " at its end); gate it on the JSON summary (loadgen run --json FILE), or use intended";
    static final String NO_DIAGNOSIS = "interval logs have no diagnosis (it is judged on the whole run at its"
            + " end); gate it on the JSON summary (loadgen run --json FILE) or on the run (run --gate)";
    static final String NO_VERDICT = "interval logs have no harness verdict (it is judged on the whole run at"
            + " its end); gate it on the JSON summary (loadgen run --json FILE) or on the run (run --gate)";

    private final List<Path> files;
    private final TimeRange range;
    private final Consumer<String> warnings;
    private final String name;
    /** The shards missing or given twice, when the logs are a sharded run's; empty when whole or unsharded. */
    private String shardProblem = "";
    /** Lines in range left out as the run's warm-up. */
    private long warmupLines;

    private final InputPolicy policy;
    /** Keeps each interval for a comparison's bootstrap ({@link #collectIntervals}); null when not asked. */
    private IntervalCollector intervals;

    LogSource(List<Path> files, TimeRange range, Consumer<String> warnings) {
        this(files, range, warnings, InputPolicy.STRICT);
    }

    LogSource(List<Path> files, TimeRange range, Consumer<String> warnings, InputPolicy policy) {
        this.policy = policy;
        this.files = List.copyOf(files);
        this.range = range;
        this.warnings = warnings;
        List<String> names = new ArrayList<>();
        files.forEach(f -> names.add(f.toString()));
        this.name = String.join(" + ", names);
    }

    @Override
    String name() {
        return name;
    }

    /** Keeps the intervals read by {@link #evaluate}, as series on one interval index; returns the keeper. */
    IntervalCollector collectIntervals() {
        intervals = new IntervalCollector();
        return intervals;
    }

    @Override
    void check(Rule rule) {
        if (rule.metric().view() == GateView.CORRECTED) {
            throw new BadInputException("rule '" + rule.text() + "': " + NO_CORRECTED);
        }
        if (rule.metric().kind() == Metric.Kind.VERDICT) {
            throw new BadInputException("rule '" + rule.text() + "': " + NO_VERDICT);
        }
        if (rule.metric().kind() == Metric.Kind.DIAGNOSIS) {
            throw new BadInputException("rule '" + rule.text() + "': " + NO_DIAGNOSIS);
        }
    }

    @Override
    Evaluation evaluate(List<Rule> rules) throws IOException {
        rules.forEach(this::check);
        Map<Long, WindowTracker> trackers = new LinkedHashMap<>();
        HistogramSet whole = new HistogramSet();
        LogIntegrity integrity = read(whole, trackers, rules);
        if (whole.isEmpty() && warmupLines > 0) {
            throw new BadInputException("every interval of " + name + (range.isAll() ? "" : " " + range.describe())
                    + " is of the run's warm-up (--warmup, which the run's totals leave out too); give"
                    + " --include-warmup to judge it");
        }
        if (whole.isEmpty()) {
            throw new BadInputException(name + " has no tagged intervals" + (range.isAll() ? "" : " " + range.describe())
                    + "; give a log written by loadgen run --hlog FILE" + (range.isAll() ? "" : ", or widen the range"));
        }
        Measurements measurements = HistogramMeasurements.ofLog(name, whole.byTag(), whole.spanMs() / 1000.0);
        Map<Rule, List<Verdict>> windowed = new LinkedHashMap<>();
        for (WindowTracker t : trackers.values()) {
            windowed.putAll(t.verdicts());
        }
        List<Verdict> verdicts = new ArrayList<>();
        if (integrity.damaged()) {
            verdicts.add(Verdict.damagedInput(name, integrity.describe()));
        }
        if (!shardProblem.isEmpty()) {
            verdicts.add(Verdict.damagedInput(name, shardProblem));
        }
        for (Rule rule : rules) {
            verdicts.addAll(GateSource.onPartial(rule, rule.windowed() ? windowed.get(rule)
                    : RuleEvaluator.evaluate(rule, measurements), integrity, policy.allowPartial()));
        }
        return new Evaluation(verdicts, measurements);
    }

    /** The windowed rules' trackers, window 0 starting at {@code originMs} after the logs' start. */
    private Map<Long, WindowTracker> trackers(List<Rule> rules, long originMs) {
        Map<Long, List<Rule>> byLength = new LinkedHashMap<>();
        for (Rule rule : rules) {
            if (rule.windowed()) {
                byLength.computeIfAbsent(rule.window().toMillis(), k -> new ArrayList<>()).add(rule);
            }
        }
        Map<Long, WindowTracker> trackers = new LinkedHashMap<>();
        byLength.forEach((ms, list) -> trackers.put(ms, new WindowTracker(ms, originMs, list, name, null)));
        return trackers;
    }

    private LogIntegrity read(HistogramSet whole, Map<Long, WindowTracker> trackers, List<Rule> rules)
            throws IOException {
        boolean warnedUntagged = false;
        LogIntegrity integrity;
        try (LogSet logs = LogSet.open(files, warnings, policy.allowMixed())) {
            shardProblem = logs.shards().problem();
            // Without --start, windows start where the run's measured time does: after its warm-up.
            long originMs = range.startSec() == null && !policy.includeWarmup() ? logs.warmupMs() : range.originMs();
            trackers.putAll(trackers(rules, originMs));
            if (!logs.repeated().isEmpty()) {
                warnings.accept(logs.repeated());
            }
            double startSec = logs.startTimeSec();
            for (LogInterval line = logs.next(); line != null; line = logs.next()) {
                long startMs = Math.round((line.absoluteStartSec() - startSec) * 1000);
                long endMs = Math.round((line.absoluteEndSec() - startSec) * 1000);
                if (!range.contains(startMs)) {
                    continue;
                }
                if (!policy.includeWarmup() && line.warmup()) {
                    warmupLines++;
                    continue; // the warm-up is not the run's: its JSON leaves it out too
                }
                if (line.tag() == null) {
                    if (!warnedUntagged) {
                        warnings.accept(line.where() + ": untagged intervals are skipped; gates read loadgen's tags"
                                + " (READ.intended, READ.service, harness.lag)");
                        warnedUntagged = true;
                    }
                    continue;
                }
                Histogram h = histogram(line);
                if (h != null) {
                    whole.add(line.tag(), h, startMs, endMs);
                    if (intervals != null) {
                        intervals.add(line.tag(), h, startMs, endMs);
                    }
                    for (WindowTracker t : trackers.values()) {
                        t.add(line.tag(), h, startMs, endMs);
                    }
                }
            }
            integrity = logs.integrity();
        }
        for (WindowTracker t : trackers.values()) {
            t.finish();
        }
        return integrity;
    }

    private static Histogram histogram(LogInterval line) {
        EncodableHistogram h = line.verifiedHistogram();
        if (h == null || h instanceof Histogram) {
            return (Histogram) h;
        }
        throw new BadInputException(line.where() + " holds a DoubleHistogram; gates read integer histograms of"
                + " nanoseconds, as loadgen run --hlog writes them");
    }
}
