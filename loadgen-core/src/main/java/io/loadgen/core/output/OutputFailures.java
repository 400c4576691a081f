package io.loadgen.core.output;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A command's failed writes, one line each, so that every output is still tried after one fails (the
 * summary on stdout, then each file) and the command ends with a non-zero exit code naming them all.
 * One thread.
 */
public final class OutputFailures {
    private final List<String> lines = new ArrayList<>();

    /** One output's writing, which may fail. */
    @FunctionalInterface
    public interface Write {
        void run() throws IOException;
    }

    /** Runs {@code write}; a failure is kept as one line naming {@code option} and {@code file}. */
    public boolean attempt(String option, Path file, Write write) {
        try {
            write.run();
            return true;
        } catch (IOException | java.io.UncheckedIOException e) {
            add(option, file, e);
            return false;
        }
    }

    /** Records a failure found some other way (e.g. an interval log written on another thread). */
    public void add(String option, Path file, Exception cause) {
        lines.add(line(option + " " + file, cause));
    }

    /**
     * The line for a failed write of {@code what} (e.g. {@code --json run.json}, {@code standard output}), with the
     * fix for its cause: a pipe whose reader stopped early ({@code | head}) wants the whole output read or a file,
     * not free space.
     */
    public static String line(String what, Exception cause) {
        String reason = reason(cause);
        if (reason.contains("Broken pipe")) {
            return "cannot write " + what + ": " + reason + " (the program reading it stopped before the end, as"
                    + " '| head' does); let it read everything, or write to a file and read that, and run again";
        }
        return "cannot write " + what + ": " + reason + "; free space or choose another path, and run again";
    }

    public boolean isEmpty() {
        return lines.isEmpty();
    }

    public List<String> lines() {
        return Collections.unmodifiableList(lines);
    }

    /**
     * The innermost message: "No space left on device" rather than the wrappers around it (an encoder's
     * {@code IIOException: I/O error writing PNG file!} is an IOException caused by the IOException that says why).
     */
    public static String reason(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t && (t instanceof java.io.UncheckedIOException
                || t.getCause() instanceof IOException || t.getMessage() == null
                || t.getMessage().contains("Exception"))) {
            t = t.getCause();
        }
        String m = t.getMessage();
        return m == null || m.isBlank() ? t.getClass().getSimpleName() : m;
    }
}
