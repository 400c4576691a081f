package io.loadgen.core.summary;

import io.loadgen.core.Secrets;
import io.loadgen.core.shard.Shard;

import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * What makes a run repeatable and traceable, apart from what it measured: when its schedule began, its seed and
 * the properties it ran with. The JSON summary writes them next to {@link #SCHEMA_VERSION} and
 * {@link #loadgenVersion()}, so a summary kept as a CI artifact says which loadgen made it, from what. Immutable.
 *
 * @param startEpochMs wall-clock time of the run's first intended start (its t0, also its interval log's StartTime),
 *                     in ms since the epoch; 0 when unknown
 * @param seed         the seed of start offsets, Poisson gaps and drivers' randomness; null when unknown
 * @param properties   the effective properties, workload and driver, after {@code -P} files and {@code -p} overrides,
 *                     sorted by key, every secret already masked ({@link Secrets#redactProperty}); null when unknown
 * @param shard        which shard of a sharded run this is ({@code --shard}); null for a whole run
 * @param startAtMs    the {@code --start-at} instant in epoch ms, which is then also {@code startEpochMs}; null
 *                     when the run started as soon as it was ready
 * @param runId        the run's identity ({@link io.loadgen.core.record.RunId}), also in its interval log; null
 *                     when unknown
 */
public record RunInfo(long startEpochMs, Long seed, Map<String, String> properties, Shard shard, Long startAtMs,
                      String runId) {
    /**
     * The JSON summary's schema: 1 is the first one that states it (and adds {@code version}, {@code start_time},
     * {@code seed} and {@code properties}); a summary without {@code schema_version} is older. Raised when a key
     * changes meaning or goes away; new keys alone do not raise it.
     */
    public static final int SCHEMA_VERSION = 1;

    /** Nothing known. */
    public static final RunInfo NONE = new RunInfo(0, null, null);

    /** A whole run's (no shard), started as soon as it was ready. */
    public RunInfo(long startEpochMs, Long seed, Map<String, String> properties) {
        this(startEpochMs, seed, properties, null, null);
    }

    /** A run whose identity is unknown. */
    public RunInfo(long startEpochMs, Long seed, Map<String, String> properties, Shard shard, Long startAtMs) {
        this(startEpochMs, seed, properties, shard, startAtMs, null);
    }

    public RunInfo {
        if (properties != null) {
            Map<String, String> shown = new TreeMap<>();
            properties.forEach((k, v) -> shown.put(k, Secrets.redactProperty(k, v)));
            properties = Collections.unmodifiableMap(shown);
        }
    }

    /** The start as an instant, or null when unknown. */
    public Instant start() {
        return startEpochMs > 0 ? Instant.ofEpochMilli(startEpochMs) : null;
    }

    /** The {@code --start-at} instant, or null when none was given. */
    public Instant startAt() {
        return startAtMs == null ? null : Instant.ofEpochMilli(startAtMs);
    }

    /** This loadgen's version, from its jar's manifest; {@code dev} when it runs from classes (a build, a test). */
    public static String loadgenVersion() {
        String v = RunInfo.class.getPackage().getImplementationVersion();
        return v != null ? v : "dev";
    }
}
