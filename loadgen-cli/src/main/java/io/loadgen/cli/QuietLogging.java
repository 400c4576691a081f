package io.loadgen.cli;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.config.Configurator;

/**
 * What a run does to logging: for as long as it lasts, only WARN and ERROR log lines reach stderr, so a
 * driver's INFO lines (such as each stop-the-world pause) do not interleave with the status line; what
 * they tell is on the status line already (the driver's counters that rose, e.g. {@code 1 stop the world
 * pauses}) and in the summary. The level is put back afterwards, since commands can run one after another
 * in one JVM. {@code -v} shows them: a root level below INFO (debug) is left alone. Main thread.
 * <pre><code>
 * try (QuietLogging q = QuietLogging.forRun()) {
 *     ... run ...
 * }
 * </code></pre>
 */
final class QuietLogging implements AutoCloseable {
    private final Level before;

    private QuietLogging(Level before) {
        this.before = before;
    }

    /** For a run: INFO lines only with {@code -v}, as {@link #during during(true)}. */
    static QuietLogging forRun() {
        return during(true);
    }

    /** Raises the root level to WARN when {@code quiet} and it is INFO or quieter already; else changes nothing. */
    static QuietLogging during(boolean quiet) {
        Level level = LogManager.getRootLogger().getLevel();
        if (!quiet || level.isLessSpecificThan(Level.DEBUG)) { // DEBUG or TRACE: -v asked for more
            return new QuietLogging(null);
        }
        if (level.isMoreSpecificThan(Level.WARN)) {
            return new QuietLogging(null); // already WARN, ERROR or OFF
        }
        Configurator.setRootLevel(Level.WARN);
        return new QuietLogging(level);
    }

    @Override
    public void close() {
        if (before != null) {
            Configurator.setRootLevel(before);
        }
    }
}
