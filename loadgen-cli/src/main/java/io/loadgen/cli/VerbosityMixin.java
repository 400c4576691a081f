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

    /** Whether {@code -v} was given. */
    boolean verbose;

    @Option(names = "-v", order = 1, description = "Verbose: debug logging, drivers' INFO lines during a run (such as"
            + " each stop-the-world pause), and a stack trace with any error.")
    void setVerbose(boolean verbose) {
        this.verbose = verbose;
        if (verbose) {
            if (!VERBOSE_MESSAGE.equals(System.getProperty(MESSAGE_PROPERTY))) {
                System.setProperty(MESSAGE_PROPERTY, VERBOSE_MESSAGE);
                Configurator.reconfigure();
            }
            Configurator.setRootLevel(Level.DEBUG);
        }
    }

    /** log4j2.xml's message with {@code -v}: a logged exception's whole trace. */
    static final String VERBOSE_MESSAGE = "%msg%notEmpty{%n%xEx}";

    /**
     * Before anything logs: {@code -v} anywhere on the command line sets the message log4j2.xml reads when logging
     * starts. Reconfiguring logging once it has started (an option parsed before {@code -v} may log) lost every
     * later line of a run on the console, so the launcher's JVM never needs it; in-process callers still get it.
     */
    static void beforeLogging(String[] args) {
        if (java.util.Arrays.asList(args).contains("-v")) {
            System.setProperty(MESSAGE_PROPERTY, VERBOSE_MESSAGE);
        }
    }
}
