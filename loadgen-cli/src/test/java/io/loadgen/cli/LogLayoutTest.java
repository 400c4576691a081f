package io.loadgen.cli;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.Layout;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.logging.log4j.core.impl.Log4jLogEvent;
import org.apache.logging.log4j.message.SimpleMessage;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletionException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How log4j2.xml writes a logged exception (issue 24 item 6: a library's warnings printed 72-121 stack-frame lines
 * without -v): its message on the line, in parentheses unless the line says it already, and the whole trace
 * only with -v.
 */
class LogLayoutTest {
    private static String format(String message, Throwable thrown) {
        Layout<?> layout = ((LoggerContext) LogManager.getContext(false)).getConfiguration().getAppender("stderr").getLayout();
        Log4jLogEvent event = Log4jLogEvent.newBuilder().setLoggerName("io.lettuce.core.protocol.ConnectionWatchdog")
                .setLevel(Level.WARN).setMessage(new SimpleMessage(message)).setThrown(thrown).build();
        String line = new String(layout.toByteArray(event), java.nio.charset.StandardCharsets.UTF_8);
        return line.substring(line.indexOf(" - ") + 3);
    }

    @Test
    void aLoggedExceptionIsItsMessageUnlessTheLineSaysItAlready() {
        Exception noauth = new CompletionException(new IllegalStateException("NOAUTH Authentication required."));
        assertEquals("Cannot reconnect to [127.0.0.1:1]: " + noauth.getCause() + System.lineSeparator(),
                format("Cannot reconnect to [127.0.0.1:1]: " + noauth.getCause(), noauth));
        assertEquals("interval aggregator failed (boom)" + System.lineSeparator(),
                format("interval aggregator failed", new NullPointerException("boom")));
        assertEquals("plain" + System.lineSeparator(), format("plain", null));
    }

    @Test
    void withVerboseTheWholeTraceIsWritten() {
        try {
            new VerbosityMixin().setVerbose(true);
            String line = format("interval aggregator failed", new NullPointerException("boom"));
            assertTrue(line.startsWith("interval aggregator failed" + System.lineSeparator()
                    + "java.lang.NullPointerException: boom"), line);
            assertTrue(line.contains("\tat io.loadgen.cli.LogLayoutTest"), line);
        } finally {
            System.clearProperty(VerbosityMixin.MESSAGE_PROPERTY);
            Configurator.reconfigure();
            Configurator.setRootLevel(Level.INFO);
        }
        assertEquals("x (boom)" + System.lineSeparator(), format("x", new NullPointerException("boom")));
    }
}
