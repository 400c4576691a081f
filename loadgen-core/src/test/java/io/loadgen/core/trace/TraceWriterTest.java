package io.loadgen.core.trace;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The trace file: its header, its rows' fields, gzip by name, and what the summary counts. */
class TraceWriterTest {
    @TempDir
    Path dir;

    static String read(Path file) throws IOException {
        try (InputStream in = file.toString().endsWith(".gz")
                ? new GZIPInputStream(Files.newInputStream(file)) : Files.newInputStream(file)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void writesOneRowPerOperationRelativeToTheRunsStart() throws Exception {
        Path file = dir.resolve("t.csv.gz");
        TraceWriter writer = TraceWriter.open(file);
        TraceRing a = writer.ring(0, 2, false);
        TraceRing b = writer.ring(1, 2, true);
        long t0 = 5_000_000_000L;
        writer.start(t0, new String[]{"READ", "odd,name"});
        a.offer(0, 0, t0 + 100, t0 + 150, t0 + 1_150); // READ OK
        b.offer(1, 1, t0 - 20, t0 + 7, t0 + 9); // ERROR, intended before the start
        TraceSummary summary = writer.finish();

        assertEquals(TraceWriter.HEADER + "\n"
                + "100,150,1150,READ,OK,0\n"
                + "-20,7,9,\"odd,name\",ERROR,1\n", read(file));
        assertEquals(2, summary.rows());
        assertEquals(0, summary.droppedRows());
        assertEquals(Files.size(file), summary.bytes());
        assertEquals(read(file).length(), summary.uncompressedBytes());
        assertEquals(summary, writer.finish(), "finishing again changes nothing");
    }

    @Test
    void aNameWithoutGzIsPlainCsv() throws Exception {
        Path file = dir.resolve("t.csv");
        TraceWriter writer = TraceWriter.open(file);
        TraceRing ring = writer.ring(0, 1, false);
        writer.start(0, new String[]{"PING"});
        ring.offer(0, 0, 1, 2, 3);
        TraceSummary summary = writer.finish();
        assertEquals(TraceWriter.HEADER + "\n1,2,3,PING,OK,0\n", Files.readString(file));
        assertEquals(Files.size(file), summary.bytes());
    }

    @Test
    void aTraceNeverStartedHoldsItsHeader() throws Exception {
        Path file = dir.resolve("t.csv.gz");
        TraceWriter writer = TraceWriter.open(file);
        writer.ring(0, 1, false);
        assertEquals(0, writer.finish().rows());
        assertEquals(TraceWriter.HEADER + "\n", read(file));
    }

    @Test
    void numbersAreWrittenInDecimal() {
        byte[] b = new byte[32];
        for (long v : new long[]{0, 7, 10, 99, 100, 101, 1_000_000_007L, 999_999_999_999_999_999L,
                1_000_000_000_000_000_000L, -1, -305, Long.MAX_VALUE, Long.MIN_VALUE}) {
            int end = TraceWriter.writeLong(b, 3, v);
            assertEquals(Long.toString(v), new String(b, 3, end - 3, StandardCharsets.US_ASCII));
        }
    }

    @Test
    void ringsShareAFixedBudget() {
        assertEquals(1 << 16, TraceWriter.ringRows(1));
        assertEquals(1 << 16, TraceWriter.ringRows(16));
        assertEquals(1 << 15, TraceWriter.ringRows(17));
        assertEquals(1 << 10, TraceWriter.ringRows(5000), "never fewer than 1,024 rows");
    }
}
