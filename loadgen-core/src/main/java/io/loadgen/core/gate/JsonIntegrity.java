package io.loadgen.core.gate;

import com.fasterxml.jackson.databind.JsonNode;
import io.loadgen.core.summary.RunInfo;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * What in a JSON summary contradicts itself, so a gate refuses to judge it (as it refuses a damaged log): a
 * schema newer than this loadgen reads, a negative count or latency, more failures than operations, a view that
 * holds more operations than the type completed, percentiles out of order (p99 above max, below min). A summary
 * loadgen wrote has none of these; one that was edited by hand, cut, or merged by another tool may. Stateless;
 * any thread.
 */
final class JsonIntegrity {
    /** A view's statistics in the order their values must rise. */
    private static final String[] ORDER = {"min_us", "p50_us", "p90_us", "p95_us", "p99_us", "p99_9_us", "p99_99_us",
        "max_us"};
    private static final String[] VIEWS = {"intended", "service", "corrected"};

    private JsonIntegrity() {
    }

    /** Every contradiction found, one phrase each, e.g. {@code READ.intended p99_us 5000 is above its max_us 4000}. */
    static List<String> contradictions(JsonNode root) {
        List<String> found = new ArrayList<>();
        JsonNode schema = root.get("schema_version");
        if (schema != null && !schema.isNull()) {
            if (!schema.canConvertToInt()) {
                found.add("schema_version " + schema + " is not a whole number");
            } else if (schema.asInt() > RunInfo.SCHEMA_VERSION || schema.asInt() < 1) {
                found.add("schema_version " + schema.asInt() + " is not one this loadgen reads (1 to "
                        + RunInfo.SCHEMA_VERSION + ")");
            }
        }
        Iterator<Map.Entry<String, JsonNode>> ops = root.path("operations").fields();
        while (ops.hasNext()) {
            Map.Entry<String, JsonNode> op = ops.next();
            operation(op.getKey(), op.getValue(), found);
        }
        JsonNode lag = root.path("harness").get("lag");
        if (lag != null && lag.isObject()) {
            view("harness.lag", lag, Long.MAX_VALUE, found);
        }
        return found;
    }

    private static void operation(String name, JsonNode op, List<String> found) {
        long count = op.path("count").asLong(0);
        if (count < 0) {
            found.add(name + ".count " + count + " is negative");
        }
        JsonNode errors = op.get("errors");
        if (errors != null && errors.isNumber()) {
            if (errors.asLong() < 0) {
                found.add(name + ".errors " + errors.asLong() + " is negative");
            } else if (errors.asLong() > count) {
                found.add(name + ".errors " + errors.asLong() + " is above its count " + count);
            }
        }
        for (String v : VIEWS) {
            JsonNode view = op.get(v);
            if (view != null && view.isObject()) {
                view(name + "." + v, view, v.equals("corrected") ? Long.MAX_VALUE : count, found);
            }
        }
        JsonNode failed = op.get("failed");
        if (failed != null && failed.isObject()) {
            for (String v : new String[]{"intended", "service"}) {
                JsonNode view = failed.get(v);
                if (view != null && view.isObject()) {
                    view(name + ".failed." + v, view, count, found);
                }
            }
        }
    }

    /** A view's own order and sign, and that it holds no more than {@code most} operations. */
    private static void view(String name, JsonNode view, long most, List<String> found) {
        long count = view.path("count").asLong(0);
        if (count < 0) {
            found.add(name + ".count " + count + " is negative");
        } else if (count > most) {
            found.add(name + ".count " + count + " is above the type's count " + most);
        }
        if (count <= 0) {
            return;
        }
        String previous = null;
        double previousValue = 0;
        for (String stat : ORDER) {
            JsonNode value = view.get(stat);
            if (value == null || !value.isNumber()) {
                continue;
            }
            double v = value.asDouble();
            if (v < 0) {
                found.add(name + " " + stat + " " + value.asText() + " is negative");
            } else if (previous != null && v < previousValue) {
                found.add(name + " " + previous + " " + number(previousValue) + " is above its " + stat + " "
                        + number(v));
            }
            previous = stat;
            previousValue = v;
        }
        JsonNode mean = view.get("mean_us");
        if (mean != null && mean.isNumber() && mean.asDouble() < 0) {
            found.add(name + " mean_us " + mean.asText() + " is negative");
        }
    }

    private static String number(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
