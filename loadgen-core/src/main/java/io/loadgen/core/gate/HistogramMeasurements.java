package io.loadgen.core.gate;

import io.loadgen.core.BadInputException;
import io.loadgen.core.record.StatusTags;
import io.loadgen.core.summary.HarnessVerdict;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Measurements held as histograms by interval-log tag ({@code READ.intended}, {@code READ.service},
 * {@code harness.lag}, and for a finished run {@code READ.corrected}), over a known span of time:
 * a time range or window of interval logs, or a whole run. Any percentile is computable. Reads
 * the map it is given, which must not change while it is used; one thread.
 */
final class HistogramMeasurements implements Measurements {
    private final String source;
    private final Map<String, Histogram> byTag;
    private final double spanSec;
    private final Map<String, Long> errors;
    private final String whyNoErrors;
    private final String whyNoCorrected;
    private HarnessVerdict verdict;
    private io.loadgen.core.diagnosis.Diagnosis diagnosis;

    /**
     * @param errors         errors by operation type, or null when the source does not record them
     * @param whyNoErrors    the message when errors are asked for and not recorded
     * @param whyNoCorrected the message when the corrected view is asked for and absent
     */
    HistogramMeasurements(String source, Map<String, Histogram> byTag, double spanSec, Map<String, Long> errors,
                          String whyNoErrors, String whyNoCorrected) {
        this.source = source;
        this.byTag = byTag;
        this.spanSec = spanSec;
        this.errors = errors;
        this.whyNoErrors = whyNoErrors;
        this.whyNoCorrected = whyNoCorrected;
    }

    /**
     * Measurements of interval logs: errors from the {@code OP.status} lines (none in a log written before
     * loadgen recorded them: then errors are unknown), and no corrected view.
     */
    static HistogramMeasurements ofLog(String source, Map<String, Histogram> byTag, double spanSec) {
        Map<String, Long> errors = null;
        for (Map.Entry<String, Histogram> e : byTag.entrySet()) {
            if (StatusTags.isStatusTag(e.getKey())) {
                if (errors == null) {
                    errors = new java.util.LinkedHashMap<>();
                }
                errors.put(StatusTags.operationOf(e.getKey()), StatusTags.errors(e.getValue()));
            }
        }
        return new HistogramMeasurements(source, byTag, spanSec, errors, LogSource.NO_ERRORS, LogSource.NO_CORRECTED);
    }

    /** Adds the diagnosis of the run these measurements are of (a finished run). Returns this. */
    HistogramMeasurements withDiagnosis(io.loadgen.core.diagnosis.Diagnosis diagnosis) {
        this.diagnosis = diagnosis;
        return this;
    }

    @Override
    public java.util.List<io.loadgen.core.diagnosis.CauseCode> causes() {
        if (diagnosis == null) {
            throw new BadInputException(LogSource.NO_DIAGNOSIS);
        }
        java.util.List<io.loadgen.core.diagnosis.CauseCode> codes = new java.util.ArrayList<>();
        diagnosis.causes().forEach(c -> codes.add(c.code()));
        return codes;
    }

    /** Adds the harness's verdict of the run these measurements are of (a finished run). Returns this. */
    HistogramMeasurements withVerdict(HarnessVerdict verdict) {
        this.verdict = verdict;
        return this;
    }

    @Override
    public HarnessVerdict harnessVerdict() {
        if (verdict == null) {
            throw new BadInputException(LogSource.NO_VERDICT);
        }
        return verdict;
    }

    @Override
    public String source() {
        return source;
    }

    @Override
    public List<String> operations() {
        List<String> ops = new ArrayList<>();
        for (String tag : byTag.keySet()) {
            String op = operationOf(tag);
            if (op != null && !ops.contains(op)) {
                ops.add(op);
            }
        }
        return ops;
    }

    /** The operation type a tag belongs to ({@code READ} for {@code READ.intended} and {@code READ.failed.intended}), or null. */
    static String operationOf(String tag) {
        if (tag == null || tag.startsWith("harness.")) {
            return null;
        }
        int dot = tag.lastIndexOf('.');
        if (dot <= 0 || GateView.ofOperation(tag.substring(dot + 1)) == null) {
            return null;
        }
        String op = tag.substring(0, dot);
        String failed = "." + io.loadgen.core.record.View.FAILED;
        return op.endsWith(failed) && op.length() > failed.length() ? op.substring(0, op.length() - failed.length()) : op;
    }

    @Override
    public boolean has(String op, GateView view) {
        return byTag.containsKey(view.tag(op));
    }

    @Override
    public double latency(String op, GateView view, Stat stat) {
        Histogram h = byTag.get(view.tag(op));
        if (h == null) {
            throw new BadInputException(view == GateView.CORRECTED ? whyNoCorrected
                    : view == GateView.LAG ? source + " has no harness.lag (the run had no --target, so no schedule)"
                    : source + " has no " + view.tag(op));
        }
        return stat.valueIn(h);
    }

    /** Operations completed, whatever their status: the successes' and the failures' counts. */
    @Override
    public long count(String op) {
        return count(op, GateView.INTENDED, GateView.SERVICE) + count(op, GateView.FAILED_INTENDED, GateView.FAILED_SERVICE);
    }

    private long count(String op, GateView view, GateView otherwise) {
        Histogram h = byTag.get(view.tag(op));
        if (h == null) {
            h = byTag.get(otherwise.tag(op));
        }
        return h == null ? 0 : h.getTotalCount();
    }

    @Override
    public long errors(String op) {
        if (errors == null) {
            throw new BadInputException(whyNoErrors);
        }
        return errors.getOrDefault(op, 0L);
    }

    /** The time the measured intervals cover. */
    @Override
    public double seconds() {
        return spanSec;
    }

    /** Operations of {@code op} that returned OK: its success series (the failed ones are apart). */
    @Override
    public long succeeded(String op) {
        return count(op, GateView.INTENDED, GateView.SERVICE);
    }
}
