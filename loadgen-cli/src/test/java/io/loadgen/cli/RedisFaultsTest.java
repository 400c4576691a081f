package io.loadgen.cli;

import io.loadgen.drivers.redis.RedisServerProcess;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A Redis server whose password changes mid-run (issue 24 item 6): {@code CONFIG SET requirepass} and
 * {@code CLIENT KILL}, so every reconnect is refused with NOAUTH. That printed 72-121 stack-frame lines from
 * Lettuce's reconnect warnings without -v. Now each warning is one line, the run fails by --max-error-rate
 * (exit 1), and its headline names why the connection does not come back. A real redis-server on a free
 * loopback port, and loadgen as a child process.
 */
class RedisFaultsTest {
    @Test
    void aPasswordSetMidRunIsOneLinePerWarningAndNamedInTheHeadline() throws Exception {
        try (RedisServerProcess server = RedisServerProcess.start()) {
            ChildProcess child = ChildProcess.java(ChildProcess.testClasspath(), Main.class.getName(),
                    "run", "--driver", "redis", "-p", "redis.uri=" + server.uri(), "--operation", "INSERT",
                    "--target", "200", "--duration", "6s", "--interval", "500ms");
            assertTrue(child.awaitStatusLine(60), "the run started: " + child.err());
            Thread.sleep(500);
            send(URI.create(server.uri()).getPort(), "CONFIG SET requirepass s3cret-mid-run\r\nCLIENT KILL TYPE normal\r\n");
            int exit = child.awaitExit(60);

            assertEquals(1, exit, "most operations failed after the change: --max-error-rate; stderr: " + child.err());
            assertFalse(child.err().contains("\tat "), "no stack frames without -v: " + child.err());
            assertFalse(child.err().contains("Caused by"), child.err());
            assertTrue(child.out().contains("(reconnecting fails: NOAUTH Authentication required."), child.out());
            String said = "redis: reconnecting to " + server.uri() + " fails: NOAUTH Authentication required."
                    + " (did the server's password change?)";
            assertEquals(1, child.err().lines().filter(l -> l.endsWith(said)).count(),
                    "each distinct reconnect failure is said once, not every attempt: " + child.err());
            assertFalse(child.err().contains("ConnectionWatchdog"), "Lettuce's warning per attempt is quiet: " + child.err());
            assertFalse(child.out().contains("s3cret") || child.err().contains("s3cret"), "the password is not echoed");
        }
    }

    /**
     * A {@code load} whose inserts the server refuses (maxmemory with noeviction: OOM) fails like a run does: exit 1
     * by --max-error-rate, its headline naming the server's error. It exited 0 (issue 24 item 6).
     */
    @Test
    void aLoadWhoseInsertsTheServerRefusesExitsOne() throws Exception {
        try (RedisServerProcess server = RedisServerProcess.start()) {
            int port = URI.create(server.uri()).getPort();
            try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
                socket.setSoTimeout(5_000);
                socket.getOutputStream().write("CONFIG SET maxmemory 2mb\r\nCONFIG SET maxmemory-policy noeviction\r\n"
                        .getBytes(StandardCharsets.US_ASCII));
                assertEquals("+OK", readLine(socket.getInputStream()));
                assertEquals("+OK", readLine(socket.getInputStream()));
            }
            Cli load = Cli.run("load", "--driver", "redis", "-p", "redis.uri=" + server.uri(), "-p", "recordcount=5000", "-q");
            assertEquals(1, load.exitCode, load.err);
            assertTrue(load.out.contains("OOM command not allowed when used memory > 'maxmemory'"), load.out);
            assertTrue(load.out.contains("above --max-error-rate 10%"), load.out);
        }
    }

    /** Sends raw RESP inline commands and reads their replies (one line each), on a connection of its own. */
    private static void send(int port, String commands) throws Exception {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(5_000);
            OutputStream out = socket.getOutputStream();
            out.write(commands.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            String first = readLine(in);
            assertEquals("+OK", first, "CONFIG SET requirepass");
            assertTrue(readLine(in).startsWith(":"), "CLIENT KILL answers how many it killed");
        }
    }

    private static String readLine(InputStream in) throws Exception {
        StringBuilder line = new StringBuilder();
        int c;
        while ((c = in.read()) >= 0 && c != '\n') {
            if (c != '\r') {
                line.append((char) c);
            }
        }
        return line.toString();
    }
}
