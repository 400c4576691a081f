package io.loadgen.core.gate;

import java.util.List;

/**
 * One body of measurements that rules are judged against: a JSON summary, a time range or window
 * of interval logs, or a finished run. Implementations are read on one thread at a time.
 *
 * <p>Methods throw {@link io.loadgen.core.BadInputException} (without the rule, which the caller adds)
 * when the source cannot hold what is asked, e.g. a percentile a JSON summary lacks or errors in an
 * interval log; they return NaN when the source could hold it but measured nothing.
 */
interface Measurements {
    /** Names the source in messages and reports, e.g. {@code out.json}. */
    String source();

    /** The operation types present, in the source's order. */
    List<String> operations();

    /** Whether {@code view} of {@code op} (ignored for lag) is present. */
    boolean has(String op, GateView view);

    /** {@code stat} of {@code view} of {@code op} (null for lag): ns, or a count; NaN when nothing was measured. */
    double latency(String op, GateView view, Stat stat);

    /** Operations of {@code op} completed. */
    long count(String op);

    /** Operations of {@code op} that returned anything but OK. */
    long errors(String op);

    /** Operations of {@code op} that returned OK. */
    long succeeded(String op);

    /** The measured time the counts are over, in seconds; 0 or less when unknown. */
    double seconds();

    /**
     * Operations of {@code op} (all types together when null) that succeeded, per second; NaN for no time. Failed
     * operations are left out: a run whose target answered most requests with errors did not deliver that rate.
     */
    default double throughput(String op) {
        double seconds = seconds();
        if (!(seconds > 0)) {
            return Double.NaN;
        }
        if (op != null) {
            return succeeded(op) / seconds;
        }
        long total = 0;
        for (String o : operations()) {
            total += succeeded(o);
        }
        return total / seconds;
    }

    /** The harness's verdict on the run; throws when the source holds none (an interval log). */
    io.loadgen.core.summary.HarnessVerdict harnessVerdict();

    /**
     * The codes of the run's diagnosis, most important first; throws when the source holds none (an interval
     * log, a JSON summary from before diagnoses or made from a log).
     */
    java.util.List<io.loadgen.core.diagnosis.CauseCode> causes();
}
