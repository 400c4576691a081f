package io.loadgen.cli;

import io.loadgen.core.BadInputException;
import io.loadgen.core.time.Durations;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Reads a time offset in seconds: a plain number ({@code 30}, as HistogramLogProcessor takes it) or a duration ({@code 2m}). */
final class SecondsConverter implements ITypeConverter<Double> {
    @Override
    public Double convert(String value) {
        String v = value.trim();
        if (v.matches("[-+]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]+)?")) { // as Double.parseDouble reads HLP's numbers
            return Double.parseDouble(v);
        }
        try {
            return Durations.parse(v, "time").toNanos() / 1e9;
        } catch (BadInputException e) {
            throw new TypeConversionException("'" + value + "' is not a time; write seconds (e.g. 30) or a duration"
                    + " with a unit (e.g. 90s, 2m)");
        }
    }
}
