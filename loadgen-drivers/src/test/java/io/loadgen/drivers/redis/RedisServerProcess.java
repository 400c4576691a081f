package io.loadgen.drivers.redis;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real {@code redis-server} child process on a free loopback port, persistence off, for tests; never
 * the machine's shared server. Used from one test thread; {@link #close} stops it.
 *
 * <pre><code>
 * try (RedisServerProcess server = RedisServerProcess.start()) {
 *     ... -p redis.uri=server.uri() ...
 * }
 * </code></pre>
 */
public final class RedisServerProcess implements AutoCloseable {
    private static final Path BINARY = Path.of("/usr/bin/redis-server");
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(10);

    private final int port;
    private final Path dir;
    private Process process;

    private RedisServerProcess(int port, Path dir) {
        this.port = port;
        this.dir = dir;
    }

    /** Whether {@code redis-server} is installed where {@link #start} looks for it. */
    public static boolean installed() {
        return Files.isExecutable(BINARY);
    }

    /** Starts a server on a free loopback port and waits until it answers PING. */
    public static RedisServerProcess start() throws IOException, InterruptedException {
        RedisServerProcess server = new RedisServerProcess(freePort(), Files.createTempDirectory("loadgen-redis"));
        server.restart();
        return server;
    }

    /** A loopback port nothing listens on (at the moment of asking). */
    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    int port() {
        return port;
    }

    public String uri() {
        return "redis://127.0.0.1:" + port;
    }

    /** Starts the server again on the same port, empty, after {@link #kill}; waits until it answers. */
    void restart() throws IOException, InterruptedException {
        if (!Files.isExecutable(BINARY)) {
            throw new AssertionError(BINARY + " not found; the redis tests need a real server: apt-get install redis-server");
        }
        File log = dir.resolve("redis.log").toFile();
        process = new ProcessBuilder(List.of(BINARY.toString(), "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--dir", dir.toString(), "--loglevel", "warning"))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log))
                .start();
        awaitPong(log);
    }

    /** Kills the server at once (SIGKILL), as a crash would, and waits for it to be gone. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
            throw new AssertionError("redis-server on port " + port + " did not die");
        }
    }

    /** Stops the server answering without closing its connections (SIGSTOP), until {@link #resume}. */
    public void pause() throws IOException, InterruptedException {
        signal("-STOP");
    }

    public void resume() throws IOException, InterruptedException {
        signal("-CONT");
    }

    private void signal(String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", signal, Long.toString(process.pid())).inheritIO().start();
        if (!kill.waitFor(5, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new AssertionError("kill " + signal + " " + process.pid() + " failed");
        }
    }

    /** A plain synchronous Lettuce client to check what the driver wrote; close it after use. */
    Inspector inspector() {
        return new Inspector(RedisClient.create(uri()));
    }

    /** Stops the server (SIGTERM, then SIGKILL after 5 s) and removes its directory. */
    @Override
    public void close() {
        if (process != null && process.isAlive()) {
            process.destroy();
            try {
                if (!process.waitFor(5, TimeUnit.SECONDS)) {
                    kill();
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
        try {
            Files.deleteIfExists(dir.resolve("redis.log"));
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            // a temp dir left behind is harmless
        }
    }

    private void awaitPong(File log) throws IOException, InterruptedException {
        long deadlineNs = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (System.nanoTime() - deadlineNs < 0) {
            if (!process.isAlive()) {
                throw new AssertionError("redis-server exited with " + process.exitValue() + ": "
                        + Files.readString(log.toPath()));
            }
            if (answersPing()) {
                return;
            }
            Thread.sleep(20);
        }
        process.destroyForcibly();
        throw new AssertionError("redis-server on port " + port + " did not answer PING within " + READY_TIMEOUT);
    }

    private boolean answersPing() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
            socket.setSoTimeout(500);
            OutputStream out = socket.getOutputStream();
            out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] reply = in.readNBytes(7);
            return new String(reply, StandardCharsets.US_ASCII).equals("+PONG\r\n");
        } catch (IOException e) {
            return false;
        }
    }

    /** A synchronous String connection to the test server. */
    static final class Inspector implements AutoCloseable {
        private final RedisClient client;
        private final StatefulRedisConnection<String, String> connection;

        private Inspector(RedisClient client) {
            this.client = client;
            this.connection = client.connect();
        }

        RedisCommands<String, String> sync() {
            return connection.sync();
        }

        /** How many times the server has run {@code command} (lower case), from INFO commandstats. */
        long calls(String command) {
            String prefix = "cmdstat_" + command + ":calls=";
            for (String line : sync().info("commandstats").split("\r?\n")) {
                if (line.startsWith(prefix)) {
                    return Long.parseLong(line.substring(prefix.length(), line.indexOf(',')));
                }
            }
            return 0;
        }

        @Override
        public void close() {
            connection.close();
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }
}
