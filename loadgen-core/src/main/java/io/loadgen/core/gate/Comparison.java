package io.loadgen.core.gate;

/** A rule's comparison between the observed value and its limit. Immutable. */
public enum Comparison {
    LESS("<"),
    LESS_OR_EQUAL("<="),
    GREATER(">"),
    GREATER_OR_EQUAL(">="),
    /** Only for {@code harness.verdict}: the verdict is the one named. */
    EQUAL("=="),
    /** Only for {@code harness.verdict}: the verdict is not the one named. */
    NOT_EQUAL("!=");

    private final String symbol;

    Comparison(String symbol) {
        this.symbol = symbol;
    }

    public String symbol() {
        return symbol;
    }

    /** Whether {@code observed} meets the limit; NaN (nothing measured) never does. */
    public boolean holds(double observed, double limit) {
        return switch (this) {
            case LESS -> observed < limit;
            case LESS_OR_EQUAL -> observed <= limit;
            case GREATER -> observed > limit;
            case GREATER_OR_EQUAL -> observed >= limit;
            case EQUAL -> observed == limit;
            case NOT_EQUAL -> !Double.isNaN(observed) && observed != limit;
        };
    }

    /** True for {@code <} and {@code <=}: the limit is a ceiling, so the worst value is the highest. */
    public boolean isCeiling() {
        return this == LESS || this == LESS_OR_EQUAL;
    }

    /** True for {@code ==} and {@code !=}, which compare a verdict, not a quantity. */
    public boolean isEquality() {
        return this == EQUAL || this == NOT_EQUAL;
    }

    /** The comparison a symbol names, or null. */
    static Comparison of(String symbol) {
        for (Comparison c : values()) {
            if (c.symbol.equals(symbol)) {
                return c;
            }
        }
        return null;
    }
}
