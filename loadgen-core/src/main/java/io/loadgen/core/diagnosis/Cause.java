package io.loadgen.core.diagnosis;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One cause of a {@link Diagnosis}: its stable code, one sentence for a person, and the figures behind the
 * sentence (JSON numbers, keyed with their unit: {@code intended_p99_ms}, {@code in_flight_needed}). Immutable.
 *
 * @param code    what kind of cause
 * @param text    the sentence, with its figures in it
 * @param figures the figures, in the order the sentence uses them
 */
public record Cause(CauseCode code, String text, Map<String, Number> figures) {
    public Cause {
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(text, "text");
        figures = Collections.unmodifiableMap(new LinkedHashMap<>(figures));
    }
}
