package io.loadgen.core.gate;

/**
 * The outcome of one rule (for one operation type, when the rule names {@code *}): one row of the
 * gate table and one JUnit test case. Immutable.
 *
 * @param rule     the rule's name, e.g. {@code READ.intended.p99 < 5ms}
 * @param observed what was measured, for a person, e.g. {@code 41.2 ms @ 120-130 s, 1 of 360 windows failed}
 * @param limit    the comparison and limit, e.g. {@code < 5 ms}
 * @param passed   whether the rule held
 */
public record Verdict(String rule, String observed, String limit, boolean passed) {
    private static final String INPUT_RULE = "input intact: ";

    /**
     * The row that fails a gate on damaged input: a gate judges only complete data (see
     * {@link io.loadgen.core.log.LogIntegrity}).
     */
    public static Verdict damagedInput(String source, String what) {
        return new Verdict(INPUT_RULE + source, what, "intact", false);
    }

    /** Whether this row is the input check of {@link #damagedInput}, not a rule. */
    public boolean isInputCheck() {
        return rule.startsWith(INPUT_RULE);
    }

    /** For an input check's row, the input it is about (a file's name); else the rule. */
    public String subject() {
        return isInputCheck() ? rule.substring(INPUT_RULE.length()) : rule;
    }

    /** One line for a failure message: what was observed against what limit. */
    public String message() {
        return rule + ": observed " + observed + ", limit " + limit + (passed ? "" : " (failed)");
    }

    Verdict withLimit(String text) {
        return new Verdict(rule, observed, text, passed);
    }
}
