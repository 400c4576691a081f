package io.loadgen.core.trace;

import io.loadgen.core.driver.Status;
import io.loadgen.core.output.FailureTrackingOutputStream;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

/**
 * Writes {@code --trace FILE}: one CSV row per completed operation, drained from the workers' {@link TraceRing}s
 * by a thread of its own ({@code loadgen-trace}), formatted and compressed there, so no worker does I/O. The main
 * thread opens it, makes one ring per worker, {@link #start}s it with the run and {@link #finish}es it after
 * the workers and the sampler are done; only the writer thread touches the file in between.
 *
 * <p>The file has a header row and then {@code intended_start_ns,actual_start_ns,end_ns,op,status,worker}: three
 * times in nanoseconds since the run's start (the interval log's {@code StartTime}, the JSON's
 * {@code start_time}), the operation type, its status ({@link Status}'s name) and the worker (or async issuer)
 * index. Rows come in batches per worker, each worker's in the order it completed them: sort by a time column for
 * one timeline. A name ending in {@code .gz} is written gzip-compressed at {@link Deflater#BEST_SPEED} (what
 * DuckDB's {@code read_csv} and pandas' {@code read_csv} infer from the name), any other as plain CSV.
 * docs/trace.md gives the format's reasons and its measured cost.
 *
 * <p>A row the writer could not take in time (its worker's ring full) is dropped and counted, never waited for:
 * {@link TraceSummary#droppedRows()}.
 */
public final class TraceWriter implements AutoCloseable {
    /** The header row: the columns, with their units. */
    public static final String HEADER = "intended_start_ns,actual_start_ns,end_ns,op,status,worker";
    /** The most rows taken from one ring before moving on to the next. */
    private static final int BATCH_ROWS = 4096;
    /** How long the writer sleeps when every ring was empty. */
    private static final long IDLE_PARK_NS = TimeUnit.MILLISECONDS.toNanos(1);
    /** Longest formatted row: three signed longs, a name, a status, an int and separators fit well within it. */
    private static final int MAX_NUMBERS_BYTES = 3 * 21 + 12 + 4;
    private static final int BUFFER_BYTES = 1 << 16;
    /** How long {@link #finish} waits for the writer to drain and close. */
    private static final long FINISH_TIMEOUT_MS = TimeUnit.SECONDS.toMillis(60);
    /** Rows in all rings together, at most (each ring at least {@link #MIN_RING_ROWS}). */
    private static final int TOTAL_RING_ROWS = 1 << 20;
    private static final int MIN_RING_ROWS = 1 << 10;
    private static final int MAX_RING_ROWS = 1 << 16;

    private final Path path;
    private final boolean gzip;
    private final CountingGzip deflating;
    private final FailureTrackingOutputStream tracked;
    private final OutputStream out;
    private final List<TraceRing> rings = new ArrayList<>();
    private final byte[] buffer = new byte[BUFFER_BYTES];
    private final byte[][] statusNames;
    private final TraceRing.RowHandler formatter = this::format;
    private byte[][] opNames;
    private int length;
    private long t0Ns;
    private long rows;
    private long uncompressedBytes;
    private long writerCpuNs = -1;
    private boolean failed;
    private Thread thread;
    private volatile boolean stopping;
    private TraceSummary summary;

    private TraceWriter(Path path, OutputStream file) throws IOException {
        this.path = path;
        this.gzip = path.getFileName() != null && path.getFileName().toString().endsWith(".gz");
        this.tracked = new FailureTrackingOutputStream(file);
        this.deflating = gzip ? new CountingGzip(tracked) : null;
        this.out = gzip ? deflating : tracked;
        this.statusNames = new byte[Status.count()][];
        for (int s = 0; s < statusNames.length; s++) {
            statusNames[s] = Status.byOrdinal(s).name().getBytes(StandardCharsets.US_ASCII);
        }
    }

    /**
     * Creates (or truncates) {@code path}; nothing is written until {@link #start}. Main thread.
     *
     * @throws IOException when it cannot be created
     */
    public static TraceWriter open(Path path) throws IOException {
        FileOutputStream file = new FileOutputStream(path.toFile());
        try {
            return new TraceWriter(path, file);
        } catch (IOException | RuntimeException e) {
            file.close();
            throw e;
        }
    }

    /** Rows in each worker's ring for a run of {@code threads}: a power of two from 1,024 to 65,536. */
    public static int ringRows(int threads) {
        int share = Integer.highestOneBit(Math.max(1, TOTAL_RING_ROWS / Math.max(1, threads)));
        return Math.max(MIN_RING_ROWS, Math.min(MAX_RING_ROWS, share));
    }

    /** Bytes one worker's ring takes in a run of {@code threads}. */
    public static long bytesPerThread(int threads) {
        return ringRows(threads) * TraceRing.ROW_BYTES;
    }

    /**
     * A new ring for worker {@code worker} of {@code threads}, drained by this writer. Main thread, before
     * {@link #start}.
     *
     * @param multiProducer true when its operations complete on more than one thread (async drivers)
     */
    public TraceRing ring(int worker, int threads, boolean multiProducer) {
        TraceRing ring = new TraceRing(ringRows(threads), multiProducer, worker);
        rings.add(ring);
        return ring;
    }

    /**
     * Writes the header and starts the writer thread. Main thread, once, as the run starts.
     *
     * @param t0Ns the run's start on the workers' clock; the rows' times are relative to it
     * @param ops  the run's operation types, by the index the recorders use
     */
    public void start(long t0Ns, String[] ops) {
        this.t0Ns = t0Ns;
        this.opNames = new byte[ops.length][];
        for (int o = 0; o < ops.length; o++) {
            opNames[o] = csvField(ops[o]).getBytes(StandardCharsets.UTF_8);
        }
        thread = new Thread(this::run, "loadgen-trace");
        thread.setDaemon(true);
        thread.start();
    }

    /** A CSV field: as it is, or quoted when it holds a comma, a quote or a line break (RFC 4180). */
    static String csvField(String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
            return s;
        }
        return '"' + s.replace("\"", "\"\"") + '"';
    }

    private void run() {
        writeHeader();
        while (!stopping) {
            if (drainAll() == 0) {
                LockSupport.parkNanos(this, IDLE_PARK_NS);
            }
        }
        while (drainAll() > 0) {
            // the workers are done: take what is left
        }
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        if (mx.isCurrentThreadCpuTimeSupported()) {
            writerCpuNs = mx.getCurrentThreadCpuTime();
        }
        closeFile();
    }

    private void writeHeader() {
        byte[] header = (HEADER + "\n").getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(header, 0, buffer, 0, header.length);
        length = header.length;
    }

    /** One pass over the rings, a batch from each; the rows it took. */
    private int drainAll() {
        int n = 0;
        for (TraceRing ring : rings) {
            n += ring.drain(formatter, BATCH_ROWS);
        }
        return n;
    }

    private void format(int worker, int type, int status, long intendedStartNs, long actualStartNs, long endNs) {
        byte[] op = opNames[type];
        byte[] st = statusNames[status];
        if (length + MAX_NUMBERS_BYTES + op.length + st.length > buffer.length) {
            flushBuffer();
        }
        byte[] b = buffer;
        int at = writeLong(b, length, intendedStartNs - t0Ns);
        b[at++] = ',';
        at = writeLong(b, at, actualStartNs - t0Ns);
        b[at++] = ',';
        at = writeLong(b, at, endNs - t0Ns);
        b[at++] = ',';
        System.arraycopy(op, 0, b, at, op.length);
        at += op.length;
        b[at++] = ',';
        System.arraycopy(st, 0, b, at, st.length);
        at += st.length;
        b[at++] = ',';
        at = writeLong(b, at, worker);
        b[at++] = '\n';
        length = at;
        rows++;
    }

    /** Writes {@code v} in decimal at {@code at}; returns the index after it. Two digits per division. */
    static int writeLong(byte[] b, int at, long v) {
        if (v < 0) {
            if (v == Long.MIN_VALUE) {
                byte[] min = Long.toString(v).getBytes(StandardCharsets.US_ASCII);
                System.arraycopy(min, 0, b, at, min.length);
                return at + min.length;
            }
            b[at++] = '-';
            v = -v;
        }
        int end = at + digits(v);
        int i = end;
        while (v >= 100) {
            int pair = (int) (v % 100) * 2;
            v /= 100;
            b[--i] = DIGIT_PAIRS[pair + 1];
            b[--i] = DIGIT_PAIRS[pair];
        }
        if (v >= 10) {
            b[--i] = DIGIT_PAIRS[(int) v * 2 + 1];
            b[--i] = DIGIT_PAIRS[(int) v * 2];
        } else {
            b[--i] = (byte) ('0' + v);
        }
        return end;
    }

    /** "00" to "99", two bytes each. */
    private static final byte[] DIGIT_PAIRS = new byte[200];

    static {
        for (int n = 0; n < 100; n++) {
            DIGIT_PAIRS[2 * n] = (byte) ('0' + n / 10);
            DIGIT_PAIRS[2 * n + 1] = (byte) ('0' + n % 10);
        }
    }

    /** Decimal digits of {@code v >= 0}. */
    private static int digits(long v) {
        long limit = 10;
        for (int d = 1; d < 19; d++) {
            if (v < limit) {
                return d;
            }
            limit *= 10;
        }
        return 19;
    }

    private void flushBuffer() {
        if (length == 0) {
            return;
        }
        uncompressedBytes += length;
        if (!failed) {
            try {
                out.write(buffer, 0, length);
            } catch (IOException e) {
                failed = true; // the run goes on; failure() reports it, and the rows after it are not written
            }
        }
        length = 0;
    }

    private void closeFile() {
        flushBuffer();
        try {
            out.close();
        } catch (IOException e) {
            failed = true;
        }
    }

    /**
     * Stops the writer once it has written every row the workers left, closes the file and returns what was
     * written. Main thread, after the workers (and async completions) are done; again, it returns the same.
     */
    public TraceSummary finish() {
        if (summary != null) {
            return summary;
        }
        if (thread == null) {
            writeHeader();
            closeFile();
        } else {
            stopping = true;
            LockSupport.unpark(thread);
            try {
                thread.join(FINISH_TIMEOUT_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        long dropped = 0;
        for (TraceRing ring : rings) {
            dropped += ring.dropped();
        }
        long bytes = gzip ? deflating.compressedBytes() : uncompressedBytes;
        summary = new TraceSummary(path, rows, dropped, uncompressedBytes, bytes, writerCpuNs);
        return summary;
    }

    /** Finishes, if not yet done. */
    @Override
    public void close() {
        finish();
    }

    /**
     * Why the trace is incomplete: the first write that failed (a full disk), or null when every row was written.
     * Main thread, after {@link #finish}.
     */
    public IOException failure() {
        IOException cause = tracked.failure();
        if (cause == null && failed) {
            cause = new IOException("the trace could not be written");
        }
        return cause;
    }

    /** gzip at {@link Deflater#BEST_SPEED}, counting the bytes it writes. */
    private static final class CountingGzip extends GZIPOutputStream {
        /** gzip's fixed 10-byte header and 8-byte trailer around the deflate stream. */
        private static final int FRAMING_BYTES = 18;
        private long compressed = -1;

        CountingGzip(OutputStream out) throws IOException {
            super(out, BUFFER_BYTES);
            def.setLevel(Deflater.BEST_SPEED);
        }

        @Override
        public void finish() throws IOException {
            super.finish();
            compressed = def.getBytesWritten() + FRAMING_BYTES;
        }

        long compressedBytes() {
            return compressed;
        }
    }
}
