package io.loadgen.cli;

import java.io.PrintStream;
import java.util.Map;

/**
 * Where a command writes: results on {@code out} (stdout), progress and messages on {@code err}
 * (stderr), so results can be piped while progress stays on the terminal; and the environment it reads
 * ({@code JOB_COMPLETION_INDEX}, {@code LOADGEN_SHARDS}), given rather than read from the process so tests
 * can set it. Immutable.
 */
record Streams(PrintStream out, PrintStream err, Map<String, String> env) {
    /** The process's own environment. */
    Streams(PrintStream out, PrintStream err) {
        this(out, err, System.getenv());
    }

    Streams {
        env = Map.copyOf(env);
    }
}
