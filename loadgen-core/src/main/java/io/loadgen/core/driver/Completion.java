package io.loadgen.core.driver;

/**
 * Reports the end of an operation an {@link AsyncDriver} submitted. The harness owns it and reuses it:
 * call {@link #complete(Status)} exactly once per submit, from any thread (typically a network I/O
 * thread); it records the latency from the operation's intended start and frees the in-flight slot.
 * It neither allocates nor blocks, so it is safe to call on an event loop.
 */
@FunctionalInterface
public interface Completion {

    /** The operation is done with this outcome. Call once; the object must not be used afterwards. */
    void complete(Status status);
}
