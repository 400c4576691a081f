package io.loadgen.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** A real child JVM running a Java main class, its output collected on background threads. For tests. */
final class ChildProcess {
    final Process process;
    private final StringBuffer out = new StringBuffer();
    private final StringBuffer err = new StringBuffer();
    private final CountDownLatch firstErrLine = new CountDownLatch(1);
    private final Thread outReader;
    private final Thread errReader;

    private ChildProcess(Process process) {
        this.process = process;
        // Own threads, not the common pool: on 2 cores it has one thread, and one blocking reader would starve the other.
        this.outReader = reader(() -> drain(process.getInputStream(), out, null), "child-stdout");
        this.errReader = reader(() -> drain(process.getErrorStream(), err, firstErrLine), "child-stderr");
    }

    private static Thread reader(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** Starts {@code java -cp classpath mainClass args}. */
    static ChildProcess java(String classpath, String mainClass, String... args) throws IOException {
        return new ChildProcess(new ProcessBuilder(command(classpath, mainClass, args)).start());
    }

    /** Starts {@code java -cp classpath mainClass args} with its standard output going to {@code stdout}. */
    static ChildProcess javaWithStdout(java.io.File stdout, String classpath, String mainClass, String... args)
            throws IOException {
        return new ChildProcess(new ProcessBuilder(command(classpath, mainClass, args)).redirectOutput(stdout).start());
    }

    /** The command line {@code java -cp classpath mainClass args}, with this JVM's java. */
    static List<String> command(String classpath, String mainClass, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-cp");
        cmd.add(classpath);
        cmd.add(mainClass);
        cmd.addAll(List.of(args));
        return cmd;
    }

    /** Starts {@code builder}'s command, its output collected. */
    static ChildProcess start(ProcessBuilder builder) throws IOException {
        return new ChildProcess(builder.start());
    }

    /** This test JVM's own class path: the loadgen classes and every dependency. */
    static String testClasspath() {
        return System.getProperty("java.class.path");
    }

    private static void drain(java.io.InputStream in, StringBuffer sink, CountDownLatch firstLine) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                sink.append(line).append('\n');
                if (firstLine != null && isStatusLine(line)) {
                    firstLine.countDown();
                }
            }
        } catch (IOException ignored) {
            // the process ended
        }
    }

    /**
     * A status line of either format: the default ({@code 1.2s  1,000/s of 1,000/s  READ p99 ...}) or YCSB's
     * ({@code 2026-11-22 05:12:51:716 1 sec: 7497 operations; ...}).
     */
    static boolean isStatusLine(String line) {
        return HUMAN_STATUS.matcher(line).find() || line.contains(" sec: ");
    }

    /** The default status line's start: the time since the run's start, then a rate or the final interval's count. */
    static final java.util.regex.Pattern HUMAN_STATUS = java.util.regex.Pattern.compile(
            "^(\\d+h)?(\\d+m)?\\d+(\\.\\d+)?s  (phase \\S+  )?[\\d,.]+(/s| ops? in the final )");

    /** Waits for the first status line on stderr (a run is under way). */
    boolean awaitStatusLine(long seconds) throws InterruptedException {
        return firstErrLine.await(seconds, TimeUnit.SECONDS);
    }

    /** Waits until stderr holds {@code text}; true if it did within {@code seconds}. */
    boolean awaitErr(String text, long seconds) throws InterruptedException {
        long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!err.toString().contains(text)) {
            if (System.nanoTime() - deadlineNs > 0 || !process.isAlive()) {
                return err.toString().contains(text);
            }
            Thread.sleep(20);
        }
        return true;
    }

    /** Waits for exit and for all output; returns the exit code, or -1 if it did not exit in time (then kills it). */
    int awaitExit(long seconds) throws Exception {
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            return -1;
        }
        outReader.join(10_000);
        errReader.join(10_000);
        return process.exitValue();
    }

    String out() {
        return out.toString();
    }

    String err() {
        return err.toString();
    }
}
