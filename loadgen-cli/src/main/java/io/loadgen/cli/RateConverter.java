package io.loadgen.cli;

import io.loadgen.core.BadInputException;
import io.loadgen.core.Limits;
import io.loadgen.core.schedule.Rates;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Reads a rate in ops/s: {@code 2500}, {@code 10k}, {@code 1.5k}, {@code 2M}; picocli reports the error with the option's name. */
final class RateConverter implements ITypeConverter<Double> {
    @Override
    public Double convert(String value) {
        try {
            return Rates.parse(value, "rate");
        } catch (BadInputException e) {
            throw new TypeConversionException("'" + Limits.quote(value) + "' is not a rate; write " + Rates.FORM);
        }
    }
}
