package io.loadgen.core;

/**
 * Tells every thread of a run to stop: set once by whoever ends the run (the duration elapsing, a
 * signal handler, an error), read by workers on every loop. Any thread may call either method.
 */
public final class StopSignal {
    private volatile boolean stopped;
    private volatile String reason = "";

    public boolean isStopped() {
        return stopped;
    }

    /** Requests a stop; the first reason given is kept. */
    public void stop(String why) {
        if (!stopped) {
            synchronized (this) {
                if (!stopped) {
                    reason = why;
                    stopped = true;
                }
            }
        }
    }

    /** Why the run was stopped, or an empty string. */
    public String reason() {
        return reason;
    }
}
