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
    /** What log4j2.xml writes for a log line's message: with a logged exception's message (default) or its trace. */
    static final String MESSAGE_PROPERTY = "loadgen.log.message";

    @Option(names = "-v", order = 1, description = "Verbose: debug logging, drivers' INFO lines during a run (such as"
            + " each stop-the-world pause), and a stack trace with any error.")
    void setVerbose(boolean verbose) {
        if (verbose) {
            System.setProperty(MESSAGE_PROPERTY, "%msg%notEmpty{%n%xEx}"); // log4j2.xml: a logged exception's whole trace
            Configurator.reconfigure();
            Configurator.setRootLevel(Level.DEBUG);
        }
    }
}
