package io.loadgen.drivers.redis;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.loadgen.drivers.LoopbackServer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

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
public final class RedisServerProcess extends LoopbackServer {
    private static final Path BINARY = Path.of("/usr/bin/redis-server");

    private RedisServerProcess() throws IOException {
        super(BINARY, "the redis tests need a real server: apt-get install redis-server");
    }

    /** Whether {@code redis-server} is installed where {@link #start} looks for it. */
    public static boolean installed() {
        return Files.isExecutable(BINARY);
    }

    /** Starts a server on a free loopback port and waits until it answers PING. */
    public static RedisServerProcess start() throws IOException, InterruptedException {
        RedisServerProcess server = new RedisServerProcess();
        server.restart();
        return server;
    }

    public String uri() {
        return "redis://127.0.0.1:" + port;
    }

    @Override
    protected List<String> arguments() {
        return List.of("--port", Integer.toString(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                "--dir", dir.toString(), "--loglevel", "warning");
    }

    /** A plain synchronous Lettuce client to check what the driver wrote; close it after use. */
    Inspector inspector() {
        return new Inspector(RedisClient.create(uri()));
    }

    @Override
    protected boolean answers() {
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
