/**
 * The per-operation trace ({@code --trace FILE}): each worker's {@link io.loadgen.core.trace.TraceRing}, filled on
 * the recording path without allocating, locking or I/O, and the {@link io.loadgen.core.trace.TraceWriter} thread
 * that drains the rings into a (gzip-compressed) CSV file.
 */
package io.loadgen.core.trace;
