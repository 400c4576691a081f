package io.loadgen.drivers.memcached;

import io.loadgen.drivers.LoopbackServer;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A real {@code memcached} child process on a free loopback port ({@code memcached -l 127.0.0.1 -p PORT -U 0 -m 64},
 * Debian's binary), for tests; never the machine's 11211. Used from one test thread; {@link #close} stops it.
 *
 * <pre><code>
 * try (MemcachedServerProcess server = MemcachedServerProcess.start()) {
 *     ... -p memcached.uri=server.uri() ...
 * }
 * </code></pre>
 */
public final class MemcachedServerProcess extends LoopbackServer {
    private static final Path BINARY = Path.of("/usr/bin/memcached");

    private final List<String> extraArgs;

    private MemcachedServerProcess(List<String> extraArgs) throws IOException {
        super(BINARY, "the memcached tests need a real server: apt-get install memcached");
        this.extraArgs = extraArgs;
    }

    /** Whether {@code memcached} is installed where {@link #start} looks for it. */
    public static boolean installed() {
        return Files.isExecutable(BINARY);
    }

    /** Starts a server on a free loopback port and waits until it answers {@code version}. */
    public static MemcachedServerProcess start(String... extraArgs) throws IOException, InterruptedException {
        MemcachedServerProcess server = new MemcachedServerProcess(List.of(extraArgs));
        server.restart();
        return server;
    }

    public String uri() {
        return "memcached://127.0.0.1:" + port;
    }

    @Override
    protected List<String> arguments() {
        List<String> args = new ArrayList<>(List.of("-l", "127.0.0.1", "-p", Integer.toString(port), "-U", "0", "-m",
                "64"));
        if ("root".equals(System.getProperty("user.name"))) {
            args.addAll(List.of("-u", "root")); // memcached refuses to run as root without it
        }
        args.addAll(extraArgs);
        return args;
    }

    @Override
    protected boolean answers() {
        try (Inspector inspector = new Inspector(port)) {
            return inspector.command("version").startsWith("VERSION ");
        } catch (IOException notYet) {
            return false;
        }
    }

    /** A blocking text-protocol client to check what the driver wrote; close it after use. */
    Inspector inspector() throws IOException {
        return new Inspector(port);
    }

    /** One blocking connection speaking the text protocol (and meta's {@code mg}), for checks. */
    static final class Inspector implements AutoCloseable {
        private final Socket socket;
        private final OutputStream out;
        private final InputStream in;

        Inspector(int port) throws IOException {
            socket = new Socket();
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1000);
            socket.setSoTimeout(5000);
            out = socket.getOutputStream();
            in = socket.getInputStream();
        }

        /** Sends one line and returns the first line of the answer. */
        String command(String line) throws IOException {
            out.write((line + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return readLine();
        }

        /** The item's value as ASCII text, or null when there is none. */
        String get(String key) throws IOException {
            String header = command("get " + key);
            if (header.equals("END")) {
                return null;
            }
            String[] parts = header.split(" ");
            if (!parts[0].equals("VALUE") || !parts[1].equals(key)) {
                throw new IOException("unexpected answer to get: " + header);
            }
            byte[] data = in.readNBytes(Integer.parseInt(parts[3]) + 2);
            String end = readLine();
            if (!end.equals("END")) {
                throw new IOException("no END after the value: " + end);
            }
            return new String(data, 0, data.length - 2, StandardCharsets.US_ASCII);
        }

        /** Stores {@code value} under {@code key} for ever. */
        void set(String key, String value) throws IOException {
            out.write(("set " + key + " 0 0 " + value.length() + "\r\n" + value + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String answer = readLine();
            if (!answer.equals("STORED")) {
                throw new IOException("set " + key + " answered " + answer);
            }
        }

        /** Seconds the item has to live (-1: for ever), from the meta {@code mg KEY t}; null when there is no item. */
        Long ttl(String key) throws IOException {
            String answer = command("mg " + key + " t");
            if (answer.equals("EN")) {
                return null;
            }
            for (String flag : answer.split(" ")) {
                if (flag.startsWith("t")) {
                    return Long.parseLong(flag.substring(1));
                }
            }
            throw new IOException("no TTL in " + answer);
        }

        void flushAll() throws IOException {
            String answer = command("flush_all");
            if (!answer.equals("OK")) {
                throw new IOException("flush_all answered " + answer);
            }
        }

        /** One of the server's {@code stats} (cmd_get, cmd_set, curr_items, ...). */
        long stat(String name) throws IOException {
            out.write("stats\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            long value = -1;
            for (String line = readLine(); !line.equals("END"); line = readLine()) {
                String[] parts = line.split(" ");
                if (parts.length == 3 && parts[1].equals(name)) {
                    value = Long.parseLong(parts[2]);
                }
            }
            if (value < 0) {
                throw new IOException("no stat " + name);
            }
            return value;
        }

        private String readLine() throws IOException {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            int b;
            while ((b = in.read()) != '\n') {
                if (b < 0) {
                    throw new IOException("the server closed the connection");
                }
                line.write(b);
            }
            String s = line.toString(StandardCharsets.US_ASCII);
            return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
