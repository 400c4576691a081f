package io.loadgen.drivers.http;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD;

/**
 * The http target server talked to with plain JDK sockets, so what it answers to bad or abusive clients is
 * seen byte for byte: bounded pending work per connection, and a refusal (then a close, where the framing is
 * lost) for what it cannot answer.
 */
@Timeout(value = 60, threadMode = SEPARATE_THREAD)
class HttpTargetServerTest {
    private static final long MS = 1_000_000L;

    private static HttpTargetServer start(Duration delay) {
        return HttpTargetServer.start(new InetSocketAddress("127.0.0.1", 0),
                HttpTargetServer.Options.DEFAULT.withDelay(delay));
    }

    /** One response: its status code, its body, and whether it said it closes the connection. */
    private record Response(int code, String body, boolean close) {
    }

    private static Socket connect(HttpTargetServer server) throws IOException {
        Socket s = new Socket("127.0.0.1", server.port());
        s.setSoTimeout(10_000);
        return s;
    }

    private static Response read(InputStream in) throws IOException {
        return read(in, false);
    }

    /** Reads one response (a head, then Content-Length bytes of body: none for 204 and 304, nor to a HEAD). */
    private static Response read(InputStream in, boolean toHead) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (true) {
            int b = in.read();
            assertTrue(b >= 0, "the connection closed before a whole response: " + head);
            head.write(b);
            byte[] h = head.toByteArray();
            if (h.length >= 4 && h[h.length - 4] == '\r' && h[h.length - 3] == '\n' && h[h.length - 2] == '\r'
                    && h[h.length - 1] == '\n') {
                break;
            }
        }
        String[] lines = head.toString(StandardCharsets.US_ASCII).split("\r\n");
        int code = Integer.parseInt(lines[0].split(" ")[1]);
        int length = 0;
        boolean close = false;
        for (String line : lines) {
            String lower = line.toLowerCase(java.util.Locale.ROOT);
            if (lower.startsWith("content-length:")) {
                length = Integer.parseInt(lower.substring("content-length:".length()).trim());
            }
            close |= lower.equals("connection: close");
        }
        if (code == 204 || code == 304 || toHead) {
            length = 0;
        }
        byte[] body = in.readNBytes(length);
        assertEquals(length, body.length, "a whole body");
        return new Response(code, new String(body, StandardCharsets.US_ASCII), close);
    }

    private static Response exchange(Socket s, String request) throws IOException {
        s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
        return read(s.getInputStream(), request.startsWith("HEAD "));
    }

    /** True when the server closed the connection (end of stream, or a reset). */
    private static boolean closed(Socket s) throws IOException {
        try {
            return s.getInputStream().read() == -1;
        } catch (SocketException e) {
            return true;
        }
    }

    /** Sends {@code bytes} and expects one response with {@code code}, then the connection closed. */
    private static Response refusedAndClosed(byte[] bytes, int code) throws IOException {
        try (HttpTargetServer server = start(Duration.ZERO); Socket s = connect(server)) {
            s.getOutputStream().write(bytes);
            Response r = read(s.getInputStream());
            assertEquals(code, r.code(), r.body());
            assertTrue(r.close(), "the response says Connection: close");
            assertTrue(closed(s), "the server closed the connection");
            return r;
        }
    }

    @Test
    void aRequestLineLongerThanTheLimitIs431AndClosed() throws IOException {
        String uri = "/" + "a".repeat(HttpTargetServer.MAX_REQUEST_LINE_BYTES);
        Response r = refusedAndClosed(("GET " + uri + " HTTP/1.1\r\n\r\n").getBytes(StandardCharsets.US_ASCII), 431);
        assertTrue(r.body().contains("larger than " + HttpTargetServer.MAX_REQUEST_LINE_BYTES), r.body());
    }

    @Test
    void headersLargerThanTheLimitAre431AndClosed() throws IOException {
        String header = "X-Big: " + "b".repeat(HttpTargetServer.MAX_HEADER_BYTES) + "\r\n";
        Response r = refusedAndClosed(("GET / HTTP/1.1\r\n" + header + "\r\n").getBytes(StandardCharsets.US_ASCII), 431);
        assertTrue(r.body().contains("larger than " + HttpTargetServer.MAX_HEADER_BYTES), r.body());
    }

    @Test
    void garbageIs400AndClosed() throws IOException {
        refusedAndClosed(new byte[]{(byte) 0x8f, 0x01, ' ', (byte) 0xff, (byte) 0xfe, 'q', ' ', 'z', '\r', '\n',
                '\r', '\n'}, 400);
        refusedAndClosed("hello\r\n\r\n".getBytes(StandardCharsets.US_ASCII), 400);
        refusedAndClosed("GET / HTTP/1.1\r\nno colon here\r\n\r\n".getBytes(StandardCharsets.US_ASCII), 400);
        refusedAndClosed("GET / FOO/1.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII), 400);
    }

    @Test
    void anotherMajorVersionIs505AndClosed() throws IOException {
        Response r = refusedAndClosed("GET / HTTP/9.9\r\n\r\n".getBytes(StandardCharsets.US_ASCII), 505);
        assertTrue(r.body().contains("HTTP/9.9"), r.body());
        refusedAndClosed("GET / HTTP/2.0\r\n\r\n".getBytes(StandardCharsets.US_ASCII), 505);
    }

    @Test
    void aHigherMinorVersionIsAnsweredAsHttp11() throws IOException {
        try (HttpTargetServer server = start(Duration.ZERO); Socket s = connect(server)) {
            assertEquals(200, exchange(s, "GET / HTTP/1.2\r\n\r\n").code());
        }
    }

    @Test
    void anUnknownMethodIs501AndTheConnectionServesOn() throws IOException {
        try (HttpTargetServer server = start(Duration.ZERO); Socket s = connect(server)) {
            Response r = exchange(s, "BREW /pot HTTP/1.1\r\n\r\n");
            assertEquals(501, r.code(), r.body());
            assertTrue(r.body().contains("BREW"), r.body());
            assertEquals(501, exchange(s, "get / HTTP/1.1\r\n\r\n").code(), "methods are case-sensitive");
            assertEquals(501, exchange(s, "A / HTTP/1.1\n\n").code(), "the shortest request kept open");
            assertEquals(501, exchange(s, "CONNECT 127.0.0.1:1 HTTP/1.1\r\n\r\n").code(), "no proxy");
            for (String known : new String[]{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE"}) {
                Response ok = exchange(s, known + " / HTTP/1.1\r\nContent-Length: 0\r\n\r\n");
                assertEquals(200, ok.code(), known);
                assertTrue(!ok.close(), known);
            }
        }
    }

    @Test
    void statusAnswersOnlyValidFinalStatusCodes() throws IOException {
        try (HttpTargetServer server = start(Duration.ZERO); Socket s = connect(server)) {
            assertEquals(503, exchange(s, "GET /status/503 HTTP/1.1\r\n\r\n").code());
            assertEquals(200, exchange(s, "GET /status/200?x=1 HTTP/1.1\r\n\r\n").code());
            assertEquals(599, exchange(s, "GET /status/599 HTTP/1.1\r\n\r\n").code());
            for (String bad : new String[]{"999", "600", "199", "100", "099", "abc", "", "+503", "5030", "-1"}) {
                Response r = exchange(s, "GET /status/" + bad + " HTTP/1.1\r\n\r\n");
                assertEquals(400, r.code(), "/status/" + bad + ": " + r.body());
                assertTrue(r.body().contains("200 to 599"), r.body());
                assertTrue(!r.close(), "the framing is intact: the connection serves on");
            }
            // 204 and 304 carry no body, so the next response on the connection is read whole
            assertEquals(204, exchange(s, "GET /status/204 HTTP/1.1\r\n\r\n").code());
            assertEquals(304, exchange(s, "GET /status/304 HTTP/1.1\r\n\r\n").code());
            Response last = exchange(s, "GET / HTTP/1.1\r\n\r\n");
            assertEquals(200, last.code());
            assertEquals(13, last.body().length());
        }
    }

    @Test
    void nothingIsAnsweredAfterARequestThatClosesTheConnection() throws IOException {
        try (HttpTargetServer server = start(Duration.ZERO); Socket s = connect(server)) {
            s.getOutputStream().write("GET / HTTP/1.1\r\nConnection: close\r\n\r\nGET /status/503 HTTP/1.1\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            Response r = read(s.getInputStream());
            assertEquals(200, r.code());
            assertTrue(r.close());
            assertTrue(closed(s), "closed after the response, the pipelined request unanswered");
        }
    }

    /**
     * A client pipelines the shortest request that keeps its connection open ({@code "A / HTTP/1.1\n\n"}, 14
     * bytes, answered 501), as fast as its socket takes them, and never reads: the flood, at its worst.
     * With a delay every response is held; without one, the responses back up in the server's outbound buffer.
     * Either way the server stops reading that connection: its pending responses stay within
     * {@link HttpTargetServer#MAX_PENDING_REQUESTS}, the client's send blocks, and another client is served.
     */
    @ParameterizedTest(name = "delay {0} ms")
    @ValueSource(ints = {0, 1000})
    void aClientThatPipelinesWithoutReadingIsPausedWithinTheBound(int delayMs) throws Exception {
        long total = 256L << 20; // 19 million requests: far more than the bound and the kernel's buffers
        try (HttpTargetServer server = start(Duration.ofMillis(delayMs)); Socket hog = connect(server);
             Socket polite = connect(server)) {
            AtomicLong written = sendWithoutReading(hog, "A / HTTP/1.1\n\n", total);
            await(() -> server.readPauses() > 0, "the server stops reading the hog");
            if (delayMs > 0) { // responses held, none written yet: it was the pause mark that stopped the reads
                assertTrue(server.maxPendingRequests() > HttpTargetServer.PAUSE_ABOVE_REQUESTS);
            }
            for (int i = 0; i < 3; i++) {
                Response r = exchange(polite, "GET / HTTP/1.1\r\n\r\n");
                assertEquals(200, r.code(), "another connection is served");
            }
            long bound = HttpTargetServer.MAX_PENDING_REQUESTS;
            assertTrue(server.maxPendingRequests() <= bound,
                    "pending " + server.maxPendingRequests() + " responses, at most " + bound);
            long sent = written.get();
            assertTrue(sent < total, "the hog's send blocked: " + sent);
            // Paused, the server reads on only as the hog's responses drain into the kernel's buffers: far fewer
            // requests than were offered.
            assertTrue(server.requests() < total / 14, "read " + server.requests() + " of " + total / 14);
        }
    }

    /** A client that pipelines and goes away leaves nothing held: its responses are dropped, not kept until due. */
    @Test
    void aClosedConnectionHoldsNoResponses() throws Exception {
        try (HttpTargetServer server = start(Duration.ofSeconds(60))) {
            try (Socket s = connect(server)) {
                s.getOutputStream().write("GET / HTTP/1.1\r\n\r\n".repeat(500).getBytes(StandardCharsets.US_ASCII));
                await(() -> server.heldResponses() == 500, "500 responses held for their minute");
            }
            await(() -> server.heldResponses() == 0, "the closed connection's responses dropped");
        }
    }

    /** Writes {@code request} over and over, never reading, until {@code total} bytes or the socket closes. */
    private static AtomicLong sendWithoutReading(Socket socket, String request, long total) {
        AtomicLong written = new AtomicLong();
        byte[] one = request.getBytes(StandardCharsets.US_ASCII);
        byte[] chunk = new byte[one.length * 4096];
        for (int i = 0; i < 4096; i++) {
            System.arraycopy(one, 0, chunk, i * one.length, one.length);
        }
        Thread t = new Thread(() -> {
            try {
                while (written.get() < total) {
                    socket.getOutputStream().write(chunk);
                    written.addAndGet(chunk.length);
                }
            } catch (IOException e) {
                // the socket was closed: the test is over
            }
        }, "pipelining-client");
        t.setDaemon(true);
        t.start();
        return written;
    }

    /** Polls {@code condition} until it holds; fails after 30 s (a bound on a hang, not a timing assertion). */
    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadlineNs = System.nanoTime() + 30_000 * MS;
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() - deadlineNs < 0, "timed out waiting until " + what);
            Thread.sleep(10);
        }
    }
}
