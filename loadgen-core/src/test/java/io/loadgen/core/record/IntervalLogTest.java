package io.loadgen.core.record;

import io.loadgen.core.BadInputException;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IntervalLogTest {
    @TempDir
    Path dir;

    private static Histogram interval(long startMs) {
        Histogram h = Histograms.newHistogram();
        h.recordValueWithCount(1_000_000, 100);
        h.setTag("READ.intended");
        h.setStartTimeStamp(startMs);
        h.setEndTimeStamp(startMs + 1000);
        return h;
    }

    /** A disk with room for the header and one interval, then full: the failure is kept, not swallowed. */
    @Test
    void aFailedWriteIsReportedWithItsCauseAndNothingMoreIsWritten() {
        int[] writes = new int[1];
        OutputStream disk = new OutputStream() {
            private long written;

            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                writes[0]++;
                if (written + len > 1000) {
                    throw new IOException("No space left on device");
                }
                written += len;
            }
        };
        IntervalLog log = IntervalLog.to(disk);
        log.writeHeader(1_000_000L, List.of("test"));
        log.write(interval(1_000_000L));
        assertTrue(log.flush());
        assertNull(log.failure());
        for (int i = 1; i <= 20; i++) {
            log.write(interval(1_000_000L + i * 1000L));
        }
        assertFalse(log.flush());
        assertEquals("No space left on device", log.failure().getMessage());
        int writesAtFailure = writes[0];
        log.write(interval(1_100_000L));
        assertFalse(log.flush());
        log.close();
        assertEquals(writesAtFailure, writes[0], "nothing is written after the first failure");
    }

    @Test
    void aLogBeingWrittenCannotBeOpenedAgainAndIsFreeOnceClosed() throws IOException {
        Path file = dir.resolve("run.hlog");
        try (IntervalLog first = IntervalLog.open(file)) {
            first.writeHeader(1_000_000L, List.of("first"));
            BadInputException e = assertThrows(BadInputException.class, () -> IntervalLog.open(file));
            assertTrue(e.getMessage().startsWith("--hlog " + file + " is already being written"), e.getMessage());
        }
        assertTrue(Files.readString(file).contains("#[first]"), "the refused second open did not truncate the log");
        try (IntervalLog second = IntervalLog.open(file)) {
            second.writeHeader(2_000_000L, List.of("second"));
        }
        String text = Files.readString(file);
        assertTrue(text.contains("#[second]") && !text.contains("#[first]"), "reopening truncates: " + text);
    }
}
