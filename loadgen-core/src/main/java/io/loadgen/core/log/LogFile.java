package io.loadgen.core.log;

import io.loadgen.core.BadInputException;
import io.loadgen.core.record.EventLine;
import io.loadgen.core.record.IntervalLog;
import io.loadgen.core.time.Durations;

import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.zip.GZIPInputStream;

/**
 * Streams the interval lines of one HdrHistogram interval log (plain or gzip-compressed), keeping the
 * log's StartTime and BaseTime exactly as HdrHistogram's {@code HistogramLogReader} does: the latest
 * {@code #[StartTime: ]} and {@code #[BaseTime: ]} comments seen; without a StartTime, the first
 * interval's timestamp; without a BaseTime, 0 (absolute timestamps) unless the first timestamp is more
 * than a year before the StartTime, in which case timestamps are relative to the StartTime.
 *
 * <p>Bad lines do not end the read: a line that is not an interval line is reported to the warning
 * sink with its file and line number and skipped; a bad last line is reported as truncated (a run
 * killed mid-write). A file whose first content line is neither a comment, the legend, nor an interval
 * line is not a log at all: {@link BadInputException}. One reader per thread.
 */
final class LogFile implements Closeable {
    private static final double ONE_YEAR_SEC = 365 * 24 * 3600.0;
    private static final int MAX_LINE_WARNINGS = 10;
    /** Timestamps are written with three decimals: intervals that touch may seem to overlap by this. */
    private static final double OVERLAP_TOLERANCE_SEC = 0.0015;
    private static final String START_TIME = "#[StartTime: ";
    private static final String BASE_TIME = "#[BaseTime: ";

    private final String name;
    private final BufferedReader in;
    private final boolean lastLineComplete;
    private final Consumer<String> warnings;
    private final List<String> comments = new ArrayList<>();
    private final List<LogEvent> events = new ArrayList<>();
    /** Event lines read before the base time was known (before the first interval line), placed then. */
    private final List<EventLine> unplaced = new ArrayList<>();
    private final List<Long> unplacedLines = new ArrayList<>();

    private String lookahead;
    private long lookaheadNumber;
    private long lineNumber;
    private boolean seenLogContent;
    private int lineWarnings;

    private final Map<String, Double> lastEndByTag = new HashMap<>();
    private long corruptLines;
    private long overlaps;
    private boolean tornTail;

    private double startTimeSec;
    private boolean observedStartTime;
    /** The StartTime of the first interval line (the run's start), epoch seconds; NaN before it. */
    private double runStartSec = Double.NaN;
    /** The latest interval end, epoch seconds; NaN before the first interval. */
    private double lastEndSec = Double.NaN;
    /** The warm-up the run header names, in whole ms (0 when none, or no loadgen header). */
    private long warmupMs = -1;
    /** Whether the closing {@code #[run end: ...]} line has been read. */
    private boolean ended;
    private double baseTimeSec;
    private boolean observedBaseTime;

    /**
     * @param endsWithNewline whether the file is known to end with a line break: then its last line is
     *                        complete, and a bad one is corrupt rather than cut by a killed run
     */
    private LogFile(String name, InputStream raw, boolean endsWithNewline, Consumer<String> warnings)
            throws IOException {
        this.name = name;
        this.warnings = warnings;
        BufferedInputStream buffered = new BufferedInputStream(raw, 1 << 16);
        boolean gzip = isGzip(buffered);
        this.lastLineComplete = endsWithNewline && !gzip;
        InputStream text = gzip ? new GZIPInputStream(buffered, 1 << 16) : buffered;
        this.in = new BufferedReader(new InputStreamReader(text, StandardCharsets.UTF_8), 1 << 16);
        advance();
    }

    /**
     * A digest of the interval lines of the log at {@code path} (plain or gzip), header and comments left out:
     * two files with the same digest hold the same intervals, whatever their names, compression or headers.
     * Null when the file cannot be read as text (opening it reports why).
     */
    static byte[] intervalDigest(Path path) {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e); // every JVM has SHA-256
        }
        try (InputStream raw = Files.newInputStream(path)) {
            BufferedInputStream buffered = new BufferedInputStream(raw, 1 << 16);
            InputStream text = isGzip(buffered) ? new GZIPInputStream(buffered, 1 << 16) : buffered;
            BufferedReader reader = new BufferedReader(new InputStreamReader(text, StandardCharsets.UTF_8), 1 << 16);
            String line;
            while ((line = reader.readLine()) != null) {
                if (!line.isEmpty() && line.charAt(0) != '#' && line.charAt(0) != '"') {
                    digest.update(line.strip().getBytes(StandardCharsets.UTF_8));
                    digest.update((byte) '\n');
                }
            }
        } catch (IOException e) {
            // a cut gzip stream: what was read so far
        }
        return digest.digest();
    }

    /** Whether the stream starts with gzip's magic bytes (1f 8b); nothing is consumed. */
    private static boolean isGzip(BufferedInputStream in) throws IOException {
        in.mark(2);
        int b0 = in.read();
        int b1 = in.read();
        in.reset();
        return b0 == 0x1f && b1 == 0x8b;
    }

    /** Whether the whole file has been read. */
    boolean atEnd() {
        return lookahead == null;
    }

    /** Whether a regular file's last byte is a line break (false when that cannot be known). */
    private static boolean endsWithNewline(Path path) {
        if (!Files.isRegularFile(path)) {
            return false;
        }
        try (FileChannel channel = FileChannel.open(path)) {
            long size = channel.size();
            if (size == 0) {
                return false;
            }
            ByteBuffer last = ByteBuffer.allocate(1);
            channel.read(last, size - 1);
            return last.get(0) == '\n';
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Opens {@code path}; {@code "-"} reads standard input.
     *
     * @throws BadInputException when the file does not exist or cannot be read
     */
    static LogFile open(Path path, Consumer<String> warnings) throws IOException {
        if (path.toString().equals("-")) {
            return new LogFile("<stdin>", System.in, false, warnings);
        }
        try {
            return new LogFile(path.toString(), Files.newInputStream(path), endsWithNewline(path), warnings);
        } catch (NoSuchFileException e) {
            throw new BadInputException("interval log " + path + " does not exist; give the file that "
                    + "'loadgen run --hlog FILE' wrote");
        } catch (java.util.zip.ZipException e) {
            throw new BadInputException(path + " starts like gzip but is not readable as gzip ("
                    + e.getMessage() + "); give a plain or gzip-compressed interval log");
        } catch (IOException e) {
            throw new BadInputException("cannot read interval log " + path + ": " + e.getMessage());
        }
    }

    String name() {
        return name;
    }

    Consumer<String> warnings() {
        return warnings;
    }

    /** The StartTime in effect (epoch seconds), 0 until the log states one or an interval is read. */
    double startTimeSec() {
        return startTimeSec;
    }

    boolean observedStartTime() {
        return observedStartTime;
    }

    /** The log's comment lines seen so far, without the leading {@code #}; event lines are {@link #events()}. */
    List<String> comments() {
        return Collections.unmodifiableList(comments);
    }

    /** Lines skipped as corrupt, not counting a torn last line. */
    long corruptLines() {
        return corruptLines;
    }

    /** Intervals that began before the previous interval of the same tag ended: written twice, or by two writers. */
    long overlaps() {
        return overlaps;
    }

    /** Whether the last line was cut (a run killed mid-write), which is expected and only warned about. */
    boolean tornTail() {
        return tornTail;
    }

    /**
     * The run's warm-up in ms, from the header's {@code #[run: ... warmup=2s ...]}: its intervals start before
     * it (the run leaves them out of its totals); 0 when the log names none.
     */
    long warmupMs() {
        if (warmupMs < 0) {
            warmupMs = 0;
            String w = runValue("warmup");
            if (w != null) {
                try {
                    warmupMs = Durations.parse(w, "warmup").toMillis();
                } catch (IllegalArgumentException e) {
                    warnings.accept(name + ": the run header's warmup=" + w + " is not a duration; the warm-up is"
                            + " counted as measured");
                }
            }
        }
        return warmupMs;
    }

    /** The planned length from the header's {@code duration=}, seconds; NaN when none (an operation count). */
    double plannedSec() {
        String d = runValue("duration");
        if (d == null || d.equals("-")) {
            return Double.NaN;
        }
        try {
            return Durations.parse(d, "duration").toMillis() / 1000.0;
        } catch (IllegalArgumentException e) {
            return Double.NaN;
        }
    }

    private String runValue(String key) {
        return LogHeader.of(name, comments).value("run").map(LogHeader::keyValues).map(kv -> kv.get(key)).orElse(null);
    }

    /** The run's identity from the header's {@code #[run_id: ...]}; null for a log without one (older, or not loadgen's). */
    String runId() {
        return LogHeader.of(name, comments).value(IntervalLog.RUN_ID).orElse(null);
    }

    /** Whether the closing {@code #[run end: ...]} line was read. */
    boolean ended() {
        return ended;
    }

    /** Seconds from the StartTime to the latest interval end read; 0 before any interval. */
    double heldSec() {
        return Double.isNaN(lastEndSec) ? 0.0 : lastEndSec - runStartSec;
    }

    /** An interval line whose histogram could not be decoded ({@link LogInterval}). */
    void corruptHistogram(boolean last) {
        if (last) {
            tornTail = true;
        } else {
            corruptLines++;
        }
    }

    /** The {@code #[event: ...]} lines read so far, on the epoch time line, in file order. */
    List<LogEvent> events() {
        return Collections.unmodifiableList(events);
    }

    /** The next interval line, or null at the end of the file. */
    LogInterval next() throws IOException {
        while (lookahead != null) {
            String line = lookahead;
            long number = lookaheadNumber;
            advance();
            boolean last = lookahead == null && !lastLineComplete; // a last line that may have been cut
            if (line.isEmpty()) {
                continue;
            }
            char first = line.charAt(0);
            if (first == '#') {
                comment(line, number);
                seenLogContent = true;
                continue;
            }
            if (first == '"') {
                seenLogContent |= line.startsWith("\"StartTimestamp\"");
                if (!line.startsWith("\"StartTimestamp\"")) {
                    badLine(number, last, "not an interval line");
                }
                continue;
            }
            LogInterval interval = interval(line, number, last);
            if (interval != null) {
                seenLogContent = true;
                return interval;
            }
        }
        return null;
    }

    /** Reads on until the first interval line without consuming it, so the StartTime is known. */
    void readHeader() throws IOException {
        while (lookahead != null && (lookahead.isEmpty() || lookahead.charAt(0) == '#'
                || lookahead.startsWith("\"StartTimestamp\""))) {
            if (!lookahead.isEmpty() && lookahead.charAt(0) == '#') {
                comment(lookahead, lookaheadNumber);
                seenLogContent = true;
            }
            advance();
        }
    }

    private void advance() throws IOException {
        try {
            lookahead = in.readLine();
        } catch (java.io.EOFException | java.util.zip.ZipException e) {
            warnings.accept(name + ":" + (lineNumber + 1) + ": the compressed log ends early (was the run killed?); "
                    + "read the log up to line " + lineNumber);
            tornTail = true;
            lookahead = null;
        }
        if (lookahead != null) {
            lookaheadNumber = ++lineNumber;
        }
    }

    private void comment(String line, long number) {
        EventLine event = EventLine.parse(line.substring(1));
        if (event != null) {
            if (observedBaseTime) {
                place(event, number);
            } else {
                unplaced.add(event);
                unplacedLines.add(number);
            }
            return; // an event, not a header comment
        }
        if (line.startsWith(START_TIME)) {
            double t = leadingDouble(line, START_TIME.length());
            if (!Double.isNaN(t)) {
                startTimeSec = t;
                observedStartTime = true;
            }
        } else if (line.startsWith(BASE_TIME)) {
            double t = leadingDouble(line, BASE_TIME.length());
            if (!Double.isNaN(t)) {
                baseTimeSec = t;
                observedBaseTime = true;
            }
        }
        if (line.startsWith("#[" + IntervalLog.RUN_END + ": ") && line.endsWith("]")) {
            ended = true;
        }
        comments.add(line.substring(1));
    }

    /** An event's start is relative to the base time, as an interval line's timestamp is. */
    private void place(EventLine e, long number) {
        events.add(new LogEvent(e.kind(), e.source(), e.startSec() + baseTimeSec, e.lengthMs() / 1000.0, name + ":" + number,
                e.rateOpsPerSec()));
    }

    private static double leadingDouble(String line, int from) {
        int end = from;
        while (end < line.length() && line.charAt(end) != ' ' && line.charAt(end) != ',' && line.charAt(end) != ']') {
            end++;
        }
        try {
            return Double.parseDouble(line.substring(from, end));
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    /** {@code [Tag=T,]start,length,max,payload}; null (after a warning) when the line is not that. */
    private LogInterval interval(String line, long number, boolean last) {
        int p = 0;
        String tag = null;
        if (line.startsWith("Tag=")) {
            int comma = line.indexOf(',', 4);
            if (comma < 0) {
                return badLine(number, last, "a tag but no interval");
            }
            tag = line.substring(4, comma);
            p = comma + 1;
        }
        int c1 = line.indexOf(',', p);
        int c2 = c1 < 0 ? -1 : line.indexOf(',', c1 + 1);
        int c3 = c2 < 0 ? -1 : line.indexOf(',', c2 + 1);
        if (c3 < 0 || c3 + 1 >= line.length()) {
            return badLine(number, last, "expected [Tag=T,]start,length,max,histogram");
        }
        double timestamp;
        double length;
        try {
            timestamp = Double.parseDouble(line.substring(p, c1));
            length = Double.parseDouble(line.substring(c1 + 1, c2));
            Double.parseDouble(line.substring(c2 + 1, c3));
        } catch (NumberFormatException e) {
            return badLine(number, last, "start, length and max must be numbers");
        }
        int end = line.length();
        while (end > c3 + 1 && Character.isWhitespace(line.charAt(end - 1))) {
            end--;
        }
        String payload = line.substring(c3 + 1, end);
        if (!observedStartTime) {
            startTimeSec = timestamp;
            observedStartTime = true;
        }
        if (!observedBaseTime) {
            baseTimeSec = timestamp < startTimeSec - ONE_YEAR_SEC ? startTimeSec : 0.0;
            observedBaseTime = true;
        }
        for (int i = 0; i < unplaced.size(); i++) {
            place(unplaced.get(i), unplacedLines.get(i));
        }
        unplaced.clear();
        unplacedLines.clear();
        double absoluteStart = timestamp + baseTimeSec;
        checkOrder(tag, absoluteStart, absoluteStart + length, number);
        if (Double.isNaN(runStartSec)) {
            runStartSec = startTimeSec;
        }
        lastEndSec = Double.isNaN(lastEndSec) ? absoluteStart + length : Math.max(lastEndSec, absoluteStart + length);
        LogInterval interval = new LogInterval(this, number, last, tag, absoluteStart, absoluteStart + length,
                startTimeSec, line.substring(c1 + 1, c2), line.substring(c2 + 1, c3), payload);
        if (last) {
            interval.histogram(); // a killed run's cut last line is reported whichever tags are wanted
        }
        return interval;
    }

    /**
     * One writer's intervals of a tag follow each other in time. One that starts before the previous one
     * of its tag ended (by more than the millisecond the log's timestamps are rounded to) was written twice,
     * or two runs wrote one file: its operations would be counted twice.
     */
    private void checkOrder(String tag, double startSec, double endSec, long number) {
        String key = tag == null ? "" : tag;
        Double previousEnd = lastEndByTag.put(key, endSec);
        if (previousEnd != null && startSec < previousEnd - OVERLAP_TOLERANCE_SEC) {
            if (++overlaps <= MAX_LINE_WARNINGS) {
                warnings.accept(name + ":" + number + ": this interval of " + (tag == null ? "untagged lines" : tag)
                        + " starts before the previous one ended (written twice, or by two runs at once?); its"
                        + " operations may be counted twice"
                        + (overlaps == MAX_LINE_WARNINGS ? " (further overlaps in this file not listed)" : ""));
            }
        }
    }

    private LogInterval badLine(long number, boolean last, String what) {
        if (!seenLogContent) {
            throw new BadInputException(name + " is not an HdrHistogram interval log (line " + number + ": "
                    + what + "); give a log written by 'loadgen run --hlog FILE' or HistogramLogWriter");
        }
        if (last) {
            tornTail = true;
            warnings.accept(name + ":" + number + ": the last line is truncated (was the run killed?); "
                    + "read the log up to the line before it");
            return null;
        }
        corruptLines++;
        if (++lineWarnings <= MAX_LINE_WARNINGS) {
            warnings.accept(name + ":" + number + ": corrupt line (" + what + "); line skipped"
                    + (lineWarnings == MAX_LINE_WARNINGS ? " (further corrupt lines in this file not listed)" : ""));
        }
        return null;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
