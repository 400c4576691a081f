package io.loadgen.cli;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.config.Configurator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code -q} drops INFO log lines for the run, keeps WARN and ERROR, and gives the level back. */
class QuietLoggingTest {
    private static final Logger DRIVER_LOG = LogManager.getLogger("io.loadgen.drivers.stwmockdb.StwMockDbDriver");

    @AfterEach
    void restore() {
        Configurator.setRootLevel(Level.INFO);
    }

    @Test
    void quietDropsInfoButNotWarningsForTheRunOnly() {
        Configurator.setRootLevel(Level.INFO);
        try (QuietLogging q = QuietLogging.during(true)) {
            assertFalse(DRIVER_LOG.isInfoEnabled(), "a driver's INFO line (a stop-the-world pause) is dropped");
            assertTrue(DRIVER_LOG.isWarnEnabled(), "warnings still show");
            assertTrue(DRIVER_LOG.isErrorEnabled());
        }
        assertTrue(DRIVER_LOG.isInfoEnabled(), "the next command in this JVM logs as before");
    }

    @Test
    void withoutQuietNothingChangesAndVerboseWins() {
        try (QuietLogging q = QuietLogging.during(false)) {
            assertTrue(DRIVER_LOG.isInfoEnabled());
        }
        Configurator.setRootLevel(Level.DEBUG); // -v
        try (QuietLogging q = QuietLogging.during(true)) {
            assertTrue(DRIVER_LOG.isDebugEnabled(), "-v -q: debug logging, as -v asks");
        }
        assertEquals(Level.DEBUG, LogManager.getRootLogger().getLevel());
    }

    @Test
    void aQuietRunOnTheCommandLineLeavesTheLevelAsItWas() {
        Configurator.setRootLevel(Level.INFO);
        Cli cli = Cli.run("run", "--driver", "noop", "--target", "1000", "--duration", "300ms", "-q");
        assertEquals(0, cli.exitCode, cli.err);
        assertFalse(cli.err.contains(" sec: "), "no status lines: " + cli.err);
        assertFalse(cli.err.lines().anyMatch(ChildProcess::isStatusLine), "none of either format: " + cli.err);
        assertEquals(Level.INFO, LogManager.getRootLogger().getLevel());
    }
}
