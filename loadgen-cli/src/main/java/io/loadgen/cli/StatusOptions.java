package io.loadgen.cli;

import io.loadgen.core.run.RunOptions;
import io.loadgen.core.run.StatusFormat;
import picocli.CommandLine.Option;

import java.util.Map;

/**
 * {@code --status}, shared by every command that prints the status line ({@code run}, {@code load}, {@code sweep},
 * {@code demo}): the default line for people, or YCSB's (also YCSB's own {@code -s}), and the width the default
 * line keeps to, the terminal's ({@code COLUMNS}). Main thread.
 */
final class StatusOptions {
    /** The terminal's width, as shells export it. */
    static final String COLUMNS_ENV = "COLUMNS";

    @Option(names = "--status", paramLabel = "human|ycsb", order = 161,
            description = "The status line every interval: human, one line with units (e.g. '12s  9,987/s of 10,000/s"
                    + "  READ p99 intended 255 ms | service 19.9 ms  errors 0'), the worst operation type first, as"
                    + " wide as the terminal (COLUMNS, else 120); or ycsb, YCSB's line (values in us; also -s)."
                    + " Default: human.")
    StatusFormat format;

    /** {@code --status} when given; else YCSB's line when YCSB's {@code -s} was given; else the default. */
    StatusFormat format(boolean ycsbStatusFlag) {
        return format != null ? format : ycsbStatusFlag ? StatusFormat.YCSB : StatusFormat.HUMAN;
    }

    /** Sets the status line's format and width on {@code b}. */
    RunOptions.Builder applyTo(RunOptions.Builder b, boolean ycsbStatusFlag, Map<String, String> env) {
        return b.status(format(ycsbStatusFlag)).statusWidth(width(env));
    }

    /** The terminal's width from {@code COLUMNS} when it holds a positive number, else 120. */
    static int width(Map<String, String> env) {
        String columns = env.get(COLUMNS_ENV);
        if (columns != null) {
            try {
                int n = Integer.parseInt(columns.trim());
                if (n > 0) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // not a width: the default
            }
        }
        return RunOptions.DEFAULT_STATUS_WIDTH;
    }
}
