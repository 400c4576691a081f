package io.loadgen.cli;

import picocli.CommandLine.Option;

import java.io.OutputStream;
import java.io.PrintStream;

/**
 * {@code -q}/{@code --quiet} for the commands that do not run load ({@code report}, {@code gate}, {@code plot},
 * {@code compare}, {@code drivers}, {@code ping-server}, {@code http-server}); the commands that run load have
 * their own, which hides the status line ({@link ReportOptions}, {@code sweep}, {@code findmax}, {@code calibrate}).
 * Same meaning everywhere: no progress or status lines; results, warnings and errors still print. Main thread.
 */
final class QuietMixin {
    private static final PrintStream NOWHERE = new PrintStream(OutputStream.nullOutputStream());

    @Option(names = {"--quiet", "-q"}, order = 2,
            description = "Quiet: no progress or status lines (which files were written, which shards merged, a"
                    + " server's address); results, warnings and errors still print.")
    boolean quiet;

    /** Where progress and status lines go: stderr, or nowhere with {@code -q}. */
    PrintStream status(Streams io) {
        return quiet ? NOWHERE : io.err();
    }
}
