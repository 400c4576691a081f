package io.loadgen.core.record;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

import io.loadgen.core.BadInputException;
import io.loadgen.core.output.FailureTrackingOutputStream;

import java.io.BufferedOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * Writes a run's interval log in HdrHistogram's standard log format (compressed histograms, one
 * tagged line per operation type and view per interval), readable by HdrHistogram's own
 * {@code HistogramLogProcessor} and {@code HistogramLogReader}. Created on the main thread; written
 * and closed only by the interval sampler thread. Flushed after every interval, so a killed run
 * loses at most the interval in progress.
 *
 * <p>A regular file is locked while it is written ({@link FileChannel#tryLock()}), so a second run given
 * the same {@code --hlog} is refused instead of interleaving its lines with the first one's. A write that
 * fails (a full disk) is not lost in the {@code PrintStream}: {@link #failure()} gives its cause, the
 * log stops being written, and the run reports it when it ends.
 *
 * <p>The header's comment lines say what the log holds, so it explains itself without the command:
 * <pre>
 * #[loadgen interval log: latencies in nanoseconds; max column in milliseconds]
 * #[run: driver=mockdb target=1000ops/s threads=1 ...]
 * #[properties: mockdb.delay=4ms]
 * #[tags: READ.intended = completion - intended start; READ.service = completion - actual start; harness.lag = ...]
 * #[run_id: 0f5c3c9e-6a0e-4a57-9d0b-1f3c2e3a4b5c]
 * #[Histogram log format version 1.3]
 * #[StartTime: 1763783167.123 (seconds since epoch), Sat Nov 22 03:46:07 UTC 2025]
 * "StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"
 * </pre>
 * Between the interval lines, {@code #[event: ...]} comments ({@link EventLine}) mark pauses the
 * driver or the harness saw ({@link io.loadgen.core.driver.RunEvents}), written by the sampler before
 * the interval in which they ended. The last line, {@code #[run end: stop_reason=duration length_s=20.000]},
 * says the run ended and wrote its log to the end ({@link #writeRunEnd}): a loadgen log with a {@code run_id}
 * but without it was cut (a run killed with SIGKILL, a full disk).
 */
public final class IntervalLog implements AutoCloseable {
    /** Values are ns; the max column is written in ms (HistogramLogProcessor's default unit ratio). */
    public static final double MAX_VALUE_UNIT_RATIO = 1_000_000.0;
    /** The header line naming the run ({@link RunId}), {@code #[run_id: UUID]}. */
    public static final String RUN_ID = "run_id";
    /** The closing line's name, {@code #[run end: stop_reason=R length_s=S]}. */
    public static final String RUN_END = "run end";

    private final FailureTrackingOutputStream tracked;
    private final PrintStream out;
    private final HistogramLogWriter writer;
    private final FileChannel channel;
    private long baseMs;
    private boolean failed;

    private IntervalLog(OutputStream sink, FileChannel channel) {
        this.tracked = new FailureTrackingOutputStream(sink);
        this.out = new PrintStream(new BufferedOutputStream(tracked, 1 << 16), false, StandardCharsets.UTF_8);
        this.writer = new HistogramLogWriter(out);
        this.channel = channel;
    }

    /** Writes to {@code out} (tests, standard output); nothing is locked. */
    public static IntervalLog to(OutputStream out) {
        return new IntervalLog(out, null);
    }

    /**
     * Opens {@code path} for writing, truncating it once it is known that no other run is writing it.
     *
     * @throws IOException       when the file cannot be created (the caller reports it as bad input)
     * @throws BadInputException when another process holds the file's lock: another run is writing it
     */
    public static IntervalLog open(Path path) throws IOException {
        if (Files.exists(path) && !Files.isRegularFile(path)) {
            return new IntervalLog(new FileOutputStream(path.toFile()), null); // a device or pipe: nothing to lock
        }
        FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        try {
            FileLock lock = channel.tryLock();
            if (lock == null) {
                throw new BadInputException("--hlog " + path + " is being written by another run; give each run"
                        + " its own interval log");
            }
        } catch (OverlappingFileLockException e) {
            channel.close();
            throw new BadInputException("--hlog " + path + " is already being written by this process; give each"
                    + " run its own interval log");
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        channel.truncate(0);
        return new IntervalLog(Channels.newOutputStream(channel), channel);
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
        if (failed) {
            return;
        }
        writer.outputIntervalHistogram((interval.getStartTimeStamp() - baseMs) / 1000.0,
                (interval.getEndTimeStamp() - baseMs) / 1000.0, interval, MAX_VALUE_UNIT_RATIO);
    }

    /**
     * Appends one event as an {@code #[event: ...]} comment line ({@link EventLine}), its start relative to
     * the log's base time as the interval lines' are; HdrHistogram's readers skip it.
     */
    public void writeEvent(String kind, String source, long startEpochMs, long lengthNs) {
        writeEvent(kind, source, startEpochMs, lengthNs, Double.NaN);
    }

    /** {@link #writeEvent(String, String, long, long)} with the target rate from then on (a rate change), else NaN. */
    public void writeEvent(String kind, String source, long startEpochMs, long lengthNs, double rateOpsPerSec) {
        if (!failed) {
            writer.outputComment(new EventLine(kind, source, (startEpochMs - baseMs) / 1000.0, lengthNs / 1e6,
                    rateOpsPerSec).comment());
        }
    }

    /**
     * Appends the closing line: the run ended (for {@code stopReason}, e.g. {@code duration} or {@code SIGTERM})
     * after {@code lengthMs} from its start, and every interval it measured is above. Nothing after a failure.
     */
    public void writeRunEnd(String stopReason, long lengthMs) {
        if (!failed) {
            writer.outputComment("[" + RUN_END + ": stop_reason=" + stopReason.replace(' ', '_') + " length_s="
                    + String.format(java.util.Locale.ROOT, "%.3f", lengthMs / 1000.0) + "]");
        }
    }

    /**
     * Makes what was written so far durable against a kill.
     *
     * @return false once a write has failed (see {@link #failure()}); nothing more is written then
     */
    public boolean flush() {
        if (!failed) {
            out.flush();
            failed = out.checkError();
        }
        return !failed;
    }

    /**
     * Why writing failed: the first failed write's exception, or null while every write succeeded. Any
     * thread, after {@link #flush()} or {@link #close()} returned on the writing thread.
     */
    public IOException failure() {
        IOException cause = tracked.failure();
        if (cause == null && failed) {
            cause = new IOException("the interval log could not be written");
        }
        return cause;
    }

    /**
     * Closes the file, releasing its lock; a failure to write the last bytes shows in {@link #failure()}.
     * After a failure, what is still buffered is dropped rather than written later as a torn line.
     */
    @Override
    public void close() {
        if (flush()) {
            out.close();
            failed |= out.checkError();
            return;
        }
        try {
            tracked.close();
        } catch (IOException e) {
            // already failed; the first cause is the one reported
        }
    }
}
