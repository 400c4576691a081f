package io.loadgen.plot.html;

import com.fasterxml.jackson.databind.JsonNode;
import io.loadgen.core.BadInputException;

import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * What an {@link HtmlExplorer} page holds: which tags, which part of the logs, its title, and an
 * optional JSON summary. Immutable; built once by the command line (or a test) with {@link #builder()},
 * which validates everything in {@link Builder#build()}.
 *
 * <pre><code>
 * ExplorerOptions options = ExplorerOptions.builder()
 *         .tags(List.of("READ.intended", "READ.service"))   // default: every tag
 *         .start(5).end(60)                                 // as report --start/--end; default: all
 *         .title("mockdb at 2000 ops/s")
 *         .summary(JsonSummary.toJson(result))              // optional: run --json's parameters
 *         .build();
 * </code></pre>
 */
public final class ExplorerOptions {
    private final List<String> tags;
    private final double startSec;
    private final double endSec;
    private final String title;
    private final JsonNode summary;
    private final Consumer<String> warnings;
    private final boolean allowMixed;
    private final boolean includeWarmup;

    private ExplorerOptions(Builder b) {
        this.allowMixed = b.allowMixed;
        this.includeWarmup = b.includeWarmup;
        this.tags = List.copyOf(b.tags);
        this.startSec = b.startSec;
        this.endSec = b.endSec;
        this.title = b.title;
        this.summary = b.summary;
        this.warnings = b.warnings;
    }

    /** Every tag, the whole log, a title made from the log names, no summary, warnings to stderr. */
    public static ExplorerOptions defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * The latency tags to show, in the order given; empty for every tag. {@code harness.lag} and
     * {@code OP.status} lines are read whatever this says: the page's harness-health panel shows them.
     */
    public List<String> tags() {
        return tags;
    }

    /** Only intervals starting at or after this, seconds after the log's StartTime (as {@code report --start}). */
    public double startSec() {
        return startSec;
    }

    /** Only intervals up to this, as {@code report --end} (reading stops at the first line after it). */
    public double endSec() {
        return endSec;
    }

    /** The page's title, or null for one made from the logs' names. */
    public String title() {
        return title;
    }

    /** A JSON summary in {@code run --json}'s schema whose run parameters the page also shows, or null. */
    public JsonNode summary() {
        return summary;
    }

    /** Where problems that leave the logs readable go (a corrupt line, a truncated last line), one line each. */
    public Consumer<String> warnings() {
        return warnings;
    }

    /** Whether logs of different runs may be shown as one (their {@code #[run_id]} lines differ). */
    public boolean allowMixed() {
        return allowMixed;
    }

    /** Whether the run's warm-up is shown, which its JSON (and by default the page) leaves out. */
    public boolean includeWarmup() {
        return includeWarmup;
    }

    /** Collects options; {@link #build()} checks them and names the option to fix. */
    public static final class Builder {
        private List<String> tags = List.of();
        private double startSec = 0.0;
        private double endSec = Double.MAX_VALUE;
        private String title;
        private JsonNode summary;
        private Consumer<String> warnings = w -> System.err.println("warning: " + w);
        private boolean allowMixed;
        private boolean includeWarmup;

        private Builder() {
        }

        public Builder tags(List<String> tags) {
            this.tags = Objects.requireNonNull(tags, "tags");
            return this;
        }

        public Builder start(double sec) {
            this.startSec = sec;
            return this;
        }

        public Builder end(double sec) {
            this.endSec = sec;
            return this;
        }

        public Builder title(String title) {
            this.title = title;
            return this;
        }

        public Builder summary(JsonNode summary) {
            this.summary = summary;
            return this;
        }

        public Builder warnings(Consumer<String> warnings) {
            this.warnings = Objects.requireNonNull(warnings, "warnings");
            return this;
        }

        /** Logs of different runs shown as one ({@code --allow-mixed}); the warm-up shown ({@code --include-warmup}). */
        public Builder reading(boolean allowMixed, boolean includeWarmup) {
            this.allowMixed = allowMixed;
            this.includeWarmup = includeWarmup;
            return this;
        }

        /** @throws BadInputException for a start after the end, or a time that is not a number */
        public ExplorerOptions build() {
            if (Double.isNaN(startSec) || Double.isNaN(endSec)) {
                throw new BadInputException("--start and --end must be numbers of seconds (got " + startSec + " and "
                        + endSec + ")");
            }
            if (startSec > endSec) {
                throw new BadInputException("--start " + startSec + " is after --end " + endSec
                        + "; give a start at or before the end (seconds after the log's StartTime)");
            }
            for (String t : tags) {
                if (t == null || t.isBlank()) {
                    throw new BadInputException("an empty --tag; name a tag such as READ.intended (list them with"
                            + " 'loadgen report --list-tags LOG')");
                }
            }
            return new ExplorerOptions(this);
        }
    }
}
