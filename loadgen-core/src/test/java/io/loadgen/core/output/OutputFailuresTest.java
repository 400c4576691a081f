package io.loadgen.core.output;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OutputFailuresTest {
    /** A disk that takes {@code room} bytes and then fails every write, as a full file system does. */
    static OutputStream fullAfter(int room) {
        return new OutputStream() {
            private int written;

            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                if (written + len > room) {
                    throw new IOException("No space left on device");
                }
                written += len;
            }
        };
    }

    @Test
    void everyOutputIsTriedAndEachFailureIsOneLineNamingOptionFileAndCause() {
        OutputFailures failures = new OutputFailures();
        assertFalse(failures.attempt("--json", Path.of("out.json"), () -> {
            throw new IOException("No space left on device");
        }));
        assertTrue(failures.attempt("--csv", Path.of("out.csv"), () -> { }));
        assertFalse(failures.attempt("--hgrm", Path.of("h"), () -> {
            throw new UncheckedIOException(new IOException("Read-only file system"));
        }));
        assertEquals(List.of(
                "cannot write --json out.json: No space left on device; free space or choose another path, and run again",
                "cannot write --hgrm h: Read-only file system; free space or choose another path, and run again"),
                failures.lines());
    }

    @Test
    void aPipeWhoseReaderStoppedEarlyIsNotAdvisedToFreeSpace() {
        String line = OutputFailures.line("standard output", new IOException("Broken pipe"));
        assertEquals("cannot write standard output: Broken pipe (the program reading it stopped before the end, as"
                + " '| head' does); let it read everything, or write to a file and read that, and run again", line);
        assertFalse(line.contains("free space"));
    }

    @Test
    void theTrackingStreamKeepsTheFirstFailureThatAPrintStreamSwallows() {
        FailureTrackingOutputStream tracked = new FailureTrackingOutputStream(fullAfter(10));
        PrintStream out = new PrintStream(tracked, false);
        out.print("12345");
        out.flush();
        assertNull(tracked.failure());
        out.print("6789012345");
        out.flush();
        assertTrue(out.checkError());
        IOException first = tracked.failure();
        assertEquals("No space left on device", first.getMessage());
        out.print("more");
        out.flush();
        assertSame(first, tracked.failure());
    }

    @Test
    void aStreamThatNeverFailsHasNoFailure() {
        FailureTrackingOutputStream tracked = new FailureTrackingOutputStream(new ByteArrayOutputStream());
        new PrintStream(tracked, true).println("fine");
        assertNull(tracked.failure());
    }
}
