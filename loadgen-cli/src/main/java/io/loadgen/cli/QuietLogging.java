package io.loadgen.cli;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.config.Configurator;

/**
 * What {@code -q} does to logging: for as long as a run lasts, only WARN and ERROR log lines reach
 * stderr (a driver's INFO lines, such as each stop-the-world pause, are dropped with the status lines),
 * and the level is put back afterwards, since commands can run one after another in one JVM. {@code -v}
 * wins over {@code -q}: a root level below INFO (debug) is left alone. Main thread.
 * <pre><code>
 * try (QuietLogging q = QuietLogging.during(report.quiet)) {
 *     ... run ...
 * }
 * </code></pre>
 */
final class QuietLogging implements AutoCloseable {
    private final Level before;

    private QuietLogging(Level before) {
        this.before = before;
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
