package io.loadgen.core.gate;

import com.fasterxml.jackson.databind.JsonNode;
import io.loadgen.core.BadInputException;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads k6's {@code thresholds} object as gate rules, so a k6 user's file works as it is:
 * <pre>
 * {"http_req_duration": ["p(99)&lt;200", "avg&lt;100"], "http_req_failed": ["rate&lt;0.01"]}
 * </pre>
 * {@code http_req_duration} is each operation type's intended latency (plain numbers in k6's milliseconds),
 * {@code http_req_failed} the share of operations that failed ({@code error_rate}), {@code http_reqs}'s rate the
 * throughput; a {@code {name:OP}} tag narrows a metric to the operation type OP. Anything else (other k6 metrics,
 * other tags, {@code abortOnFail}) is refused with the rule to write in loadgen's form. Stateless; any thread.
 */
final class K6Thresholds {
    private static final Pattern METRIC = Pattern.compile("([a-z_]+)(?:\\{name:([A-Za-z0-9_-]+)})?");
    private static final Pattern EXPRESSION = Pattern.compile("\\s*([a-z]+(?:\\([0-9.]+\\))?)\\s*(<=|>=|<|>)\\s*(.+)");
    private static final String FORMS = "http_req_duration (p(99), avg, med, min, max), http_req_failed (rate) and"
            + " http_reqs (rate), optionally tagged {name:OP}";

    private K6Thresholds() {
    }

    /** The rules of a k6 {@code thresholds} object, in its order. */
    static List<Rule> read(Path file, JsonNode thresholds) {
        if (thresholds == null || !thresholds.isObject() || thresholds.isEmpty()) {
            throw new BadInputException(file + ": expected a list of rules, or k6 thresholds such as"
                    + " {\"http_req_duration\": [\"p(99)<200\"]}");
        }
        List<Rule> rules = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = thresholds.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            for (String expression : expressions(file, e.getKey(), e.getValue())) {
                try {
                    rules.add(RuleParser.parse(translate(e.getKey(), expression)));
                } catch (BadInputException bad) {
                    throw new BadInputException(file + ": k6 threshold " + e.getKey() + " '" + expression + "': "
                            + bad.getMessage(), bad);
                }
            }
        }
        return rules;
    }

    private static List<String> expressions(Path file, String metric, JsonNode value) {
        List<String> list = new ArrayList<>();
        Iterable<JsonNode> items = value.isArray() ? value : List.of(value);
        for (JsonNode item : items) {
            if (item.isTextual()) {
                list.add(item.asText());
            } else if (item.isObject() && item.path("threshold").isTextual() && !item.has("abortOnFail")) {
                list.add(item.get("threshold").asText());
            } else {
                throw new BadInputException(file + ": k6 threshold " + metric + ": give expressions as strings, e.g."
                        + " [\"p(99)<200\"]; abortOnFail is loadgen's 'run --gate \"*.intended.p99 < 200ms over 10s"
                        + " windows abort-on-fail\"'");
            }
        }
        return list;
    }

    /** One k6 expression on one k6 metric, in loadgen's syntax. */
    static String translate(String metric, String expression) {
        Matcher m = METRIC.matcher(metric);
        Matcher x = EXPRESSION.matcher(expression);
        if (!m.matches()) {
            throw new BadInputException("k6's tags other than {name:OP} have no counterpart here; loadgen reads "
                    + FORMS);
        }
        if (!x.matches()) {
            throw new BadInputException("not a k6 threshold expression; write e.g. p(99)<200 or rate<0.01");
        }
        String op = m.group(2) == null ? Metric.EVERY_OP : m.group(2);
        String stat = x.group(1).toLowerCase(Locale.ROOT);
        Comparison cmp = Comparison.of(x.group(2));
        boolean rate = stat.equals("rate");
        switch (m.group(1)) {
            case "http_req_duration":
                if (!rate && !stat.equals("count")) {
                    return RuleParser.fromK6(expression, op, stat, cmp, x.group(3).trim());
                }
                break;
            case "http_req_failed":
                if (rate) {
                    return RuleParser.fromK6(expression, op, stat, cmp, x.group(3).trim());
                }
                break;
            case "http_reqs":
                if (rate) {
                    return (op.equals(Metric.EVERY_OP) ? "" : op + ".") + "throughput " + cmp.symbol() + " "
                            + x.group(3).trim() + "/s";
                }
                break;
            default:
                throw new BadInputException("the k6 metric " + m.group(1) + " has no counterpart here; loadgen reads "
                        + FORMS + ", or write loadgen's rule, e.g. '*.intended.p99 < 200ms'");
        }
        throw new BadInputException("k6's " + m.group(1) + " takes no '" + stat + "' here; loadgen reads " + FORMS
                + ", or write loadgen's rule, e.g. '" + (op.equals(Metric.EVERY_OP) ? "" : op + ".")
                + "throughput > 100/s' or '*.intended.count > 1000'");
    }
}
