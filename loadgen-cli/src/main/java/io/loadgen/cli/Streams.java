package io.loadgen.cli;

import java.io.PrintStream;

/**
 * Where a command writes: results on {@code out} (stdout), progress and messages on {@code err}
 * (stderr), so results can be piped while progress stays on the terminal. Immutable.
 */
record Streams(PrintStream out, PrintStream err) {
}
