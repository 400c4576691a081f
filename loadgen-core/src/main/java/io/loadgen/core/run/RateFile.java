package io.loadgen.core.run;

import io.loadgen.core.Limits;
import io.loadgen.core.schedule.RateControl;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code --rate-file}: reads the file every interval, on the aggregator thread, and when its content changed asks
 * the {@link RateControl} for the rate it holds (written as {@code --target} takes it), which switches at the next
 * interval boundary. Content that is no rate, or a file that cannot be read (an editor saving it half-written,
 * moving it away), is said once on the warnings stream per distinct content, and the rate stays: a run never
 * dies of its rate file. The content at the start is the baseline: {@code --target} sets the starting rate.
 */
final class RateFile implements IntervalSink {
    /** The most of the file read: a rate is a few characters; more is not one. */
    static final int MAX_BYTES = 256;
    static final String SOURCE = "rate-file";

    private final Path file;
    private final RateControl control;
    private final PrintStream warnings;
    private final PrintStream status;
    private String last;

    /**
     * Reads the baseline now (the run's thread, before t0).
     *
     * @param warnings where bad content is said (stderr, also under -q), or null
     * @param status   where an accepted change is said, or null
     */
    RateFile(Path file, RateControl control, PrintStream warnings, PrintStream status) {
        this.file = file;
        this.control = control;
        this.warnings = warnings;
        this.status = status;
        this.last = read();
    }

    @Override
    public void onInterval(IntervalSnapshot s) {
        if (s.last()) {
            return;
        }
        String content = read();
        if (content.equals(last)) {
            return;
        }
        last = content;
        String error = content.startsWith("\0") ? content.substring(1) : control.requestRate(content, SOURCE);
        if (error != null) {
            if (warnings != null) {
                warnings.println("loadgen: warning: --rate-file " + file + ": " + error + "; the rate stays at "
                        + io.loadgen.core.diagnosis.Figures.rate(control.targetOpsPerSec()) + " ops/s");
            }
        } else if (status != null) {
            status.println("loadgen: --rate-file " + file + ": target " + io.loadgen.core.diagnosis.Figures.rate(
                    control.targetOpsPerSec()) + " ops/s from the next interval");
        }
    }

    /** The file's content, trimmed; why it cannot be read, after a NUL (no rate starts with one). */
    private String read() {
        try {
            byte[] bytes;
            try (var in = Files.newInputStream(file)) {
                bytes = in.readNBytes(MAX_BYTES + 1);
            }
            if (bytes.length > MAX_BYTES) {
                return "\0it holds more than " + MAX_BYTES + " bytes, so no rate; write one rate, e.g. 5000";
            }
            return new String(bytes, StandardCharsets.UTF_8).trim().replaceAll("\\s+", " ");
        } catch (IOException e) {
            return "\0cannot be read (" + Limits.quote(String.valueOf(e.getMessage())) + ")";
        }
    }
}
