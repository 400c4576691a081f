package io.loadgen.drivers.memcached;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.Writer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real {@code memcached} child process on a free loopback port ({@code memcached -l 127.0.0.1 -p PORT -U 0 -m 64},
 * Debian's binary), for tests; never the machine's 11211. Used from one test thread; {@link #close} stops it.
 *
 * <pre><code>
 * try (MemcachedServerProcess server = MemcachedServerProcess.start()) {
 *     ... -p memcached.uri=server.uri() ...
 * }
 * </code></pre>
 *
 * {@link #pause} and {@link #resume} send SIGSTOP and SIGCONT through one shell kept open for the purpose (its
 * {@code kill} is a builtin): each returns once the signal is sent, within a millisecond or so, rather than after
 * a new process has started, so a test knows when the server stopped and started again to about that.
 */
public final class MemcachedServerProcess implements AutoCloseable {
    private static final Path BINARY = Path.of("/usr/bin/memcached");
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(10);

    private final int port;
    private final Path dir;
    private final List<String> extraArgs;
    private Process process;
    private Process shell;
    private Writer shellIn;
    private BufferedReader shellOut;

    private MemcachedServerProcess(int port, Path dir, List<String> extraArgs) {
        this.port = port;
        this.dir = dir;
        this.extraArgs = extraArgs;
    }

    /** Whether {@code memcached} is installed where {@link #start} looks for it. */
    public static boolean installed() {
        return Files.isExecutable(BINARY);
    }

    /** Starts a server on a free loopback port and waits until it answers {@code version}. */
    public static MemcachedServerProcess start(String... extraArgs) throws IOException, InterruptedException {
        MemcachedServerProcess server = new MemcachedServerProcess(freePort(),
                Files.createTempDirectory("loadgen-memcached"), List.of(extraArgs));
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
        return "memcached://127.0.0.1:" + port;
    }

    /** Starts the server again on the same port, empty, after {@link #kill}; waits until it answers. */
    void restart() throws IOException, InterruptedException {
        if (!Files.isExecutable(BINARY)) {
            throw new AssertionError(BINARY + " not found; the memcached tests need a real server: apt-get install memcached");
        }
        File log = dir.resolve("memcached.log").toFile();
        List<String> command = new ArrayList<>(List.of(BINARY.toString(), "-l", "127.0.0.1", "-p",
                Integer.toString(port), "-U", "0", "-m", "64"));
        if ("root".equals(System.getProperty("user.name"))) {
            command.addAll(List.of("-u", "root")); // memcached refuses to run as root without it
        }
        command.addAll(extraArgs);
        process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log)).start();
        awaitVersion(log);
    }

    /** Kills the server at once (SIGKILL), as a crash would, and waits for it to be gone. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
            throw new AssertionError("memcached on port " + port + " did not die");
        }
    }

    /** Stops the server answering without closing its connections (SIGSTOP), until {@link #resume}. */
    public void pause() throws IOException {
        signal("STOP");
    }

    public void resume() throws IOException {
        signal("CONT");
    }

    private void signal(String signal) throws IOException {
        if (shell == null) {
            shell = new ProcessBuilder("bash").redirectErrorStream(true).start();
            shellIn = new java.io.OutputStreamWriter(shell.getOutputStream(), StandardCharsets.US_ASCII);
            shellOut = new BufferedReader(new InputStreamReader(shell.getInputStream(), StandardCharsets.US_ASCII));
        }
        shellIn.write("kill -" + signal + " " + process.pid() + " && echo sent || echo failed\n");
        shellIn.flush();
        String answer = shellOut.readLine();
        if (!"sent".equals(answer)) {
            throw new AssertionError("kill -" + signal + " " + process.pid() + " failed: " + answer);
        }
    }

    /** A blocking text-protocol client to check what the driver wrote; close it after use. */
    Inspector inspector() throws IOException {
        return new Inspector(port);
    }

    /** Stops the server (SIGTERM, then SIGKILL after 5 s) and the signalling shell, and removes its directory. */
    @Override
    public void close() {
        if (process != null && process.isAlive()) {
            if (shell != null) {
                try {
                    resume(); // a stopped process acts on SIGTERM only once it runs again
                } catch (IOException | AssertionError e) {
                    // it is killed below anyway
                }
            }
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
        if (shell != null) {
            shell.destroyForcibly();
        }
        try {
            Files.deleteIfExists(dir.resolve("memcached.log"));
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            // a temp dir left behind is harmless
        }
    }

    private void awaitVersion(File log) throws IOException, InterruptedException {
        long deadlineNs = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (System.nanoTime() - deadlineNs < 0) {
            if (!process.isAlive()) {
                throw new AssertionError("memcached exited with " + process.exitValue() + ": "
                        + Files.readString(log.toPath()));
            }
            try (Inspector inspector = new Inspector(port)) {
                if (inspector.command("version").startsWith("VERSION ")) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(20);
        }
        process.destroyForcibly();
        throw new AssertionError("memcached on port " + port + " did not answer version within " + READY_TIMEOUT);
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
