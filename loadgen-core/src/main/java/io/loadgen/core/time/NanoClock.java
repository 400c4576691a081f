package io.loadgen.core.time;

/**
 * A source of {@link System#nanoTime()}-style timestamps, injected so tests can use a manual clock.
 * Implementations are safe to call from any thread.
 */
@FunctionalInterface
public interface NanoClock {
    /** The system clock. */
    NanoClock SYSTEM = System::nanoTime;

    long nanoTime();
}
