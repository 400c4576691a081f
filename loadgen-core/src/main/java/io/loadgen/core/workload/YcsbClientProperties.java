package io.loadgen.core.workload;

import io.loadgen.core.BadInputException;
import io.loadgen.core.Limits;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * YCSB's own client, measurement and Redis-binding properties, as YCSB's files and command lines carry them
 * (its {@code workload_template} sets several): translated where they mean something here, set aside where
 * they do not, so such a file runs. Stateless; any thread.
 *
 * <ul>
 *   <li>{@code redis.host}, {@code redis.port} and {@code redis.password} (YCSB's Redis binding) become
 *       {@code redis.uri}; {@code redis.cluster} is the {@code redis} driver's own, meaning what it means to
 *       YCSB.</li>
 *   <li>{@code status.interval} (seconds) is the status-line period, {@code --interval}.</li>
 *   <li>{@link #NO_EFFECT} (and every key under {@code measurement.}, {@code hdrhistogram.},
 *       {@code timeseries.}) shape YCSB's own measurement and output, or options of other bindings: loadgen
 *       always records HdrHistograms and prints its own summary, so they are removed and named once.</li>
 * </ul>
 * For a driver that passes properties through to a YCSB binding (the {@code ycsb} driver), every key but
 * {@code status.interval} stays, as YCSB's client gives them all to its DB: the Redis binding reads
 * {@code redis.host}, HBase's {@code columnfamily}. Only the measurement and output keys are named, as having no
 * effect.
 */
public final class YcsbClientProperties {
    /** YCSB's keys that have no effect here; listed in a warning, never passed to a driver. */
    static final Set<String> NO_EFFECT = Set.of("measurementtype", "exporter", "exportfile", "histogram.buckets",
            "reportlatencyforeacherror", "latencytrackederrors", "status", "label", "dotransactions", "columnfamily",
            "core_workload_insertion_retry_limit", "core_workload_insertion_retry_interval", "dataintegrity",
            "maxscanrate", "scanoptimelimit", "discardscannedrecord");
    private static final List<String> NO_EFFECT_PREFIXES = List.of("measurement.", "hdrhistogram.", "timeseries.");
    /** Of {@link #NO_EFFECT}, the bindings' own options: a binding the {@code ycsb} driver runs reads them. */
    private static final Set<String> BINDING_OPTIONS = Set.of("columnfamily", "redis.cluster");
    private static final String HOST = "redis.host";
    private static final String PORT = "redis.port";
    private static final String PASSWORD = "redis.password";
    private static final String URI = "redis.uri";
    private static final String STATUS_INTERVAL = "status.interval";

    private YcsbClientProperties() {
    }

    /**
     * What the properties mean here.
     *
     * @param properties     the properties without YCSB's own, {@code redis.host}/{@code redis.port} as {@code redis.uri}
     * @param statusInterval {@code status.interval}, when given
     * @param noEffect       YCSB's keys that were given and have no effect here, in their order
     */
    public record Translation(Map<String, String> properties, Optional<Duration> statusInterval,
                              List<String> noEffect) {
    }

    /**
     * Translates {@code props} (unchanged).
     *
     * @throws BadInputException for a {@code redis.host} next to a {@code redis.uri}, or a {@code status.interval}
     *                           that is not a whole number of seconds
     */
    public static Translation translate(Map<String, String> props) {
        return translate(props, false);
    }

    /**
     * Translates {@code props} (unchanged) for a driver that passes them through to a YCSB binding when
     * {@code passThrough}: then every key but {@code status.interval} stays, and only the measurement and output
     * keys are named as having no effect.
     *
     * @throws BadInputException as {@link #translate(Map)} does; with {@code passThrough}, only for a
     *                           {@code status.interval} that is not a whole number of seconds
     */
    public static Translation translate(Map<String, String> props, boolean passThrough) {
        if (passThrough) {
            Map<String, String> all = new LinkedHashMap<>(props);
            all.remove(STATUS_INTERVAL);
            List<String> noEffect = props.keySet().stream().filter(k -> !BINDING_OPTIONS.contains(k)
                    && (NO_EFFECT.contains(k) || NO_EFFECT_PREFIXES.stream().anyMatch(k::startsWith))).toList();
            return new Translation(Collections.unmodifiableMap(all), statusInterval(props.get(STATUS_INTERVAL)),
                    noEffect);
        }
        Map<String, String> rest = new LinkedHashMap<>();
        List<String> noEffect = new ArrayList<>();
        props.forEach((k, v) -> {
            if (NO_EFFECT.contains(k) || NO_EFFECT_PREFIXES.stream().anyMatch(k::startsWith)) {
                noEffect.add(k);
            } else if (!k.equals(HOST) && !k.equals(PORT) && !k.equals(PASSWORD) && !k.equals(STATUS_INTERVAL)) {
                rest.put(k, v);
            }
        });
        if (props.containsKey(HOST) || props.containsKey(PORT) || props.containsKey(PASSWORD)) {
            if (props.containsKey(URI)) {
                throw new BadInputException("give the Redis server either as redis.uri or as YCSB's redis.host and"
                        + " redis.port, not both");
            }
            String password = props.get(PASSWORD);
            rest.put(URI, "redis://" + (password == null || password.isEmpty() ? "" : ":" + password.trim() + "@")
                    + props.getOrDefault(HOST, "127.0.0.1").trim() + ":" + props.getOrDefault(PORT, "6379").trim());
        }
        return new Translation(Collections.unmodifiableMap(rest), statusInterval(props.get(STATUS_INTERVAL)),
                List.copyOf(noEffect));
    }

    private static Optional<Duration> statusInterval(String seconds) {
        if (seconds == null) {
            return Optional.empty();
        }
        try {
            long s = Long.parseLong(seconds.trim());
            if (s >= 1) {
                return Optional.of(Duration.ofSeconds(s));
            }
        } catch (NumberFormatException e) {
            // falls through to the message below
        }
        throw new BadInputException("property status.interval: '" + Limits.quote(seconds) + "' is not a whole number"
                + " of seconds of at least 1 (YCSB's status period; or give --interval, e.g. --interval 10s)");
    }
}
