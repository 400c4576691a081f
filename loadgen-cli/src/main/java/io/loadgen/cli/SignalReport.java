package io.loadgen.cli;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * What a command of several runs ({@code sweep}, {@code findmax}, {@code calibrate}) does on SIGINT or SIGTERM:
 * a shutdown hook says so on stderr, stops the work, and holds the JVM's exit until the command has printed what
 * it measured (at most {@value #REPORT_GRACE_SECONDS} s). Open it before the work and close it after the report:
 * <pre><code>
 * try (SignalReport s = SignalReport.install(io, "stopping the sweep and printing the steps done so far", sweep::stop)) {
 *     report(sweep.run());
 * }
 * </code></pre>
 * Main thread; the hook runs on the JVM's shutdown thread.
 */
final class SignalReport implements AutoCloseable {
    static final long REPORT_GRACE_SECONDS = 30;

    private final CountDownLatch reported = new CountDownLatch(1);
    private final Thread hook;

    private SignalReport(Streams io, String doing, Runnable stop) {
        hook = new Thread(() -> {
            io.err().println("loadgen: interrupted; " + doing);
            stop.run();
            try {
                reported.await(REPORT_GRACE_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "loadgen-shutdown");
    }

    /**
     * @param doing what the command does now, for the line on stderr: {@code stopping findmax and printing the steps
     *              done so far}
     * @param stop  stops the work (any thread), so that the main thread goes on to its report
     */
    static SignalReport install(Streams io, String doing, Runnable stop) {
        SignalReport s = new SignalReport(io, doing, stop);
        Runtime.getRuntime().addShutdownHook(s.hook);
        return s;
    }

    /** The report is out: a signal's exit may go on, and the hook is removed when no signal came. */
    @Override
    public void close() {
        reported.countDown();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // A signal is shutting the JVM down; its exit code (130 / 143) stands.
        }
    }
}
