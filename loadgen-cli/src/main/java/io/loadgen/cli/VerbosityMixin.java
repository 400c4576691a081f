package io.loadgen.cli;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.config.Configurator;
import picocli.CommandLine.Option;

/**
 * The {@code -v} option every command shares: debug logging, drivers' INFO lines during a run (each stop-the-world
 * pause; without {@code -v} a run shows only warnings and errors, see {@link QuietLogging}), and stack traces for
 * failures.
 */
final class VerbosityMixin {
    @Option(names = "-v", order = 1, description = "Verbose: debug logging, drivers' INFO lines during a run (such as"
            + " each stop-the-world pause), and a stack trace with any error.")
    void setVerbose(boolean verbose) {
        if (verbose) {
            Configurator.setRootLevel(Level.DEBUG);
        }
    }
}
