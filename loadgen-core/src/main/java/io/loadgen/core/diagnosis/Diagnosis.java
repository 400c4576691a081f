package io.loadgen.core.diagnosis;

import java.util.List;

/**
 * What a run's numbers mean: the causes that shaped them, most important first, and one headline sentence
 * for the end of the run. Made by {@link Diagnoser#diagnose} from a run's {@link Evidence}; immutable.
 * A run with nothing to blame has one cause, {@link CauseCode#OK}, perhaps followed by
 * {@link CauseCode#MACHINE_NOISE} as context.
 *
 * @param causes   most important first; never empty
 * @param headline one sentence naming the primary cause with its figures
 */
public record Diagnosis(List<Cause> causes, String headline) {
    public Diagnosis {
        causes = List.copyOf(causes);
        if (causes.isEmpty()) {
            throw new IllegalArgumentException("a diagnosis has at least one cause");
        }
    }

    /** The most important cause. */
    public Cause primary() {
        return causes.get(0);
    }

    /** Whether {@code code} is one of the causes. */
    public boolean has(CauseCode code) {
        for (Cause c : causes) {
            if (c.code() == code) {
                return true;
            }
        }
        return false;
    }

    /** The cause with {@code code}, or null. */
    public Cause get(CauseCode code) {
        for (Cause c : causes) {
            if (c.code() == code) {
                return c;
            }
        }
        return null;
    }

    /** Whether any cause blames the harness (then {@code harness.verdict} is {@code behind}). */
    public boolean blamesHarness() {
        for (Cause c : causes) {
            if (c.code().blamesHarness()) {
                return true;
            }
        }
        return false;
    }
}
