package io.loadgen.drivers.ping;

import io.loadgen.core.BadInputException;
import org.junit.jupiter.api.Test;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.ConnectException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The echo server, talked to with plain JDK sockets so a bug in the driver cannot hide one here. */
class PingServerTest {
    private static final long MS = 1_000_000L;

    private static PingServer start(PingProtocol protocol, Duration delay) {
        return PingServer.start(protocol, new InetSocketAddress("127.0.0.1", 0), delay);
    }

    private static byte[] pattern(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 31 + 7);
        }
        return b;
    }

    @Test
    void tcpEchoesTheBytesAfterTheDelay() throws Exception {
        try (PingServer server = start(PingProtocol.TCP, Duration.ofMillis(30));
             Socket socket = new Socket("127.0.0.1", server.port())) {
            assertTrue(server.port() > 0, "the ephemeral port it bound");
            socket.setSoTimeout(5_000);
            byte[] sent = pattern(1000);
            long startNs = System.nanoTime();
            socket.getOutputStream().write(sent);
            byte[] back = new byte[sent.length];
            new DataInputStream(socket.getInputStream()).readFully(back);
            long tookNs = System.nanoTime() - startNs;
            assertArrayEquals(sent, back);
            assertTrue(tookNs >= 30 * MS, "held for the delay: " + tookNs / 1e6 + " ms");
            assertEquals(1000, server.receivedBytes());
        }
    }

    @Test
    void udpSendsEachDatagramBackToItsSender() throws Exception {
        try (PingServer server = start(PingProtocol.UDP, Duration.ofMillis(30));
             DatagramSocket socket = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            socket.setSoTimeout(5_000);
            byte[] sent = pattern(3000);
            long startNs = System.nanoTime();
            socket.send(new DatagramPacket(sent, sent.length, InetAddress.getLoopbackAddress(), server.port()));
            DatagramPacket reply = new DatagramPacket(new byte[PingServer.MAX_DATAGRAM_BYTES], PingServer.MAX_DATAGRAM_BYTES);
            socket.receive(reply);
            long tookNs = System.nanoTime() - startNs;
            assertArrayEquals(sent, Arrays.copyOf(reply.getData(), reply.getLength()), "whole, beyond Netty's 2 KiB default");
            assertTrue(tookNs >= 30 * MS, "held for the delay: " + tookNs / 1e6 + " ms");
        }
    }

    @Test
    void portInUseIsBadInputNamingTheAddress() {
        try (PingServer first = start(PingProtocol.TCP, Duration.ZERO)) {
            BadInputException e = assertThrows(BadInputException.class, () ->
                    PingServer.start(PingProtocol.TCP, new InetSocketAddress("127.0.0.1", first.port()), Duration.ZERO));
            assertTrue(e.getMessage().contains("127.0.0.1:" + first.port()), e.getMessage());
            assertTrue(e.getMessage().contains("--port"), e.getMessage());
        }
    }

    @Test
    void closeStopsListeningAndCanBeRepeated() {
        PingServer server = start(PingProtocol.TCP, Duration.ZERO);
        int port = server.port();
        server.close();
        server.close();
        assertThrows(ConnectException.class, () -> {
            try (Socket s = new Socket("127.0.0.1", port)) {
                throw new AssertionError("still listening on " + port);
            } catch (IOException e) {
                throw e;
            }
        });
    }

    /** Writes {@code total} bytes to {@code socket} on a daemon thread, never reading; returns how many it wrote. */
    private static java.util.concurrent.atomic.AtomicLong sendWithoutReading(Socket socket, long total) {
        java.util.concurrent.atomic.AtomicLong written = new java.util.concurrent.atomic.AtomicLong();
        Thread t = new Thread(() -> {
            byte[] chunk = new byte[64 << 10];
            try {
                while (written.get() < total) {
                    socket.getOutputStream().write(chunk);
                    written.addAndGet(chunk.length);
                }
            } catch (IOException e) {
                // the socket was closed: the test is over, or the server closed it
            }
        }, "non-reading-client");
        t.setDaemon(true);
        t.start();
        return written;
    }

    /** Polls {@code condition} until it holds; fails after 30 s (a bound on a hang, not a timing assertion). */
    private static void await(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
        long deadlineNs = System.nanoTime() + 30_000 * MS;
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() - deadlineNs < 0, "timed out waiting until " + what);
            Thread.sleep(10);
        }
    }

    @Test
    void aClientThatNeverReadsIsPausedWithinTheCapAndDoesNotStallAnother() throws Exception {
        io.loadgen.drivers.support.ReadBackpressure limits = PingServer.backpressure();
        long total = 256L << 20; // far more than the kernel's buffers both ways
        try (PingServer server = start(PingProtocol.TCP, Duration.ZERO);
             Socket hog = new Socket("127.0.0.1", server.port());
             Socket polite = new Socket("127.0.0.1", server.port())) {
            java.util.concurrent.atomic.AtomicLong written = sendWithoutReading(hog, total);
            // Once its replies fill the kernel's buffers, the server's outbound queue passes the pause mark
            // and the server stops reading that connection.
            await(() -> server.maxPendingBytes() > limits.pauseAbove(), "the hog's replies back up");
            polite.setSoTimeout(10_000);
            byte[] ping = pattern(64);
            byte[] back = new byte[64];
            DataInputStream in = new DataInputStream(polite.getInputStream());
            for (int i = 0; i < 200; i++) {
                polite.getOutputStream().write(ping);
                in.readFully(back);
                assertArrayEquals(ping, back, "round trip " + i);
            }
            // Paused: the hog is blocked in its send, the server holds at most the pause mark plus one read
            // loop (16 reads of at most 64 KiB), within the cap, and kept the connection.
                        assertTrue(written.get() < total, "the hog's send blocked: " + written.get());
            long bound = limits.pauseAbove() + 16L * (64 << 10);
            assertTrue(bound <= limits.closeAbove(), "the bound is within the cap");
            assertTrue(server.maxPendingBytes() <= bound,
                    "pending " + server.maxPendingBytes() + " bytes, at most " + bound);
            assertTrue(server.receivedBytes() - 64 * 200 <= written.get(), "the server read only what was sent");
        }
    }

    /**
     * A client that sends and goes away (a reset: a plain close is a half-close, whose echo the server still
     * owes) leaves nothing held: its reads are released, not kept until due.
     */
    @Test
    void aResetConnectionHoldsNothing() throws Exception {
        try (PingServer server = start(PingProtocol.TCP, Duration.ofSeconds(60))) {
            try (Socket s = new Socket("127.0.0.1", server.port())) {
                s.setSoLinger(true, 0); // close() resets
                s.getOutputStream().write(pattern(4096));
                await(() -> server.receivedBytes() == 4096, "the bytes read and held for their minute");
                assertTrue(server.heldReads() > 0);
            }
            await(() -> server.heldReads() == 0, "the closed connection's reads released");
        }
    }

    @Test
    void aConnectionAboveTheCapIsClosed() throws Exception {
        // A cap of 16 KiB, below one read: the first large read of a client that never reads is over it.
        io.loadgen.drivers.support.ReadBackpressure limits = PingServer.backpressure(4 << 10, 8 << 10, 16 << 10);
        try (PingServer server = PingServer.start(PingProtocol.TCP, new InetSocketAddress("127.0.0.1", 0),
                Duration.ofSeconds(5), limits);
             Socket hog = new Socket("127.0.0.1", server.port())) {
            hog.setSoTimeout(10_000);
            sendWithoutReading(hog, 64L << 20);
            int read;
            try {
                read = hog.getInputStream().read();
            } catch (java.net.SocketException e) {
                read = -1; // reset: closed too
            }
            assertEquals(-1, read, "the server closed the connection rather than hold its bytes");
            assertTrue(server.maxPendingBytes() > limits.closeAbove());
        }
    }

    @Test
    void aHalfCloseGetsEverythingEchoedBeforeTheServerCloses() throws Exception {
        try (PingServer server = start(PingProtocol.TCP, Duration.ofMillis(20));
             Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(10_000);
            byte[] sent = pattern(100_000);
            socket.getOutputStream().write(sent);
            socket.shutdownOutput();
            byte[] back = new byte[sent.length];
            DataInputStream in = new DataInputStream(socket.getInputStream());
            in.readFully(back);
            assertArrayEquals(sent, back);
            assertEquals(-1, in.read(), "then the server closes");
        }
    }
}
