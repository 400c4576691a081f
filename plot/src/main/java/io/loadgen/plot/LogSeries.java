package io.loadgen.plot;

import io.loadgen.core.BadInputException;
import io.loadgen.core.DamagedInputException;
import io.loadgen.core.log.LogEvent;
import io.loadgen.core.log.LogInterval;
import io.loadgen.core.log.LogSet;
import io.loadgen.core.log.ShardSet;
import io.loadgen.core.record.StatusTags;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * What charts (and the HTML explorer) draw from interval logs: per tag, each interval's histogram with
 * its start and end, and the sum; plus the log's {@code #[event: ...]} pauses and its header comments.
 * Read through core's {@link LogSet} (several logs merge on absolute time, and the intervals of several
 * logs over the same stretch of time are summed into one; gzip is recognised), with
 * {@code loadgen report}'s time range: intervals whose start lies in [start, end] seconds after the
 * StartTime. Immutable once read; built on one thread.
 *
 * <pre><code>
 * LogSeries log = LogSeries.read(List.of(Path.of("run.hlog")), LogSeries.Selection.all(), System.err::println);
 * Histogram p = log.series("READ.intended").total();
 * </code></pre>
 */
public final class LogSeries {
    /**
     * Which tags and time range to read.
     *
     * @param tags     the tags wanted (each {@code OP.status} of their operation types is read too, for
     *                 throughput); empty for every tag
     * @param startSec intervals starting at or after this many seconds after the StartTime
     * @param endSec   ... and at or before this many
     * @param allowMixed    merge logs of different runs ({@link LogSet#open(List, Consumer, boolean)})
     * @param includeWarmup draw the run's warm-up too, which its JSON leaves out
     */
    public record Selection(List<String> tags, double startSec, double endSec, boolean allowMixed,
                            boolean includeWarmup) {
        public Selection {
            tags = List.copyOf(tags);
        }

        /** One run's logs, its warm-up left out. */
        public Selection(List<String> tags, double startSec, double endSec) {
            this(tags, startSec, endSec, false, false);
        }

        /** Every tag, the whole log. */
        public static Selection all() {
            return new Selection(List.of(), 0.0, Double.MAX_VALUE);
        }

        boolean wants(String tag) {
            if (tags.isEmpty()) {
                return true;
            }
            if (StatusTags.isStatusTag(tag)) {
                String op = StatusTags.operationOf(tag);
                return tags.stream().anyMatch(t -> t.startsWith(op + "."));
            }
            return tags.contains(tag);
        }
    }

    private final List<String> names;
    private final double startTimeSec;
    private final Map<String, TagSeries> series;
    private final List<LogEvent> events;
    private final List<String> comments;

    private LogSeries(List<String> names, double startTimeSec, Map<String, TagSeries> series, List<LogEvent> events,
                      List<String> comments) {
        this.names = List.copyOf(names);
        this.startTimeSec = startTimeSec;
        this.series = series;
        this.events = List.copyOf(events);
        this.comments = List.copyOf(comments);
    }

    /**
     * Reads {@code logs}; damage that leaves the rest readable goes to {@code warnings}.
     *
     * @throws BadInputException for a missing or unreadable log, a wanted tag that is not there (naming the
     *                           tags present), nothing in the range, or DoubleHistogram lines
     */
    public static LogSeries read(List<Path> logs, Selection selection, Consumer<String> warnings) throws IOException {
        try (LogSet set = LogSet.open(logs, warnings, selection.allowMixed())) {
            if (!set.repeated().isEmpty()) {
                throw new DamagedInputException("not plotted: " + set.repeated());
            }
            if (!set.shards().problem().isEmpty()) {
                warnings.accept(String.join(", ", set.names()) + ": " + set.shards().problem()
                        + "; the charts show the shards given, not the whole run");
            }
            Map<String, Builder> builders = new LinkedHashMap<>();
            TreeSet<String> present = new TreeSet<>();
            boolean single = set.size() == 1;
            int inRange = 0;
            LogInterval line;
            while ((line = set.next()) != null) {
                double relativeTo = single ? line.fileStartTimeSec() : set.startTimeSec();
                double start = line.absoluteStartSec() - relativeTo;
                if (start < selection.startSec()) {
                    continue;
                }
                if (start > selection.endSec()) {
                    break; // as report: the first line past the range ends the read
                }
                if (!selection.includeWarmup() && line.warmup()) {
                    continue; // the run's warm-up: its totals and JSON leave it out
                }
                inRange++;
                String tag = line.tag() == null ? "" : line.tag();
                present.add(tag);
                if (!selection.wants(tag)) {
                    continue;
                }
                EncodableHistogram h = line.histogram();
                if (h == null) {
                    continue; // reported to warnings
                }
                if (!(h instanceof Histogram histogram)) {
                    throw new BadInputException(line.where() + ": a DoubleHistogram line; charts need the integer"
                            + " histograms in nanoseconds that loadgen writes");
                }
                builders.computeIfAbsent(tag, Builder::new)
                        .add(new IntervalPoint(start, line.absoluteEndSec() - relativeTo, histogram));
            }
            check(set, selection, present, inRange);
            if (set.integrity().cut()) {
                warnings.accept(String.join(", ", set.names()) + ": partial: " + set.integrity().describePartial()
                        + ", cut without its closing #[run end] line; the charts show that part");
            }
            Map<String, TagSeries> series = new LinkedHashMap<>();
            builders.forEach((tag, b) -> series.put(tag, b.build()));
            return new LogSeries(set.names(), set.startTimeSec(), series, set.events(), set.comments());
        }
    }

    /**
     * {@code logs} grouped into runs, for charts of each: a sharded run's logs (the same shard count and
     * start) together, in the order first given; every other log on its own.
     *
     * @throws BadInputException for a missing or unreadable log
     */
    public static List<List<Path>> runs(List<Path> logs) throws IOException {
        Map<Object, List<Path>> runs = new LinkedHashMap<>();
        for (Path log : logs) {
            ShardSet shards;
            try (LogSet set = LogSet.open(List.of(log), w -> { })) { // the header only; read() warns
                shards = set.shards();
            }
            Object key = shards.sharded() ? List.of(shards.count(), String.valueOf(shards.startAtMs())) : log;
            runs.computeIfAbsent(key, k -> new ArrayList<>()).add(log);
        }
        return new ArrayList<>(runs.values());
    }

    private static void check(LogSet set, Selection selection, TreeSet<String> present, int inRange) {
        String where = String.join(", ", set.names());
        if (inRange == 0) {
            throw new BadInputException("no interval in " + where + " starts between " + selection.startSec() + " and "
                    + (selection.endSec() == Double.MAX_VALUE ? "the end" : selection.endSec() + " s")
                    + "; widen --start/--end (seconds after the log's StartTime)");
        }
        for (String tag : selection.tags()) {
            if (!present.contains(tag)) {
                throw new BadInputException("no interval tagged '" + tag + "' in " + where + "; tags present: "
                        + String.join(", ", present));
            }
        }
    }

    /** The logs read, as named. */
    public List<String> names() {
        return names;
    }

    /** The StartTime times are relative to, seconds since the epoch. */
    public double startTimeSec() {
        return startTimeSec;
    }

    /** Every tag read, in the order first seen. */
    public Collection<TagSeries> series() {
        return series.values();
    }

    /** One tag's series, or null when it was not read. */
    public TagSeries series(String tag) {
        return series.get(tag);
    }

    /** The latency tags read, in order: every tag but the {@code OP.status} counts. */
    public List<String> latencyTags() {
        List<String> tags = new ArrayList<>();
        for (String tag : series.keySet()) {
            if (!StatusTags.isStatusTag(tag)) {
                tags.add(tag);
            }
        }
        return tags;
    }

    /** The logs' {@code #[event: ...]} lines, in order of start (absolute times; see {@link #relative}). */
    public List<LogEvent> events() {
        return events;
    }

    /** Seconds after {@link #startTimeSec()} of an absolute time. */
    public double relative(double absoluteSec) {
        return absoluteSec - startTimeSec;
    }

    /** The logs' header comments (the run's parameters), without the leading {@code #}. */
    public List<String> comments() {
        return comments;
    }

    /**
     * Collects one tag's intervals and their sum, shaped as HistogramLogProcessor shapes its accumulator.
     * Intervals of several logs that cover the same stretch of absolute time (shards of one run, each
     * with its own interval boundaries a few ms apart) are added into one point: a point starting less
     * than half the previous point's length after its start is the same interval of another log, since
     * one log's intervals follow each other end to start.
     */
    private static final class Builder {
        private final String tag;
        private final List<IntervalPoint> intervals = new ArrayList<>();
        private Histogram total;

        Builder(String tag) {
            this.tag = tag;
        }

        void add(IntervalPoint p) {
            if (total == null) {
                total = p.histogram().copy();
                total.reset();
                total.setAutoResize(true);
            }
            total.add(p.histogram());
            IntervalPoint last = intervals.isEmpty() ? null : intervals.get(intervals.size() - 1);
            if (last != null && p.startSec() - last.startSec() < (last.endSec() - last.startSec()) / 2) {
                Histogram sum = last.histogram().copy();
                sum.setAutoResize(true);
                sum.add(p.histogram());
                intervals.set(intervals.size() - 1, new IntervalPoint(last.startSec(), Math.max(last.endSec(),
                        p.endSec()), sum));
            } else {
                intervals.add(p);
            }
        }

        TagSeries build() {
            return new TagSeries(tag, intervals, total);
        }
    }
}
