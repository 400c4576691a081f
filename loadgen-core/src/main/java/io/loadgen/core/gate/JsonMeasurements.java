package io.loadgen.core.gate;

import com.fasterxml.jackson.databind.JsonNode;
import io.loadgen.core.BadInputException;
import io.loadgen.core.summary.HarnessVerdict;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Measurements read from a JSON summary ({@code loadgen run --json}; the schema of
 * {@link io.loadgen.core.summary.JsonSummary}). It holds p50, p90, p95, p99, p99.9, p99.99, min,
 * max, mean and count of each view; other percentiles are bad input, pointing at the interval log.
 * Immutable after construction.
 */
final class JsonMeasurements implements Measurements {
    private static final double NS_PER_US = 1_000.0;

    private final String source;
    private final JsonNode root;
    private final JsonNode operations;

    /** @throws BadInputException when {@code root} is not a loadgen summary */
    JsonMeasurements(String source, JsonNode root) {
        this.source = source;
        this.root = root;
        this.operations = root == null ? null : root.get("operations");
        if (operations == null || !operations.isObject()) {
            throw new BadInputException(source + " is JSON but not a loadgen summary (it has no 'operations');"
                    + " write one with loadgen run --json FILE");
        }
    }

    @Override
    public String source() {
        return source;
    }

    @Override
    public List<String> operations() {
        List<String> ops = new ArrayList<>();
        for (Iterator<String> it = operations.fieldNames(); it.hasNext(); ) {
            ops.add(it.next());
        }
        return ops;
    }

    @Override
    public boolean has(String op, GateView view) {
        JsonNode node = viewNode(op, view);
        return node != null && node.isObject();
    }

    @Override
    public double latency(String op, GateView view, Stat stat) {
        if (!has(op, view)) {
            throw new BadInputException(missing(op, view));
        }
        JsonNode node = viewNode(op, view);
        String key = stat.jsonKey();
        if (key == null) {
            throw new BadInputException(source + " holds " + Stat.JSON_LIST + "; for " + stat.name()
                    + " gate on the run's interval log (loadgen run --hlog), which holds every percentile");
        }
        long count = node.path("count").asLong(0);
        if (stat.kind() == Stat.Kind.COUNT) {
            return count;
        }
        JsonNode value = node.get(key);
        if (count == 0 || value == null || !value.isNumber()) {
            return Double.NaN;
        }
        return value.asDouble() * NS_PER_US;
    }

    @Override
    public long count(String op) {
        return operations.path(op).path("count").asLong(0);
    }

    @Override
    public long errors(String op) {
        JsonNode errors = operations.path(op).get("errors");
        if (errors == null || !errors.isNumber()) {
            throw new BadInputException(source + " has no error count for " + op + " (loadgen report made it from a"
                    + " log without OP.status lines); gate errors on the run's own JSON (loadgen run --json)");
        }
        return errors.asLong();
    }

    /** The run's measured time, {@code duration_s}; 0 when the summary has none. */
    @Override
    public double seconds() {
        return root.path("duration_s").asDouble(0);
    }

    /**
     * Operations of {@code op} that returned OK: the views' count (they hold the successes), else count less
     * errors.
     */
    @Override
    public long succeeded(String op) {
        JsonNode views = operations.path(op).path("service").path("count");
        if (views.isNumber()) {
            return views.asLong();
        }
        JsonNode errors = operations.path(op).get("errors");
        return count(op) - (errors != null && errors.isNumber() ? errors.asLong() : 0);
    }

    /** From {@code diagnosis.causes[].code}. */
    @Override
    public List<io.loadgen.core.diagnosis.CauseCode> causes() {
        JsonNode causes = root.path("diagnosis").get("causes");
        if (causes == null || !causes.isArray()) {
            throw new BadInputException(source + " has no diagnosis (" + (root.has("diagnosis")
                    ? "it was made from an interval log" : "an older loadgen wrote it")
                    + "); gate on the JSON summary of a run (loadgen run --json), or on the run itself (run --gate)");
        }
        List<io.loadgen.core.diagnosis.CauseCode> codes = new ArrayList<>();
        for (JsonNode c : causes) {
            io.loadgen.core.diagnosis.CauseCode code = io.loadgen.core.diagnosis.CauseCode.ofKey(c.path("code").asText(""));
            if (code != null) {
                codes.add(code);
            }
        }
        return codes;
    }

    /** From {@code harness.verdict}, {@code harness.verdict_reasons} and {@code harness.verdict_text}. */
    @Override
    public HarnessVerdict harnessVerdict() {
        JsonNode harness = root.path("harness");
        JsonNode status = harness.get("verdict");
        if (status == null || !status.isTextual()) {
            throw new BadInputException(source + " has no harness.verdict (" + (status == null
                    ? "an older loadgen wrote it" : "it was made from an interval log")
                    + "); gate on the JSON summary of a run (loadgen run --json), or on the run itself (run --gate)");
        }
        List<HarnessVerdict.Reason> reasons = new ArrayList<>();
        for (JsonNode reason : harness.path("verdict_reasons")) {
            for (HarnessVerdict.Reason r : HarnessVerdict.Reason.values()) {
                if (r.key().equals(reason.asText())) {
                    reasons.add(r);
                }
            }
        }
        return new HarnessVerdict(HarnessVerdict.HEALTHY.equals(status.asText()), reasons,
                harness.path("verdict_text").asText(""));
    }

    private JsonNode viewNode(String op, GateView view) {
        if (view == GateView.LAG) {
            return root.path("harness").get("lag");
        }
        JsonNode series = view.failed() ? operations.path(op).path(io.loadgen.core.record.View.FAILED) : operations.path(op);
        return series.get(view == GateView.FAILED_INTENDED ? "intended" : view == GateView.FAILED_SERVICE ? "service"
                : view.key());
    }

    private String missing(String op, GateView view) {
        boolean unthrottled = !root.path("throttled").asBoolean(true);
        JsonNode note = root.get("corrected_note");
        String why = view.failed() ? " (it was made from a log that did not keep failures apart)"
                : unthrottled ? " (the run had no --target, so there is no schedule to measure it against)"
                : view == GateView.CORRECTED && note != null && note.isTextual()
                ? " (not applicable: " + note.asText() + "; gate on intended)" : "";
        return view == GateView.LAG ? source + " has no harness.lag" + why
                : source + " has no " + view.key() + " view for " + op + why;
    }
}
