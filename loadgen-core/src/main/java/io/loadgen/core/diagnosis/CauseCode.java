package io.loadgen.core.diagnosis;

import java.util.Locale;

/**
 * What shaped a run's numbers: the stable codes of a {@link Diagnosis}, as JSON ({@code diagnosis.causes[].code})
 * and gate rules ({@code diagnosis != harness_stalled}) name them. Which evidence names each is
 * {@link Diagnoser}'s to say; the order here is no ranking.
 */
public enum CauseCode {
    /** Nothing but the target's own latency: it kept up with the schedule, nothing failed, the harness was on time. */
    OK,
    /** The target's latency or capacity made operations wait behind each other: intended grew with service time. */
    TARGET_SLOW,
    /** The target stopped answering for a span (a pause, a freeze) while the workers were on time. */
    TARGET_STALLED,
    /** More of the operations failed than the run allows ({@code --max-error-rate}). */
    TARGET_FAILING,
    /** Threads x in-flight could not carry the target rate at the latency observed (Little's law). */
    CONCURRENCY_LIMITED,
    /** The generator could not issue this fast: its own work took the workers' time while they were behind. */
    HARNESS_SATURATED,
    /** The generator itself stopped (its GC, its threads not scheduled): worker lateness the target does not explain. */
    HARNESS_STALLED,
    /** The platform stalled a sleeping thread of the harness, but no worker was delayed by it: context, never blame. */
    MACHINE_NOISE;

    /** The code as JSON and gate rules write it: {@code target_slow}. */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The code a key names, regardless of case; null when none does. */
    public static CauseCode ofKey(String key) {
        for (CauseCode c : values()) {
            if (c.key().equalsIgnoreCase(key.trim())) {
                return c;
            }
        }
        return null;
    }

    /** Whether this cause lays the numbers at the harness's door (so {@code harness.verdict} is {@code behind}). */
    public boolean blamesHarness() {
        return this == HARNESS_SATURATED || this == HARNESS_STALLED;
    }

    /** Every key, for messages: {@code ok, target_slow, ...}. */
    public static String keys() {
        StringBuilder sb = new StringBuilder();
        for (CauseCode c : values()) {
            sb.append(sb.length() == 0 ? "" : ", ").append(c.key());
        }
        return sb.toString();
    }
}
