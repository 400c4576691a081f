package io.loadgen.core.run;

import io.loadgen.core.record.View;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Prints the status line of every interval to the run's status stream (stderr), in the run's
 * {@link StatusFormat}: by default one short line with units ({@link HumanStatusLine}), or YCSB's
 * ({@link StatusLine}): operations so far and the interval's rate, the phase and its target in a phased
 * run, each type's success histograms and statuses, the driver's counters that rose (a Redis run's
 * timeouts), and how far behind schedule the run is. The final interval, cut short by the run's end, is
 * not turned into a rate. Aggregator thread.
 */
final class StatusLineSink implements IntervalSink {
    /** Lateness below this is not worth a word on the line. */
    static final long BEHIND_REPORT_NS = TimeUnit.MILLISECONDS.toNanos(1);

    private final PrintStream out;
    private final String driver;
    private final long durationNs;
    private final long operationLimit;
    private final StatusLine line = new StatusLine();
    /** The default line, or null for YCSB's. */
    private final HumanStatusLine human;
    /** The run's constant target rate (ops/s), 0 when unthrottled or phased. */
    private final double targetOpsPerSec;
    private final HarnessHealth health;
    private final Map<String, Long> counted = new HashMap<>();
    private final List<String> risenNames = new ArrayList<>();
    private long[] risen = new long[4];
    private long totalOps;

    /**
     * @param driver         the driver's name, labelling its counters
     * @param durationNs     how long a timed run lasts from t0, or 0 for a run without a duration
     * @param operationLimit the run's operation count, or 0 for none
     */
    StatusLineSink(PrintStream out, String driver, long durationNs, long operationLimit) {
        this(out, driver, durationNs, operationLimit, null);
    }

    /** @param health the harness's health, whose note joins a line when an interval crossed a verdict limit; or null */
    StatusLineSink(PrintStream out, String driver, long durationNs, long operationLimit, HarnessHealth health) {
        this(out, driver, durationNs, operationLimit, health, null, 0);
    }

    /**
     * @param human           the default line's formatter, or null for YCSB's line
     * @param targetOpsPerSec the run's constant target rate, or 0 (unthrottled, or phased: the phase says)
     */
    private StatusLineSink(PrintStream out, String driver, long durationNs, long operationLimit, HarnessHealth health,
                           HumanStatusLine human, double targetOpsPerSec) {
        this.health = health;
        this.out = out;
        this.driver = driver;
        this.durationNs = durationNs;
        this.operationLimit = operationLimit;
        this.human = human;
        this.targetOpsPerSec = targetOpsPerSec;
    }

    /** The status line of a run with {@code options}: its format, width, length and target. */
    static StatusLineSink of(RunOptions options, PrintStream out, String driver, HarnessHealth health) {
        HumanStatusLine human = options.statusFormat() == StatusFormat.HUMAN
                ? new HumanStatusLine(options.statusWidth()) : null;
        return new StatusLineSink(out, driver, options.duration().toNanos(), options.operations(), health, human,
                options.rateProfile() == null ? options.targetOpsPerSec() : 0);
    }

    @Override
    public void onInterval(IntervalSnapshot s) {
        long intervalOps = 0;
        for (IntervalSnapshot.Op op : s.operations()) {
            intervalOps += op.operations();
        }
        totalOps += intervalOps;
        int risenCount = countersRisen(s.driverCounters());
        String harness = health == null ? null : health.statusNote(s);
        if (human != null) {
            double target = s.targetOpsPerSec() > 0 ? s.targetOpsPerSec() : targetOpsPerSec;
            out.println(human.line(s, target, risenText(risenCount), harness));
            out.flush();
            return;
        }
        long elapsedMs = (s.endNs() - s.runStartNs()) / 1_000_000;
        if (s.partial()) {
            line.beginPartial(s.endMs(), elapsedMs, totalOps, intervalOps, s.lengthNs());
        } else {
            double rate = intervalOps / (Math.max(1, s.lengthNs()) / 1e9);
            line.begin(s.endMs(), elapsedMs, totalOps, rate, remainingSec(s, rate));
        }
        if (s.phase() != null) {
            line.phase(s.phase().name(), s.phase().targetOpsPerSec());
        }
        for (IntervalSnapshot.Op op : s.operations()) {
            line.histogram(View.SERVICE, op.name(), op.service());
            line.histogram(View.INTENDED, op.name(), op.intended());
        }
        for (IntervalSnapshot.Op op : s.operations()) {
            line.returns(op);
        }
        line.counters(driver, risenNames, risen, risenCount);
        if (s.behindNs() >= BEHIND_REPORT_NS) {
            line.behind(s.behindNs());
        }
        if (harness != null) {
            line.harness(harness);
        }
        out.println(line);
        out.flush();
    }

    private long remainingSec(IntervalSnapshot s, double rate) {
        if (s.last()) {
            return 0;
        }
        if (durationNs > 0) {
            return Math.max(0, (s.runStartNs() + durationNs - s.endNs()) / 1_000_000_000L);
        }
        if (operationLimit > 0 && rate > 0) {
            return (long) (Math.max(0, operationLimit - totalOps) / rate);
        }
        return -1;
    }

    /**
     * The counters that rose, as a person reads them: {@code 12 timeouts}, {@code 3 connection errors},
     * {@code 1 stop the world pause}.
     */
    private List<String> risenText(int n) {
        List<String> text = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String name = risenNames.get(i).replace('_', ' ');
            text.add(String.format(java.util.Locale.US, "%,d ", risen[i]) + (risen[i] == 1 ? singular(name) : name));
        }
        return text;
    }

    /**
     * A counter's name, which drivers give in the plural ({@code timeouts}, {@code stop_the_world_pauses}), for a
     * count of 1: the last word without its plural {@code s} ({@code timeout}, {@code stop the world pause}); a
     * name that does not end in a plural {@code s} ({@code rejected}, {@code ..._ms}, {@code ...ss}) stays.
     */
    static String singular(String name) {
        int lastWord = name.lastIndexOf(' ') + 1;
        String last = name.substring(lastWord);
        boolean plural = last.length() > 2 && last.endsWith("s") && !last.endsWith("ss") && !last.equals("ms")
                && !last.equals("us") && !last.equals("ns");
        return plural ? name.substring(0, name.length() - 1) : name;
    }

    /**
     * Fills {@link #risenNames} and {@link #risen} with the whole-number counters that grew since the last
     * interval, by how much, in the driver's order; returns how many.
     */
    private int countersRisen(Map<String, Number> counters) {
        risenNames.clear();
        int n = 0;
        for (Map.Entry<String, Number> e : counters.entrySet()) {
            Number v = e.getValue();
            if (!(v instanceof Long || v instanceof Integer)) {
                continue; // a rate or a total in ms is not a count of events
            }
            Long before = counted.put(e.getKey(), v.longValue());
            long increment = v.longValue() - (before == null ? 0 : before);
            if (increment > 0) {
                if (n == risen.length) {
                    risen = java.util.Arrays.copyOf(risen, 2 * n);
                }
                risenNames.add(e.getKey());
                risen[n++] = increment;
            }
        }
        return n;
    }
}
