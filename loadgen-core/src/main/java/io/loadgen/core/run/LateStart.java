package io.loadgen.core.run;

/**
 * What a run given a start instant ({@link RunOptions#startAtMs()}) does when it is ready only after that
 * instant, e.g. a shard whose pod was scheduled late.
 */
public enum LateStart {
    /**
     * Say by how much on stderr and start the schedule at the instant anyway: the operations due since then are
     * issued late, and their waits count in intended, as any backlog's do. The shards stay aligned.
     */
    CATCH_UP,
    /** Refuse to run (bad input, exit 2), saying how late it is. */
    REFUSE;

    /** {@code catch-up} or {@code refuse}, as {@code --late-start} takes it. */
    @Override
    public String toString() {
        return name().toLowerCase().replace('_', '-');
    }
}
