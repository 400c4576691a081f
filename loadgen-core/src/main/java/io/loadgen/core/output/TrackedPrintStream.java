package io.loadgen.core.output;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.Charset;

/**
 * A {@link PrintStream} that keeps the cause of its first failed write: a plain one swallows "No space left on
 * device" into {@link #checkError()}'s flag, which is how a summary printed to a full disk used to exit 0. The
 * process's standard output is one ({@link #stdout()}), checked once the command is done
 * ({@link #failure(PrintStream)}). Thread-safe as a PrintStream is.
 */
public final class TrackedPrintStream extends PrintStream {
    private final FailureTrackingOutputStream tracked;

    private TrackedPrintStream(FailureTrackingOutputStream tracked, Charset charset) {
        super(new BufferedOutputStream(tracked, 8192), true, charset);
        this.tracked = tracked;
    }

    /** Wraps {@code out}; lines are flushed as printed. */
    public static TrackedPrintStream of(OutputStream out, Charset charset) {
        return new TrackedPrintStream(new FailureTrackingOutputStream(out), charset);
    }

    /** The process's standard output, in the encoding {@code System.out} uses. */
    public static TrackedPrintStream stdout() {
        String encoding = System.getProperty("sun.stdout.encoding");
        Charset charset = Charset.defaultCharset();
        if (encoding != null && Charset.isSupported(encoding)) {
            charset = Charset.forName(encoding);
        }
        return of(new FileOutputStream(FileDescriptor.out), charset);
    }

    /**
     * Flushes {@code out} and returns why a write to it failed, or null when every write succeeded. For a plain
     * PrintStream, whose cause is lost, the reason is a generic one.
     */
    public static IOException failure(PrintStream out) {
        if (!out.checkError()) {
            return null;
        }
        if (out instanceof TrackedPrintStream t && t.tracked.failure() != null) {
            return t.tracked.failure();
        }
        return new IOException("the write failed");
    }
}
