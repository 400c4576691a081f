package io.loadgen.core.record;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

import java.io.FileNotFoundException;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes a run's interval log in HdrHistogram's standard log format (compressed histograms, one
 * tagged line per operation type and view per interval), readable by HdrHistogram's own
 * {@code HistogramLogProcessor} and {@code HistogramLogReader}. Created on the main thread; written
 * and closed only by the interval sampler thread. Flushed after every interval, so a killed run
 * loses at most the interval in progress.
 *
 * <p>The header's comment lines say what the log holds, so it explains itself without the command:
 * <pre>
 * #[loadgen interval log: latencies in nanoseconds; max column in milliseconds]
 * #[run: driver=mockdb target=1000ops/s threads=1 ...]
 * #[properties: mockdb.delay=4ms]
 * #[tags: READ.intended = completion - intended start; READ.service = completion - actual start; harness.lag = ...]
 * #[Histogram log format version 1.3]
 * #[StartTime: 1763783167.123 (seconds since epoch), Sat Nov 22 03:46:07 UTC 2025]
 * "StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"
 * </pre>
 * Between the interval lines, {@code #[event: ...]} comments ({@link EventLine}) mark pauses the
 * driver or the harness saw ({@link RunEvents}), written by the sampler before the interval in which
 * they ended.
 */
public final class IntervalLog implements AutoCloseable {
    /** Values are ns; the max column is written in ms (HistogramLogProcessor's default unit ratio). */
    public static final double MAX_VALUE_UNIT_RATIO = 1_000_000.0;

    private final PrintStream out;
    private final HistogramLogWriter writer;
    private long baseMs;

    private IntervalLog(PrintStream out) {
        this.out = out;
        this.writer = new HistogramLogWriter(out);
    }

    /**
     * Opens {@code path} for writing, truncating it.
     *
     * @throws FileNotFoundException when the file cannot be created (the caller reports it as bad input)
     */
    public static IntervalLog open(Path path) throws FileNotFoundException {
        return new IntervalLog(new PrintStream(new FileOutputStream(path.toFile()), false, StandardCharsets.UTF_8));
    }

    /** Writes the self-describing header; {@code startMs} is the run's start, the log's base time. */
    public void writeHeader(long startMs, List<String> comments) {
        for (String c : comments) {
            writer.outputComment("[" + c + "]");
        }
        writer.outputLogFormatVersion();
        writer.outputStartTime(startMs);
        writer.setBaseTime(startMs);
        baseMs = startMs;
        writer.outputLegend();
        out.flush();
    }

    /** Appends one interval histogram; its tag and start/end timestamps (epoch ms) must be set. */
    public void write(Histogram interval) {
        writer.outputIntervalHistogram((interval.getStartTimeStamp() - baseMs) / 1000.0,
                (interval.getEndTimeStamp() - baseMs) / 1000.0, interval, MAX_VALUE_UNIT_RATIO);
    }

    /**
     * Appends one event as an {@code #[event: ...]} comment line ({@link EventLine}), its start relative to
     * the log's base time as the interval lines' are; HdrHistogram's readers skip it.
     */
    public void writeEvent(String kind, String source, long startEpochMs, long lengthNs) {
        writer.outputComment(new EventLine(kind, source, (startEpochMs - baseMs) / 1000.0, lengthNs / 1e6).comment());
    }

    /** Makes what was written so far durable against a kill. */
    public void flush() {
        out.flush();
    }

    @Override
    public void close() {
        out.close();
    }
}
