package io.loadgen.core.log;

import io.loadgen.core.BadInputException;
import io.loadgen.core.log.LogReportOptions.TagSelection;
import io.loadgen.core.output.AtomicFile;
import io.loadgen.core.output.OutputWriteException;
import io.loadgen.core.record.IntervalLog;
import io.loadgen.core.record.StatusTags;
import org.HdrHistogram.DoubleHistogram;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * HdrHistogram's {@code HistogramLogProcessor}, reimplemented on {@link LogSet} so that its output files
 * are byte for byte the same (the percentile distribution {@code BASE.hgrm}, the interval table
 * {@code BASE}, the moving-window table {@code BASE.mwp}), and then extended: several logs merged on
 * absolute time, every tag in one pass, only the wanted tag's lines decoded, and the merged log and the
 * per-tag totals handed back for JSON. Memory does not grow with the log: per tag, two decoded histograms
 * (the sum and the moving-window sum), and a moving window keeps its lines compressed. Each quirk of the original that shows in its output is kept on
 * purpose (noted where it happens). Single-threaded; one report per instance.
 */
public final class LogReport {
    private static final String INTERVAL_LEGEND = "Time: IntervalPercentiles:count ( 50% 90% Max ) "
            + "TotalPercentiles:count ( 50% 90% 99% 99.9% 99.99% Max )";
    private static final String INTERVAL_LEGEND_CSV = "\"Timestamp\",\"Int_Count\",\"Int_50%\",\"Int_90%\",\"Int_Max\","
            + "\"Total_Count\",\"Total_50%\",\"Total_90%\",\"Total_99%\",\"Total_99.9%\",\"Total_99.99%\",\"Total_Max\"";
    private static final String INTERVAL_FORMAT =
            "%4.3f: I:%d ( %7.3f %7.3f %7.3f ) T:%d ( %7.3f %7.3f %7.3f %7.3f %7.3f %7.3f )\n";
    private static final String INTERVAL_FORMAT_CSV = "%.3f,%d,%.3f,%.3f,%.3f,%d,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f\n";
    private static final String WINDOW_FORMAT = "%4.3f: I:%d P:%7.3f M:%7.3f\n";
    private static final String WINDOW_FORMAT_CSV = "%.3f,%d,%.3f,%.3f\n";

    /** What one tag came to: its summed histogram (null for DoubleHistogram logs) and the time it covers. */
    public record TagTotal(String tag, Histogram histogram, long firstStartMs, long lastEndMs, int intervals) {
    }

    private final LogReportOptions options;
    private final PrintStream stdout;
    private final PrintStream mergeTo;
    /** The -o files, written under temporary names until the report is done. */
    private final List<AtomicFile> files = new ArrayList<>();
    private final Map<PrintStream, AtomicFile> fileOf = new java.util.IdentityHashMap<>();
    private final Map<String, Channel> channels = new LinkedHashMap<>();
    private final TreeSet<String> tagsSeen = new TreeSet<>();
    private boolean untaggedSeen;
    private double startTimeSec;

    /**
     * @param stdout  where the distribution goes without an output base, and where tags are listed
     * @param mergeTo where to write the merged log (every tag, within the time range), or null
     */
    public LogReport(LogReportOptions options, PrintStream stdout, PrintStream mergeTo) {
        this.options = options;
        this.stdout = stdout;
        this.mergeTo = mergeTo;
    }

    /** Intervals read from the logs, in the time range or not: none means the logs hold none at all. */
    private long read;

    /**
     * Reads {@code logs} to the end (or to the range's end) and writes the outputs; returns each reported
     * tag's total, in the order first seen.
     *
     * @throws BadInputException when nothing usable remains: no interval in range, or none with the tag
     */
    public List<TagTotal> run(LogSet logs) throws IOException {
        boolean done = false;
        try {
            List<TagTotal> totals = report(logs);
            for (AtomicFile f : files) {
                f.commit(); // the -o files appear now, whole
            }
            done = true;
            return totals;
        } finally {
            if (!done) {
                files.forEach(AtomicFile::close); // none of a failed report's files is left, empty or cut short
            }
        }
    }

    private List<TagTotal> report(LogSet logs) throws IOException {
        if (mergeTo != null) {
            writeMergeHeader(logs);
        }
        LogInterval interval;
        int inRange = 0;
        while ((interval = logs.next()) != null) {
            read++;
            double relativeTo = logs.relativeToSec(interval);
            startTimeSec = relativeTo;
            double start = options.absoluteRange ? interval.absoluteStartSec() : interval.absoluteStartSec() - relativeTo;
            if (start < options.rangeStartSec) {
                continue;
            }
            if (start > options.rangeEndSec) {
                break; // as HistogramLogReader: the first line past the range ends the read
            }
            inRange++;
            if (mergeTo != null) {
                interval.writeTo(mergeTo, mergeBaseSec);
                mergeEndSec = Math.max(mergeEndSec, interval.absoluteEndSec());
            }
            if (options.excludeWarmup && interval.warmup()) {
                warmupLines++;
                continue;
            }
            String tag = interval.tag();
            if (tag == null) {
                if (!untaggedSeen && options.selection == TagSelection.DEFAULT) {
                    dropTaggedChannels(); // the log has untagged lines: those are the default, as in HistogramLogProcessor
                }
                untaggedSeen = true;
            } else {
                tagsSeen.add(tag);
            }
            if (options.listTags || !wanted(tag)) {
                continue;
            }
            EncodableHistogram h = histogramOf(interval);
            if (h == null) {
                continue;
            }
            channels.computeIfAbsent(key(tag), k -> new Channel(tag, silent(tag))).add(h, interval);
        }
        if (mergeTo != null) {
            writeMergeEnd(logs);
            mergeTo.flush();
        }
        if (options.listTags) {
            listTags();
            return List.of();
        }
        return finish(logs, inRange);
    }

    /** The line's histogram as reported: decoded, and corrected when asked; null when it cannot be decoded. */
    private EncodableHistogram histogramOf(LogInterval interval) {
        EncodableHistogram h = interval.histogram();
        if (h != null && options.expectedIntervalForCoordinatedOmissionCorrection > 0.0) {
            h = Accumulator.corrected(h, options.expectedIntervalForCoordinatedOmissionCorrection);
        }
        return h;
    }

    /**
     * Decoded histograms this report holds at the moment: each tag's running sum and moving-window sum, and
     * any window line still decoded. Bounded by the number of tags, however long the log or the window.
     */
    int histogramsHeld() {
        int held = 0;
        for (Channel c : channels.values()) {
            held += c.histogramsHeld();
        }
        return held;
    }

    /** Lines held in moving windows at the moment, all tags together (compressed, about 1 KB each). */
    int windowLines() {
        int lines = 0;
        for (Channel c : channels.values()) {
            lines += c.window.size();
        }
        return lines;
    }

    private boolean wanted(String tag) {
        return switch (options.selection) {
            case ONE -> Objects.equals(tag, options.tag);
            case ALL -> true;
            // Untagged lines, as HistogramLogProcessor; tagged ones too until an untagged line shows up.
            case DEFAULT -> tag == null || !untaggedSeen;
        };
    }

    private void dropTaggedChannels() {
        channels.values().removeIf(c -> {
            if (c.tag != null) {
                c.discard();
                return true;
            }
            return false;
        });
    }

    /**
     * OP.status lines count statuses, not latencies: by default they are summed for the JSON's errors
     * and returns but not printed as a distribution (ask for them by name or with --all-tags).
     */
    private boolean silent(String tag) {
        return options.selection == TagSelection.DEFAULT && StatusTags.isStatusTag(tag);
    }

    private static String key(String tag) {
        return tag == null ? "" : "Tag=" + tag;
    }

    private List<TagTotal> finish(LogSet logs, int inRange) throws IOException {
        if (options.selection == TagSelection.DEFAULT && channels.containsKey("")) {
            dropTaggedChannels();
        }
        if (channels.isEmpty()) {
            throw new BadInputException(nothingFound(logs, inRange));
        }
        List<TagTotal> totals = new ArrayList<>();
        boolean several = channels.values().stream().filter(c -> !c.silent).count() > 1;
        for (Channel c : channels.values()) {
            totals.add(c.finish(several));
        }
        return totals;
    }

    private String nothingFound(LogSet logs, int inRange) {
        String where = String.join(", ", logs.names());
        if (read == 0) {
            return where + (logs.size() == 1 ? " holds" : " hold") + " no interval: empty, only a header, or cut off"
                    + " before its first interval (a gzip log missing its end reads this way); give a log written by"
                    + " loadgen run --hlog FILE that ran for at least one --interval";
        }
        if (inRange == 0) {
            return "no interval in " + where + " falls in the time range "
                    + options.rangeStartSec + " to " + (options.rangeEndSec == Double.MAX_VALUE ? "the end" : options.rangeEndSec)
                    + " s; widen --start/--end (seconds relative to the log's StartTime)";
        }
        if (inRange == warmupLines) {
            return "every interval of " + where + " in range is of the run's warm-up (--warmup, which the run's"
                    + " totals leave out too); give --include-warmup to report it";
        }
        if (options.selection == TagSelection.ONE) {
            return "no interval tagged '" + options.tag + "' in " + where + "; tags present: "
                    + (tagsSeen.isEmpty() ? "none" : String.join(", ", tagsSeen)) + " (list them with --list-tags)";
        }
        return "no interval in " + where + " could be decoded; see the warnings above";
    }

    private void listTags() {
        stdout.println("Tags found in input file:");
        if (untaggedSeen) {
            stdout.println("[NO TAG (default)]");
        }
        for (String tag : tagsSeen) {
            stdout.println(tag);
        }
        stdout.flush();
    }

    private double mergeBaseSec;
    private double mergeEndSec = Double.NEGATIVE_INFINITY;
    /** Lines in range left out as the run's warm-up. */
    private long warmupLines;

    /**
     * Ends the merged log as loadgen ends a run's log, when the logs it merged name their run and none was cut:
     * read later, it is then whole, as they were.
     */
    private void writeMergeEnd(LogSet logs) {
        boolean named = logs.headers().stream().anyMatch(h -> h.value(IntervalLog.RUN_ID).isPresent());
        if (named && !logs.integrity().cut() && mergeEndSec > Double.NEGATIVE_INFINITY) {
            mergeTo.format(Locale.ROOT, "#[%s: stop_reason=merged length_s=%.3f]%n",
                    IntervalLog.RUN_END, mergeEndSec - mergeBaseSec);
        }
    }

    private void writeMergeHeader(LogSet logs) {
        long baseMs = Math.round(logs.startTimeSec() * 1000.0);
        mergeBaseSec = baseMs / 1000.0;
        org.HdrHistogram.HistogramLogWriter w = new org.HdrHistogram.HistogramLogWriter(mergeTo);
        w.outputComment("[loadgen merged interval log: " + logs.size() + " log(s) merged on absolute time: "
                + String.join(", ", logs.names()) + "]");
        Set<String> runIds = new LinkedHashSet<>();
        logs.headers().forEach(h -> h.value(IntervalLog.RUN_ID).ifPresent(runIds::add));
        String runIdLine = "[" + IntervalLog.RUN_ID + ": ";
        if (runIds.size() == 1) {
            w.outputComment(runIdLine + runIds.iterator().next() + "]");
        }
        for (String c : logs.comments()) {
            // A shard's line is left out: the merged log is the whole run, not its first shard. The run's id is
            // written once above, and none when the logs are of several runs (--allow-mixed).
            if (!c.startsWith("[StartTime:") && !c.startsWith("[BaseTime:") && !c.startsWith("[Histogram log format")
                    && !c.startsWith("[" + ShardSet.HEADER + ": ") && !c.startsWith(runIdLine)) {
                w.outputComment(c);
            }
        }
        w.outputLogFormatVersion();
        w.outputStartTime(baseMs);
        w.outputBaseTime(baseMs);
        w.outputLegend();
    }

    private static double percentile(EncodableHistogram h, double p) {
        return h instanceof DoubleHistogram d ? d.getValueAtPercentile(p) : ((Histogram) h).getValueAtPercentile(p);
    }

    private static double max(EncodableHistogram h) {
        return h instanceof DoubleHistogram d ? d.getMaxValue() : ((Histogram) h).getMaxValue();
    }

    private static long count(EncodableHistogram h) {
        return h instanceof DoubleHistogram d ? d.getTotalCount() : ((Histogram) h).getTotalCount();
    }

    /**
     * A line in a moving window: kept compressed, and decoded again when it leaves the window, since a
     * decoded loadgen histogram is 270 KB and a window of an hour at 1-second intervals holds 3,600 lines
     * per tag. Its end is the reported histogram's, as HistogramLogProcessor compares it.
     */
    private record WindowLine(LogInterval line, long endTimeStampMs) {
    }

    /** One tag's outputs and sums. */
    private final class Channel {
        private final String tag;
        private final boolean silent;
        private final ArrayDeque<WindowLine> window = new ArrayDeque<>();
        private Accumulator total;
        private Accumulator windowSum;
        private PrintStream hgrm;
        private PrintStream intervals;
        private PrintStream windows;
        private ByteArrayOutputStream buffered;
        private boolean startTimeWritten;
        private boolean intervalLegendWritten;
        private boolean windowLegendWritten;
        private long firstStartMs = Long.MAX_VALUE;
        private long lastEndMs = Long.MIN_VALUE;
        private int count;

        Channel(String tag, boolean silent) {
            this.tag = tag;
            this.silent = silent;
        }

        void add(EncodableHistogram h, LogInterval line) {
            String where = line.where();
            if (total == null) {
                open();
                total = Accumulator.copyOf(h);
                if (options.movingWindow) {
                    windowSum = Accumulator.windowFor(h);
                }
            }
            count++;
            firstStartMs = Math.min(firstStartMs, h.getStartTimeStamp());
            lastEndMs = Math.max(lastEndMs, h.getEndTimeStamp());
            total.add(h, where);
            if (options.movingWindow) {
                long cutOff = h.getEndTimeStamp() - options.movingWindowLengthInMsec;
                windowSum.add(h, where);
                WindowLine head;
                while ((head = window.peek()) != null && head.endTimeStampMs() <= cutOff) {
                    window.remove();
                    windowSum.subtract(histogramOf(head.line()));
                    // Drop it at once: a line that lived in the window has been promoted to the old generation,
                    // and a young histogram it still pointed to at the next young collection would be promoted
                    // with it, filling the old generation with dead 270 KB histograms.
                    head.line().release();
                }
                line.release();
                window.add(new WindowLine(line, h.getEndTimeStamp()));
            }
            // HistogramLogProcessor writes the StartTime once a nonzero one is known, before the first row.
            if (!startTimeWritten && startTimeSec != 0.0) {
                startTimeWritten = true;
                writeStartTime(hgrm);
                if (intervals != null) {
                    writeStartTime(intervals);
                }
            }
            double t = (h.getEndTimeStamp() / 1000.0) - startTimeSec;
            double r = options.outputValueUnitRatio;
            if (intervals != null) {
                if (!intervalLegendWritten) {
                    intervalLegendWritten = true;
                    intervals.println(options.csv ? INTERVAL_LEGEND_CSV : INTERVAL_LEGEND);
                }
                intervals.format(Locale.US, options.csv ? INTERVAL_FORMAT_CSV : INTERVAL_FORMAT, t,
                        count(h), percentile(h, 50.0) / r, percentile(h, 90.0) / r, max(h) / r,
                        total.totalCount(), total.valueAtPercentile(50.0) / r, total.valueAtPercentile(90.0) / r,
                        total.valueAtPercentile(99.0) / r, total.valueAtPercentile(99.9) / r,
                        total.valueAtPercentile(99.99) / r, total.maxValue() / r);
            }
            if (windows != null) {
                if (!windowLegendWritten) {
                    windowLegendWritten = true;
                    double p = options.movingWindowPercentileToReport;
                    windows.println(options.csv ? "\"Timestamp\",\"Window_Count\",\"" + p + "%'ile\",\"Max\""
                            : "Time: WindowCount " + p + "%'ile Max");
                }
                windows.format(Locale.US, options.csv ? WINDOW_FORMAT_CSV : WINDOW_FORMAT, t, windowSum.totalCount(),
                        windowSum.valueAtPercentile(options.movingWindowPercentileToReport) / r, windowSum.maxValue() / r);
            }
        }

        int histogramsHeld() {
            int held = (total == null ? 0 : 1) + (windowSum == null ? 0 : 1);
            for (WindowLine w : window) {
                held += w.line().holdsHistogram() ? 1 : 0;
            }
            return held;
        }

        private void open() {
            String base = options.outputBase;
            if (base == null || silent) {
                buffered = new ByteArrayOutputStream();
                hgrm = new PrintStream(buffered, false);
                return;
            }
            if (tag != null && channelsMayMultiply()) {
                base = base + "." + tag;
            }
            intervals = create(base);
            timeRange(intervals, "Interval percentile log");
            hgrm = create(base + ".hgrm");
            timeRange(hgrm, "Overall percentile distribution");
            if (options.movingWindow) {
                windows = create(base + ".mwp");
                timeRange(windows, "Moving window log for " + options.movingWindowPercentileToReport + " percentile");
            }
        }

        /** Closes and deletes this channel's output files: it is not reported after all. */
        void discard() {
            for (String suffix : new String[]{"", ".hgrm", ".mwp"}) {
                PrintStream s = suffix.isEmpty() ? intervals : suffix.equals(".hgrm") ? hgrm : windows;
                if (s != null && options.outputBase != null) {
                    s.close();
                    new java.io.File(options.outputBase + "." + tag + suffix).delete();
                }
            }
        }

        TagTotal finish(boolean several) throws IOException {
            total.outputPercentileDistribution(hgrm, options.percentilesOutputTicksPerHalf,
                    options.outputValueUnitRatio, options.csv);
            hgrm.flush();
            if (buffered != null && !silent) {
                if (several) {
                    stdout.println("#[Tag: " + (tag == null ? "[NO TAG (default)]" : tag) + "]");
                }
                buffered.writeTo(stdout);
                stdout.flush();
            } else if (buffered == null) {
                hgrm.flush();
            }
            if (intervals != null) {
                intervals.flush();
            }
            if (windows != null) {
                windows.flush();
            }
            checkErrors(); // then run() commits the files
            return new TagTotal(tag, total.histogram(), firstStartMs, lastEndMs, count);
        }

        private void checkErrors() throws IOException {
            for (PrintStream s : new PrintStream[]{hgrm, intervals, windows}) {
                if (s != null && s != stdout && s.checkError()) {
                    AtomicFile f = fileOf.get(s);
                    if (f != null && f.failure() != null) {
                        throw new OutputWriteException(f.path(), f.failure()); // one line: the file and the cause
                    }
                    throw new IOException("writing the report for " + (tag == null ? "untagged lines" : "tag " + tag)
                            + " failed (disk full?)");
                }
            }
        }

        private void writeStartTime(PrintStream out) {
            out.format(Locale.US, "#[StartTime: %.3f (seconds since epoch), %s]\n",
                    startTimeSec, new Date((long) (startTimeSec * 1000)).toString());
        }
    }

    /** With one tag asked for, outputs keep HistogramLogProcessor's names; otherwise each tag gets its own. */
    private boolean channelsMayMultiply() {
        return options.selection != TagSelection.ONE;
    }

    private PrintStream create(String file) {
        try {
            AtomicFile f = AtomicFile.open(Path.of(file));
            files.add(f);
            PrintStream s = new PrintStream(f, false);
            fileOf.put(s, f);
            return s;
        } catch (IOException e) {
            throw new BadInputException("cannot write " + file + " (" + e.getMessage() + "); choose a writable -o base name");
        }
    }

    private void timeRange(PrintStream out, String title) {
        out.format(Locale.US, "#[%s between %.3f and", title, options.rangeStartSec);
        if (options.rangeEndSec < Double.MAX_VALUE) {
            out.format(" %.3f", options.rangeEndSec); // default locale, as HistogramLogProcessor
        } else {
            out.format(" %s", "<Infinite>");
        }
        out.format(options.absoluteRange ? " seconds (since the epoch)]\n" : " seconds (relative to StartTime)]\n");
    }
}
