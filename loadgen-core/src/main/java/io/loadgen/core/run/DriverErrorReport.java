package io.loadgen.core.run;

import io.loadgen.core.Secrets;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Logs, once per interval in which it happened, how many exceptions the driver threw (each is counted as
 * an ERROR) and the last one, secrets redacted; the stack trace at debug level. The workers only count
 * and keep the last exception (no logging on the hot path); this sink reads them. Aggregator thread.
 */
final class DriverErrorReport implements IntervalSink {
    private static final Logger LOG = LogManager.getLogger(DriverErrorReport.class);

    private final LoadThread[] workers;
    private long reported;

    DriverErrorReport(LoadThread[] workers) {
        this.workers = workers;
    }

    @Override
    public void onInterval(IntervalSnapshot s) {
        long errors = 0;
        Throwable last = null;
        for (LoadThread w : workers) {
            errors += w.errorCount();
            Throwable t = w.lastError();
            if (t != null) {
                last = t;
            }
        }
        if (errors > reported) {
            LOG.warn("the driver threw {} exception(s) in the last interval (counted as ERROR); last: {}",
                    errors - reported, Secrets.redact(String.valueOf(last)));
            LOG.debug("last driver exception", last);
            reported = errors;
        }
    }

    /** One exception for a person, secrets redacted: its message (its class's simple name when it has none). */
    static String message(Throwable t) {
        String m = t.getMessage();
        return Secrets.redact(m == null || m.isBlank() ? t.getClass().getSimpleName() : m);
    }
}
