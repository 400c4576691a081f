package io.loadgen.core.log;

import org.HdrHistogram.DoubleHistogram;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.function.Consumer;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * One interval line of an HdrHistogram interval log: its tag, its absolute time and its compressed
 * histogram, decoded only when asked for ({@link #histogram()}), so a reader that wants one tag of six
 * decodes one line in six. Confined to the thread that reads the log.
 *
 * <p>Times follow HdrHistogram's {@code HistogramLogReader} to the bit: the absolute start is the
 * line's timestamp plus the log's base time, the end adds the interval length, and the histogram's
 * start/end timestamps are those seconds times 1000, truncated to whole milliseconds.
 */
public final class LogInterval {
    /** DoubleHistogram's encoding cookies (EncodableHistogram's own dispatch on them is not public). */
    private static final int DOUBLE_COMPRESSED_COOKIE = 0x0c72124f;
    private static final int DOUBLE_COOKIE = 0x0c72124e;

    private final LogFile file;
    private final long line;
    private final boolean lastLine;
    private final String tag;
    private final double absoluteStartSec;
    private final double absoluteEndSec;
    private final double fileStartTimeSec;
    private final String lengthField;
    private final String maxField;
    private final String payload;
    private EncodableHistogram histogram;
    private boolean decoded;
    private boolean verified;

    LogInterval(LogFile file, long line, boolean lastLine, String tag, double absoluteStartSec,
                double absoluteEndSec, double fileStartTimeSec, String lengthField, String maxField, String payload) {
        this.file = file;
        this.line = line;
        this.lastLine = lastLine;
        this.tag = tag;
        this.absoluteStartSec = absoluteStartSec;
        this.absoluteEndSec = absoluteEndSec;
        this.fileStartTimeSec = fileStartTimeSec;
        this.lengthField = lengthField;
        this.maxField = maxField;
        this.payload = payload;
    }

    /**
     * Writes this line to {@code out} as HistogramLogWriter would, with its start re-expressed relative
     * to {@code baseTimeSec}; the length, max and compressed histogram are copied as they were read, so
     * nothing is lost or re-encoded.
     */
    public void writeTo(java.io.PrintStream out, double baseTimeSec) {
        if (tag != null) {
            out.append("Tag=").append(tag).append(',');
        }
        out.append(String.format(java.util.Locale.US, "%.3f", absoluteStartSec - baseTimeSec))
                .append(',').append(lengthField).append(',').append(maxField).append(',').append(payload).append('\n');
    }

    /** The line's tag, or null for an untagged line (HistogramLogProcessor's "default" tag). */
    public String tag() {
        return tag;
    }

    /** Start of the interval, seconds since the epoch. */
    public double absoluteStartSec() {
        return absoluteStartSec;
    }

    /** End of the interval, seconds since the epoch. */
    public double absoluteEndSec() {
        return absoluteEndSec;
    }

    /** The start as HistogramLogReader sets it on the histogram: epoch milliseconds, truncated. */
    public long startTimeStampMs() {
        return (long) (absoluteStartSec * 1000.0);
    }

    /** The end as HistogramLogReader sets it on the histogram: epoch milliseconds, truncated. */
    public long endTimeStampMs() {
        return (long) (absoluteEndSec * 1000.0);
    }

    /** The StartTime of the file this line came from, as known when the line was read (epoch seconds). */
    public double fileStartTimeSec() {
        return fileStartTimeSec;
    }

    /**
     * Whether this interval is of the run's warm-up ({@code --warmup}, named in the log's run header): it starts
     * before the warm-up's end, relative to its own log's StartTime. The run leaves such intervals out of its
     * totals and JSON, so readers that give the run's numbers leave them out too. False for a log naming none.
     */
    public boolean warmup() {
        long warmupMs = file.warmupMs();
        return warmupMs > 0 && Math.round((absoluteStartSec - fileStartTimeSec) * 1000.0) < warmupMs;
    }

    /** Where the line is, for messages: {@code file:line}. */
    public String where() {
        return file.name() + ":" + line;
    }

    /**
     * The interval's histogram (a {@code Histogram} or a {@code DoubleHistogram}), with its tag and
     * start/end timestamps set; decoded on the first call. Null when the payload cannot be decoded: the
     * log's warning sink has then been told which file and line, and whether it looks like a run that
     * was killed mid-write (the last line).
     */
    public EncodableHistogram histogram() {
        if (!decoded) {
            decoded = true;
            histogram = decode(file.warnings());
        }
        return histogram;
    }

    /**
     * Drops the decoded histogram and keeps only the compressed line; a later {@link #histogram()} decodes
     * it again, to the same histogram. For readers that keep lines for a while (a moving window): a
     * loadgen histogram (1 ns to 1 h, 3 digits) decodes to 270 KB of counts, its line is about 1 KB.
     * A line that could not be decoded stays undecodable, and is not warned about twice.
     */
    public void release() {
        if (histogram != null) {
            histogram = null;
            decoded = false;
        }
    }

    /** Whether this line holds its decoded histogram now (after {@link #histogram()}, before {@link #release()}). */
    public boolean holdsHistogram() {
        return histogram != null;
    }

    /**
     * {@link #histogram()}, and only if the compressed payload is whole: HdrHistogram stops inflating once it
     * has every count, so a damaged byte it does not need, or one that still inflates to something, would go
     * unseen; here the zlib stream is read to its end and its Adler-32 checked. For readers that must not
     * judge damaged data ({@code gate}); it costs a second inflate, so {@code report} does not pay it.
     * Null, after a warning, when the payload is damaged.
     */
    public EncodableHistogram verifiedHistogram() {
        EncodableHistogram h = histogram();
        if (h == null || verified) {
            return h;
        }
        String problem = zlibProblem();
        if (problem != null) {
            histogram = null;
            file.corruptHistogram(lastLine);
            file.warnings().accept(where() + (lastLine
                    ? ": the last line is truncated (was the run killed?); read the log up to the line before it"
                    : ": corrupt histogram (" + problem + "); line skipped"));
            return null;
        }
        verified = true;
        return h;
    }

    /** Null when the payload's zlib stream inflates to its end with a matching checksum, else what is wrong. */
    private String zlibProblem() {
        byte[] bytes = Base64.getDecoder().decode(payload);
        if (bytes.length < 8) {
            return "too short";
        }
        int length = ByteBuffer.wrap(bytes).getInt(4);
        if (length < 0 || length > bytes.length - 8) {
            return "compressed length " + length + " does not fit the line";
        }
        Inflater inflater = new Inflater();
        try {
            inflater.setInput(bytes, 8, length);
            byte[] sink = new byte[8192];
            while (!inflater.finished()) {
                if (inflater.inflate(sink) == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    return "the compressed data ends early";
                }
            }
            return null;
        } catch (DataFormatException e) {
            return reason(e);
        } finally {
            inflater.end();
        }
    }

    private EncodableHistogram decode(Consumer<String> warnings) {
        EncodableHistogram h;
        try {
            ByteBuffer buffer = ByteBuffer.wrap(Base64.getDecoder().decode(payload));
            int cookie = buffer.getInt(0);
            h = cookie == DOUBLE_COMPRESSED_COOKIE || cookie == DOUBLE_COOKIE
                    ? DoubleHistogram.decodeFromCompressedByteBuffer(buffer, 0)
                    : Histogram.decodeFromCompressedByteBuffer(buffer, 0);
        } catch (Exception | LinkageError e) {
            rethrowIfOutOfResources(e);
            file.corruptHistogram(lastLine);
            if (lastLine) {
                warnings.accept(where() + ": the last line is truncated (was the run killed?); "
                        + "read the log up to the line before it");
            } else {
                warnings.accept(where() + ": corrupt histogram (" + reason(e) + "); line skipped");
            }
            return null;
        }
        h.setStartTimeStamp(startTimeStampMs());
        h.setEndTimeStamp(endTimeStampMs());
        h.setTag(tag);
        return h;
    }

    /**
     * HdrHistogram builds the decoded histogram by reflection, so running out of heap arrives wrapped in an
     * InvocationTargetException: that is the JVM's limit, not a corrupt line, and must not be reported as one.
     */
    private static void rethrowIfOutOfResources(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof VirtualMachineError error) {
                throw error;
            }
        }
    }

    private static String reason(Throwable e) {
        String m = e.getMessage();
        return m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
    }
}
