package io.loadgen.cli;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import java.io.DataInputStream;
import java.net.Socket;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code loadgen ping-server}: bad input in this JVM; a real server in a child JVM, stopped by SIGTERM. */
class PingServerCommandTest {

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', value = {
            "--port     | 70000 | --port must be between 0 and 65535 (got 70000)",
            "--port     | -1    | --port must be between 0 and 65535 (got -1)",
            "--protocol | sctp  | --protocol: unknown protocol 'sctp'; choose tcp or udp",
            "--delay    | 5     | '5' is not a duration; write a number with a unit"})
    void badInputIsOneLineWithExitCodeTwo(String option, String value, String expected) {
        Cli cli = Cli.run("ping-server", option, value);
        assertEquals(2, cli.exitCode, cli.err);
        String[] lines = cli.err.strip().split("\n");
        assertEquals(1, lines.length, "one line on stderr, got: " + cli.err);
        assertTrue(lines[0].startsWith("loadgen: ") && lines[0].contains(expected), lines[0]);
        assertFalse(cli.err.contains("\tat "), "no stack trace without -v");
    }

    @Test
    void serverLogsItsPortEchoesAfterTheDelayAndStopsOnSigterm() throws Exception {
        ChildProcess child = ChildProcess.java(ChildProcess.testClasspath(), Main.class.getName(),
                "ping-server", "--port", "0", "--delay", "20ms");
        try {
            assertTrue(child.awaitErr("ping-server listening on tcp 127.0.0.1:", 30), child.err());
            Matcher m = Pattern.compile("listening on tcp 127\\.0\\.0\\.1:(\\d+), reply delay 20ms ").matcher(child.err());
            assertTrue(m.find(), child.err());
            int port = Integer.parseInt(m.group(1));
            try (Socket socket = new Socket("127.0.0.1", port)) {
                socket.setSoTimeout(5_000);
                byte[] sent = "sixteen bytes!!!".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
                long startNs = System.nanoTime();
                socket.getOutputStream().write(sent);
                byte[] back = new byte[sent.length];
                new DataInputStream(socket.getInputStream()).readFully(back);
                assertArrayEquals(sent, back);
                assertTrue(System.nanoTime() - startNs >= 20_000_000L, "held for the 20 ms delay");
            }
            Process kill = new ProcessBuilder("kill", "-TERM", Long.toString(child.process.pid())).start();
            assertEquals(0, kill.waitFor());
            assertEquals(143, child.awaitExit(30), child.err());
            assertTrue(child.err().contains("ping-server on tcp port " + port + " stopped"), child.err());
        } finally {
            child.process.destroyForcibly();
        }
    }
}
