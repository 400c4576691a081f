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

    /** One line for a failure message: what was observed against what limit. */
    public String message() {
        return rule + ": observed " + observed + ", limit " + limit + (passed ? "" : " (failed)");
    }

    Verdict withLimit(String text) {
        return new Verdict(rule, observed, text, passed);
    }
}
