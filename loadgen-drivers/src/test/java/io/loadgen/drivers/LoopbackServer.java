package io.loadgen.drivers;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real server binary from Debian's packages (redis-server, memcached) run as a child process on a free loopback
 * port for tests, never the machine's shared one. Used from one test thread; {@link #close} stops it. A subclass
 * says how to start it ({@link #arguments}) and how to tell it answers ({@link #answers}).
 *
 * <p>{@link #pause} and {@link #resume} send SIGSTOP and SIGCONT through one shell kept open for the purpose (its
 * {@code kill} is a builtin): each returns once the signal is sent, within a millisecond or so, rather than after a
 * new process has started, so a test knows when the server stopped and started again to about that.
 */
public abstract class LoopbackServer implements AutoCloseable {
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(10);

    private final Path binary;
    private final String name;
    private final String installHint;
    protected final int port;
    protected final Path dir;
    private Process process;
    private Process shell;
    private Writer shellIn;
    private BufferedReader shellOut;

    /**
     * @param binary      the server's executable
     * @param installHint what the test needs, e.g. "the redis tests need a real server: apt-get install redis-server"
     */
    protected LoopbackServer(Path binary, String installHint) throws IOException {
        this.binary = binary;
        this.name = binary.getFileName().toString();
        this.installHint = installHint;
        this.port = freePort();
        this.dir = Files.createTempDirectory("loadgen-" + name);
    }

    /** A loopback port nothing listens on (at the moment of asking). */
    public static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** The server's arguments after its binary: its port, loopback only, nothing kept on disk. */
    protected abstract List<String> arguments();

    /** Whether the server answers on {@link #port} now (a short-lived connection, a short timeout). */
    protected abstract boolean answers();

    public int port() {
        return port;
    }

    /** The process's id, for signals a test sends itself. */
    protected long pid() {
        return process.pid();
    }

    /** Starts the server (again, on the same port, empty, after {@link #kill}) and waits until it answers. */
    public void restart() throws IOException, InterruptedException {
        if (!Files.isExecutable(binary)) {
            throw new AssertionError(binary + " not found; " + installHint);
        }
        File log = dir.resolve(name + ".log").toFile();
        List<String> command = new ArrayList<>(List.of(binary.toString()));
        command.addAll(arguments());
        process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log)).start();
        long deadlineNs = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (System.nanoTime() - deadlineNs < 0) {
            if (!process.isAlive()) {
                throw new AssertionError(name + " exited with " + process.exitValue() + ": "
                        + Files.readString(log.toPath()));
            }
            if (answers()) {
                return;
            }
            Thread.sleep(20);
        }
        process.destroyForcibly();
        throw new AssertionError(name + " on port " + port + " did not answer within " + READY_TIMEOUT);
    }

    /** Kills the server at once (SIGKILL), as a crash would, and waits for it to be gone. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
            throw new AssertionError(name + " on port " + port + " did not die");
        }
    }

    /**
     * Stops the server answering without closing its connections (SIGSTOP), until {@link #resume}; returns once every
     * thread of it is stopped. kill(1) returns when the signal is sent, and a thread already running goes on until
     * the kernel next stops it: on a busy machine memcached answered a request sent just after (a clean-clone CI's
     * READ came back OK where the test expected its timeout).
     */
    public void pause() throws IOException {
        signal("STOP");
        long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!allStopped()) {
            if (System.nanoTime() - deadlineNs > 0) {
                throw new AssertionError(name + " (pid " + process.pid() + ") did not stop within 5 s of SIGSTOP");
            }
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000L);
        }
    }

    /** Whether every thread of the server is stopped: state T in each /proc/PID/task/TID/stat. */
    private boolean allStopped() throws IOException {
        Path tasks = Path.of("/proc", Long.toString(process.pid()), "task");
        try (java.util.stream.Stream<Path> list = Files.list(tasks)) {
            for (Path task : (Iterable<Path>) list::iterator) {
                String stat;
                try {
                    stat = Files.readString(task.resolve("stat"));
                } catch (java.nio.file.NoSuchFileException gone) {
                    continue; // a thread that ended meanwhile
                }
                // After the command name, in parentheses that may hold anything: " STATE ..."
                char state = stat.charAt(stat.lastIndexOf(')') + 2);
                if (state != 'T' && state != 't') {
                    return false;
                }
            }
        }
        return true;
    }

    public void resume() throws IOException {
        signal("CONT");
    }

    private void signal(String signal) throws IOException {
        if (shell == null) {
            shell = new ProcessBuilder("bash").redirectErrorStream(true).start();
            shellIn = new OutputStreamWriter(shell.getOutputStream(), StandardCharsets.US_ASCII);
            shellOut = new BufferedReader(new InputStreamReader(shell.getInputStream(), StandardCharsets.US_ASCII));
        }
        shellIn.write("kill -" + signal + " " + process.pid() + " && echo sent || echo failed\n");
        shellIn.flush();
        String answer = shellOut.readLine();
        if (!"sent".equals(answer)) {
            throw new AssertionError("kill -" + signal + " " + process.pid() + " failed: " + answer);
        }
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
        try (var files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Files.deleteIfExists(f);
            }
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            // a temp dir left behind is harmless
        }
    }
}
