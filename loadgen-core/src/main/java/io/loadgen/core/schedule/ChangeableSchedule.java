package io.loadgen.core.schedule;

/**
 * A worker's uniform or Poisson schedule whose rate a {@link RateControl} may change while the run goes on.
 * One worker thread only; per operation it adds one volatile read and a reference compare, and it never
 * allocates or locks.
 *
 * <p>A change names its switch time S (an interval boundary). Intended starts before S keep their times. At
 * the first intended start at or after S, the gap this worker had left at S is rescaled to the new rate:
 * {@code next' = S + (next - S) · newGap / oldGap}. The worker's share of operations, integrated over time, is
 * thus continuous at S (no burst, no gap): a uniform schedule keeps its phase, and a Poisson schedule's
 * residual gap, exponential with the old mean, becomes exponential with the new one (memorylessness). A
 * worker that already returned a start past S when the change was published (it computes each next start as
 * the previous operation begins) switches from that start instead, at most one of its gaps late. Falling
 * behind never shifts anything: starts are computed from the schedule, never from the clock.
 */
public final class ChangeableSchedule implements Schedule {
    private final RestartableSchedule inner;
    private final RateControl control;
    /** The last change this schedule follows (the control's first, before any). */
    private RateControl.Change applied;
    private long lastNs;

    /**
     * @param inner   this worker's schedule at the run's starting rate (uniform or Poisson)
     * @param control where changes are published; its first change must be in force at {@code inner}'s start
     */
    public ChangeableSchedule(Schedule inner, RateControl control) {
        this.inner = (RestartableSchedule) inner;
        this.control = control;
        this.applied = control.first();
        this.lastNs = this.inner.peekNs();
    }

    @Override
    public long nextIntendedStartNs() {
        RateControl.Change c = control.current;
        if (c != applied && inner.peekNs() - c.atNs() >= 0) {
            follow(c);
        }
        long t = inner.nextIntendedStartNs();
        lastNs = t;
        return t;
    }

    /** Applies the changes up to {@code c} in order (usually just {@code c}); the rare path. */
    private void follow(RateControl.Change c) {
        RateControl.Change before = c.previous();
        if (before != applied && before != null) {
            follow(before);
        }
        long switchNs = lastNs - c.atNs() > 0 ? lastNs : c.atNs();
        long nextNs = inner.peekNs();
        double ratio = c.workerIntervalNs() / inner.meanIntervalNs();
        inner.restart(nextNs - switchNs > 0 ? switchNs + (long) ((nextNs - switchNs) * ratio) : nextNs,
                c.workerIntervalNs());
        applied = c;
    }

    /**
     * Delegates while no change is pending before {@code untilNs}. Across a pending change (a worker stopped
     * while stalled past its switch), the operations before the switch are counted exactly and those after
     * it by the new rate's expected count, {@code (untilNs - S) / newGap} rounded: within one operation.
     */
    @Override
    public long countUntil(long pendingNs, long untilNs) {
        RateControl.Change c = control.current;
        if (c == applied || c.atNs() - untilNs >= 0) {
            return inner.countUntil(pendingNs, untilNs);
        }
        if (pendingNs - untilNs >= 0) {
            return 0;
        }
        long fromNs = pendingNs - c.atNs() > 0 ? pendingNs : c.atNs();
        long before = pendingNs - c.atNs() < 0 ? inner.countUntil(pendingNs, c.atNs()) : 1;
        return before + Math.round((untilNs - fromNs) / c.workerIntervalNs());
    }

    @Override
    public double meanIntervalNs() {
        return inner.meanIntervalNs();
    }
}
