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
}
