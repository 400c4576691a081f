package io.loadgen.core.wait;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Linux's timer slack, per thread: the kernel may let a sleeping thread's timer fire this much late so it
 * can batch wake-ups (50 µs by default), and every {@code parkNanos} pays it. A thread may lower its own slack
 * without privileges by writing {@code /proc/<tid>/timerslack_ns} (Linux 4.6 and later); the worker does
 * so for itself before its first wait. Elsewhere (another OS, a locked-down {@code /proc}) nothing changes
 * and the adaptive wait simply learns a larger margin.
 */
final class TimerSlack {
    private static final Logger LOG = LogManager.getLogger(TimerSlack.class);
    private static final Path THREAD_SELF = Path.of("/proc/thread-self");

    private TimerSlack() {
    }

    /** Sets the calling thread's timer slack to 1 ns; false when the platform does not allow it. */
    static boolean minimizeForCurrentThread() {
        try {
            Files.write(currentThreadFile(), "1".getBytes(StandardCharsets.US_ASCII));
            return true;
        } catch (IOException | RuntimeException e) {
            LOG.debug("could not lower this thread's timer slack: {}", e.toString());
            return false;
        }
    }

    /** The calling thread's timer slack in ns, or -1 where the platform does not tell. */
    static long currentThreadNs() {
        try {
            return Long.parseLong(Files.readString(currentThreadFile(), StandardCharsets.US_ASCII).trim());
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** {@code /proc/<tid>/timerslack_ns}: {@code /proc/thread-self} links to {@code <pid>/task/<tid>}. */
    private static Path currentThreadFile() throws IOException {
        if (!Files.isSymbolicLink(THREAD_SELF)) {
            throw new IOException("no " + THREAD_SELF);
        }
        String self = Files.readSymbolicLink(THREAD_SELF).toString(); // "<pid>/task/<tid>"
        String tid = self.substring(self.lastIndexOf('/') + 1);
        return Path.of("/proc", tid, "timerslack_ns");
    }
}
