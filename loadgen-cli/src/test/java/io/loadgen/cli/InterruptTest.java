package io.loadgen.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * Ctrl-C (SIGINT) or SIGTERM during a run, sent to a real child process: the run stops issuing,
 * flushes its interval log, prints the summary of what ran and exits 130 / 143. Nothing measured is lost:
 * the log, the YCSB summary and the JSON all count the same operations.
 */
class InterruptTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} -> exit {1}")
    @CsvSource({"INT, 130", "TERM, 143"})
    void signalStopsTheRunAndKeepsEverythingMeasured(String signal, int expectedExit) throws Exception {
        // A JVM started with SIGINT ignored (a background job of a non-interactive shell) keeps ignoring it, and
        // the child inherits that from this JVM: then Ctrl-C cannot be tested here, only SIGTERM.
        assumeFalse("INT".equals(signal) && sigintIgnored(), "SIGINT is ignored in this environment (inherited)");
        Path hlog = dir.resolve("run.hlog");
        Path json = dir.resolve("run.json");
        ChildProcess child = ChildProcess.java(ChildProcess.testClasspath(), Main.class.getName(),
                "run", "--driver", "mockdb", "-p", "mockdb.delay=1ms", "--target", "500", "--threads", "2",
                "--duration", "60s", "--interval", "200ms", "--hlog", hlog.toString(), "--json", json.toString());
        assertTrue(child.awaitStatusLine(30), "the run started: " + child.err());
        Thread.sleep(300);
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(child.process.pid())).start();
        assertEquals(0, kill.waitFor());
        int exit = child.awaitExit(30);

        assertEquals(expectedExit, exit, "exit code; stderr: " + child.err());
        assertTrue(child.err().contains("loadgen: interrupted"), child.err());
        long summarised = ycsbOperations(child.out(), "READ");
        assertTrue(summarised > 50, "operations in the summary: " + summarised);
        assertEquals(summarised, ycsbOperations(child.out(), "Intended-READ"));
        JsonNode summary = new ObjectMapper().readTree(json.toFile());
        assertEquals(summarised, summary.at("/operations/READ/count").asLong());
        assertEquals("interrupted", summary.get("stop_reason").asText());
        assertEquals(summarised, loggedCount(hlog, "READ.intended"), "every measured operation is in the log");
        assertEquals(summarised, loggedCount(hlog, "READ.service"));
        assertTrue(java.nio.file.Files.readString(hlog).contains("\n#[run end: stop_reason=interrupted length_s="),
                "an interrupted run's log is whole for what ran: it ends with its closing line");
    }

    /**
     * SIGTERM while the driver is still opening: redis against a port that accepts and never answers, its connect
     * deadline raised to 60 s, so only the stop can end it. Nothing was measured; the JVM exits 143 after the 2 s
     * the shutdown hook gives the driver (bound: 5 s from the signal, the issue's).
     */
    @org.junit.jupiter.api.Test
    void sigtermWhileTheDriverIsOpeningEndsTheRunWithinFiveSeconds() throws Exception {
        try (java.net.ServerSocket silent = new java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            java.util.concurrent.CountDownLatch connected = new java.util.concurrent.CountDownLatch(1);
            Thread acceptor = holdEveryConnection(silent, connected);
            ChildProcess child = ChildProcess.java(ChildProcess.testClasspath(), Main.class.getName(),
                    "run", "--driver", "redis", "-p", "redis.uri=redis://127.0.0.1:" + silent.getLocalPort(),
                    "-p", "redis.connect.timeout=60s", "--target", "100", "--duration", "5s");
            // The driver is connecting once the listener accepted (it cannot finish: 60 s); a loaded machine may take
            // seconds to start the JVM, so wait for that rather than for a fixed time.
            assertTrue(connected.await(60, java.util.concurrent.TimeUnit.SECONDS), "the driver connected: " + child.err());
            Thread.sleep(200);
            assertSigtermEndsItWithinFiveSeconds(child);
            assertTrue(child.err().contains("loadgen: interrupted while the driver was opening (connecting, warming up);"
                    + " nothing was measured"), child.err());
            acceptor.interrupt();
        }
    }

    /**
     * SIGTERM during a run whose target froze (a ping-server of its own, SIGSTOPped): the operations in flight
     * are waited for 1 s (an early stop's drain), the driver closes within its own deadline, and the run writes
     * what it measured and exits 143 within 5 s of the signal.
     */
    @org.junit.jupiter.api.Test
    void sigtermDuringARunAgainstAFrozenTargetEndsItWithinFiveSecondsAndWritesWhatRan() throws Exception {
        int port;
        try (java.net.ServerSocket probe = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        ChildProcess server = ChildProcess.java(ChildProcess.testClasspath(), Main.class.getName(),
                "ping-server", "--port", Integer.toString(port));
        try {
            Path json = dir.resolve("frozen.json");
            awaitListening(port);
            ChildProcess child = ChildProcess.java(ChildProcess.testClasspath(), Main.class.getName(),
                    "run", "--driver", "ping", "-p", "ping.port=" + port, "--target", "200", "--duration", "60s",
                    "--interval", "200ms", "--json", json.toString());
            assertTrue(child.awaitStatusLine(30), "the run started: " + child.err());
            Thread.sleep(500);
            assertEquals(0, new ProcessBuilder("kill", "-STOP", Long.toString(server.process.pid())).start().waitFor());
            Thread.sleep(1_000); // the target is frozen: operations are in flight, unanswered
            assertSigtermEndsItWithinFiveSeconds(child);
            JsonNode summary = new ObjectMapper().readTree(json.toFile());
            assertEquals("interrupted", summary.get("stop_reason").asText());
            assertTrue(summary.at("/operations/PING/count").asLong() > 50, summary.toString());
        } finally {
            new ProcessBuilder("kill", "-CONT", Long.toString(server.process.pid())).start().waitFor();
            server.process.destroyForcibly();
        }
    }

    /**
     * The same against Redis: a redis-server of its own on a free loopback port (never the shared 6379), SIGSTOPped
     * mid-run, so its connections stay open and nothing answers (Lettuce's commands wait on replies that never
     * come). SIGTERM still ends the run within 5 s, writing what ran: the drain waits 1 s, Lettuce's and Netty's
     * shutdowns 2 s each at most, and the last two overlap the JVM's exit.
     */
    @org.junit.jupiter.api.Test
    void sigtermDuringARunAgainstAFrozenRedisEndsItWithinFiveSecondsAndWritesWhatRan() throws Exception {
        Path redis = Path.of("/usr/bin/redis-server");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(redis), "redis-server is not installed");
        int port;
        try (java.net.ServerSocket probe = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        Process server = new ProcessBuilder(redis.toString(), "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--dir", dir.toString(), "--loglevel", "warning")
                .redirectErrorStream(true).redirectOutput(dir.resolve("redis.log").toFile()).start();
        try {
            Path json = dir.resolve("frozen-redis.json");
            awaitListening(port);
            ChildProcess child = ChildProcess.java(ChildProcess.testClasspath(), Main.class.getName(),
                    "run", "--driver", "redis", "-p", "redis.uri=redis://127.0.0.1:" + port, "--target", "500",
                    "--duration", "60s", "--interval", "200ms", "--json", json.toString());
            assertTrue(child.awaitStatusLine(30), "the run started: " + child.err());
            Thread.sleep(500);
            assertEquals(0, new ProcessBuilder("kill", "-STOP", Long.toString(server.pid())).start().waitFor());
            Thread.sleep(1_000); // the server is frozen: operations are in flight, unanswered
            assertSigtermEndsItWithinFiveSeconds(child);
            JsonNode summary = new ObjectMapper().readTree(json.toFile());
            assertEquals("interrupted", summary.get("stop_reason").asText());
            long measured = 0;
            for (JsonNode op : summary.get("operations")) {
                measured += op.get("count").asLong();
            }
            assertTrue(measured > 100, "operations measured before the freeze: " + summary);
        } finally {
            new ProcessBuilder("kill", "-CONT", Long.toString(server.pid())).start().waitFor();
            server.destroyForcibly();
        }
    }

    /** Sends SIGTERM to {@code child} and asserts it exits 143 within 5 s of the signal (issue 24's bound). */
    private static void assertSigtermEndsItWithinFiveSeconds(ChildProcess child) throws Exception {
        long signalNs = System.nanoTime();
        assertEquals(0, new ProcessBuilder("kill", "-TERM", Long.toString(child.process.pid())).start().waitFor());
        int exit = child.awaitExit(30);
        long tookMs = (System.nanoTime() - signalNs) / 1_000_000;
        assertEquals(143, exit, "stderr: " + child.err());
        assertTrue(tookMs < 5_000, "ended " + tookMs + " ms after SIGTERM; stderr: " + child.err());
    }

    /**
     * Accepts every connection and holds it, reading and answering nothing, until the socket closes; counts
     * {@code connected} down at each.
     */
    private static Thread holdEveryConnection(java.net.ServerSocket silent, java.util.concurrent.CountDownLatch connected) {
        Thread t = new Thread(() -> {
            java.util.List<java.net.Socket> held = new java.util.ArrayList<>();
            try {
                while (true) {
                    held.add(silent.accept());
                    connected.countDown();
                }
            } catch (java.io.IOException closed) {
                // the test is over
            }
        }, "silent-acceptor");
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** Waits (at most 30 s) until something accepts connections on {@code port} of the loopback address. */
    private static void awaitListening(int port) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (System.nanoTime() < deadline) {
            try (java.net.Socket s = new java.net.Socket(java.net.InetAddress.getLoopbackAddress(), port)) {
                return;
            } catch (java.io.IOException notYet) {
                Thread.sleep(100);
            }
        }
        throw new AssertionError("nothing listens on port " + port);
    }

    /** Whether this process ignores SIGINT, from the SigIgn mask in /proc/self/status (Linux). */
    static boolean sigintIgnored() throws java.io.IOException {
        Path status = Path.of("/proc/self/status");
        if (!Files.exists(status)) {
            return false;
        }
        for (String line : Files.readAllLines(status)) {
            if (line.startsWith("SigIgn:")) {
                long mask = Long.parseUnsignedLong(line.substring("SigIgn:".length()).trim(), 16);
                return (mask & (1L << (2 - 1))) != 0; // SIGINT is signal 2
            }
        }
        return false;
    }

    static long ycsbOperations(String out, String label) {
        Matcher m = Pattern.compile("^\\[" + Pattern.quote(label) + "], Operations, (\\d+)$", Pattern.MULTILINE).matcher(out);
        assertTrue(m.find(), "no [" + label + "], Operations line in:\n" + out);
        return Long.parseLong(m.group(1));
    }

    static long loggedCount(Path hlog, String tag) throws Exception {
        assertTrue(Files.size(hlog) > 0);
        HistogramLogReader reader = new HistogramLogReader(hlog.toFile());
        long n = 0;
        EncodableHistogram h;
        while ((h = reader.nextIntervalHistogram()) != null) {
            if (tag.equals(h.getTag())) {
                n += ((org.HdrHistogram.Histogram) h).getTotalCount();
            }
        }
        return n;
    }
}
