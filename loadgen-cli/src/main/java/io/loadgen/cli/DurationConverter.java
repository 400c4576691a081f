package io.loadgen.cli;

import io.loadgen.core.BadInputException;
import io.loadgen.core.Limits;
import io.loadgen.core.time.Durations;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.time.Duration;

/**
 * Reads {@code 250us}, {@code 4ms}, {@code 30s}, {@code 2m}, {@code 1m30s}; picocli reports the error with the
 * option's name.
 */
final class DurationConverter implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
        try {
            return Durations.parse(value, "duration");
        } catch (BadInputException e) {
            if (value.trim().startsWith("-")) {
                throw new TypeConversionException("'" + Limits.quote(value) + "' must be positive, e.g. 30s");
            }
            throw new TypeConversionException("'" + Limits.quote(value) + "' is not a duration; write a number with a"
                    + " unit: ns, us, ms, s, m or h (e.g. 500ms, 30s, 1m30s)");
        }
    }
}
