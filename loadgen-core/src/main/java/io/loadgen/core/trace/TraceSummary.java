package io.loadgen.core.trace;

import java.nio.file.Path;

/**
 * What a {@link TraceWriter} wrote: immutable, made on the main thread once the trace is closed.
 *
 * @param path              the trace file
 * @param rows              rows written, one per operation (the warm-up's included)
 * @param droppedRows       operations not traced because their worker's ring was full: the writer fell behind
 * @param uncompressedBytes the CSV's size before compression
 * @param bytes             the file's size (compressed, for a {@code .gz} name)
 * @param writerCpuNs       the writer thread's CPU time, or -1 where the JVM does not measure it
 */
public record TraceSummary(Path path, long rows, long droppedRows, long uncompressedBytes, long bytes,
                           long writerCpuNs) {

    /** The writer's CPU time per row written, or -1 when unknown or nothing was written. */
    public double writerCpuNsPerRow() {
        return writerCpuNs < 0 || rows == 0 ? -1 : (double) writerCpuNs / rows;
    }

    /** File bytes per row written, or 0 for none. */
    public double bytesPerRow() {
        return rows == 0 ? 0 : (double) bytes / rows;
    }
}
