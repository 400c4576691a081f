package io.loadgen.plot.html;

import io.loadgen.core.BadInputException;
import io.loadgen.core.DamagedInputException;
import io.loadgen.core.log.LogEvent;
import io.loadgen.core.log.LogHeader;
import io.loadgen.core.log.LogInterval;
import io.loadgen.core.log.LogSet;
import io.loadgen.core.record.StatusTags;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Everything a page shows, read from interval logs through core's {@link LogSet}: each wanted tag's
 * {@link TagSeries}, each log's header, and the time line the intervals are placed on. Lines are
 * selected by {@code report}'s rule for {@code --start/--end}, with times measured from the same origin
 * ({@link LogSet#relativeToSec}), so a window chosen in the page is the window {@code report} reads.
 * Built on the calling thread; immutable once read.
 *
 * @param tags    the tags, latency tags in the order asked for (or first seen), then harness and status tags
 * @param headers each log's {@code #[name: text]} lines
 * @param startTimeSec the StartTime (epoch seconds) that interval times are relative to
 * @param events  the logs' pauses that start within the intervals shown (as the over-time PNG marks them)
 */
record ExplorerData(List<String> sources, List<TagSeries> tags, List<LogHeader> headers, double startTimeSec,
                    List<Event> events) {
    /** One {@code #[event: ...]} line, its start in seconds on the intervals' time line; a rate change's new rate, else NaN. */
    record Event(String kind, String source, double startSec, double lengthSec, double rateOpsPerSec) {
    }

    static final String HARNESS_PREFIX = "harness.";
    static final String UNTAGGED = "(untagged)";

    /**
     * Reads {@code logs} within the options' range.
     *
     * @throws BadInputException when a log cannot be read, nothing falls in the range, a wanted tag is
     *                           absent, or a tag holds DoubleHistograms
     */
    static ExplorerData read(List<Path> logs, ExplorerOptions options) throws IOException {
        try (LogSet set = LogSet.open(logs, options.warnings(), options.allowMixed())) {
            if (!set.repeated().isEmpty()) {
                throw new DamagedInputException("not shown: " + set.repeated());
            }
            Map<String, TagSeries> byTag = new LinkedHashMap<>();
            TreeSet<String> seen = new TreeSet<>();
            double prefixMaxStart = Double.NEGATIVE_INFINITY;
            double first = Double.POSITIVE_INFINITY;
            double last = Double.NEGATIVE_INFINITY;
            double origin0 = Double.NaN;
            int inRange = 0;
            LogInterval line;
            while ((line = set.next()) != null) {
                double origin = set.relativeToSec(line);
                double start = line.absoluteStartSec() - origin;
                prefixMaxStart = Math.max(prefixMaxStart, start);
                if (start < options.startSec()) {
                    continue;
                }
                if (start > options.endSec()) {
                    break; // as report: the first line past the range ends the read
                }
                if (!options.includeWarmup() && line.warmup()) {
                    continue; // the run's warm-up, which its JSON and report leave out
                }
                inRange++;
                first = Math.min(first, start);
                last = Math.max(last, line.absoluteEndSec() - origin);
                origin0 = Double.isNaN(origin0) ? origin : origin0;
                String tag = line.tag() == null ? UNTAGGED : line.tag();
                seen.add(tag);
                TagSeries.Kind kind = kindOf(tag);
                if (kind == TagSeries.Kind.LATENCY && !options.tags().isEmpty() && !options.tags().contains(tag)) {
                    continue;
                }
                Histogram h = integer(line.histogram(), tag);
                if (h != null) {
                    byTag.computeIfAbsent(tag, t -> new TagSeries(t, kind))
                            .add(start, line.absoluteEndSec() - origin, prefixMaxStart, h);
                }
            }
            List<Event> events = new ArrayList<>();
            for (LogEvent e : set.events()) {
                double at = e.absoluteStartSec() - origin0;
                if (at >= first && at <= last) { // not the harness starting up before the first interval
                    events.add(new Event(e.kind(), e.source(), at, e.lengthSec(), e.rateOpsPerSec()));
                }
            }
            return new ExplorerData(set.names(), ordered(byTag, options, seen, set, inRange), set.headers(),
                    set.startTimeSec(), events);
        }
    }

    static TagSeries.Kind kindOf(String tag) {
        if (tag.startsWith(HARNESS_PREFIX)) {
            return TagSeries.Kind.HARNESS;
        }
        return StatusTags.isStatusTag(tag) ? TagSeries.Kind.STATUS : TagSeries.Kind.LATENCY;
    }

    /** The decoded histogram, null for a line the reader could not decode (it has warned), bad input for a DoubleHistogram. */
    private static Histogram integer(EncodableHistogram h, String tag) {
        if (h == null || h instanceof Histogram) {
            return (Histogram) h;
        }
        throw new BadInputException("tag " + tag + " holds DoubleHistograms; the explorer needs integer histograms"
                + " of nanoseconds, as loadgen writes (leave the tag out with --tag)");
    }

    private static List<TagSeries> ordered(Map<String, TagSeries> byTag, ExplorerOptions options, TreeSet<String> seen,
                                           LogSet set, int inRange) {
        String where = String.join(", ", set.names());
        if (inRange == 0) {
            throw new BadInputException("no interval in " + where + " falls in the time range " + options.startSec()
                    + " to " + (options.endSec() == Double.MAX_VALUE ? "the end" : options.endSec())
                    + " s; widen --start/--end (seconds relative to the log's StartTime)");
        }
        for (String wanted : options.tags()) {
            if (!seen.contains(wanted)) {
                throw new BadInputException("no interval tagged '" + wanted + "' in " + where + "; tags present: "
                        + String.join(", ", seen) + " (list them with 'loadgen report --list-tags')");
            }
        }
        List<TagSeries> tags = new ArrayList<>();
        for (String wanted : options.tags()) {
            if (byTag.containsKey(wanted)) {
                tags.add(byTag.get(wanted));
            }
        }
        for (TagSeries.Kind kind : TagSeries.Kind.values()) {
            for (TagSeries t : byTag.values()) {
                if (t.kind() == kind && !tags.contains(t)) {
                    tags.add(t);
                }
            }
        }
        if (tags.stream().noneMatch(t -> t.kind() != TagSeries.Kind.STATUS)) {
            throw new BadInputException("no interval in " + where + " could be decoded; see the warnings above");
        }
        return tags;
    }

    /** The tag called {@code name}, or null. */
    TagSeries tag(String name) {
        for (TagSeries t : tags) {
            if (t.name().equals(name)) {
                return t;
            }
        }
        return null;
    }
}
