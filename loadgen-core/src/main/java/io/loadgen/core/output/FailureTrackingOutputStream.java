package io.loadgen.core.output;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Passes bytes through and remembers the first write, flush or close that failed, with its cause
 * ("No space left on device"). A {@code PrintStream}, which HdrHistogram's log writer needs, swallows
 * such failures into a flag; under it, this keeps the reason for the one line that reports it.
 */
public final class FailureTrackingOutputStream extends FilterOutputStream {
    private volatile IOException failure;

    public FailureTrackingOutputStream(OutputStream out) {
        super(out);
    }

    @Override
    public void write(int b) throws IOException {
        try {
            out.write(b);
        } catch (IOException e) {
            throw remember(e);
        }
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        try {
            out.write(b, off, len);
        } catch (IOException e) {
            throw remember(e);
        }
    }

    @Override
    public void flush() throws IOException {
        try {
            out.flush();
        } catch (IOException e) {
            throw remember(e);
        }
    }

    @Override
    public void close() throws IOException {
        try {
            out.close();
        } catch (IOException e) {
            throw remember(e);
        }
    }

    /** The first failure, or null while every write succeeded. */
    public IOException failure() {
        return failure;
    }

    private IOException remember(IOException e) {
        if (failure == null) {
            failure = e;
        }
        return e;
    }
}
