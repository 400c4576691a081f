package io.loadgen.core.run;

/**
 * How the status line reads ({@code --status}): {@link #HUMAN}, the default, one short line per interval with
 * every number's unit; or {@link #YCSB}, YCSB's own line (values in µs, every percentile), for people and scripts
 * used to it ({@code --status ycsb}, or YCSB's {@code -s}).
 */
public enum StatusFormat {
    /** One line a person reads at a glance: rate against target, the worst type's p99s, errors, lateness. */
    HUMAN,
    /** YCSB's status line, as YCSB prints it, plus loadgen's blocks (returns, driver counters, behind schedule). */
    YCSB
}
