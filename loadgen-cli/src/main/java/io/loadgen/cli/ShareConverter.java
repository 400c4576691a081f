package io.loadgen.cli;

import io.loadgen.core.Limits;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Reads a share of the operations: {@code 0.05} or {@code 5%}, from 0 to 1 (100%); picocli names the option. */
final class ShareConverter implements ITypeConverter<Double> {
    static final String FORM = "a share from 0 to 1, e.g. 0.05, or a percentage, e.g. 5%";

    @Override
    public Double convert(String value) {
        String v = value.trim();
        boolean percent = v.endsWith("%");
        double share;
        try {
            share = Double.parseDouble(percent ? v.substring(0, v.length() - 1).trim() : v);
        } catch (NumberFormatException e) {
            throw new TypeConversionException("'" + Limits.quote(value) + "' is not a share; write " + FORM);
        }
        share = percent ? share / 100 : share;
        if (!(share >= 0 && share <= 1)) {
            throw new TypeConversionException("'" + Limits.quote(value) + "' is outside 0..1; write " + FORM);
        }
        return share;
    }
}
