package io.loadgen.core.wait;

import io.loadgen.core.record.Histograms;
import org.HdrHistogram.Histogram;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * This machine's timer floor as a worker meets it: how late a park wakes beyond the time asked, on a thread
 * whose timer slack is lowered as a worker lowers its own ({@link TimerSlack}). {@code loadgen calibrate}
 * prints its p99 and max as the tool's error bar on the machine. Call from one thread; it parks that thread.
 */
public final class TimerFloor {
    /**
     * The most wake-up lateness the harness counts as the timer's, not a stall: {@link AdaptiveWaiter}'s cap on
     * the margin it spins (above it lie the VM or the scheduler taking the CPU for milliseconds). Calibration's
     * tolerances allow this much per thread wake-up a latency goes through.
     */
    public static final long WAKE_BUDGET_NS = AdaptiveWaiter.MAX_MARGIN_NS;
    /** The park each sample asks for: 100 us, a worker's gap at 10,000 ops/s. */
    public static final long PARK_NS = TimeUnit.MICROSECONDS.toNanos(100);

    private final Histogram overshoots;
    private final long marginNs;

    private TimerFloor(Histogram overshoots, long marginNs) {
        this.overshoots = overshoots;
        this.marginNs = marginNs;
    }

    /**
     * Parks {@code parks} times for {@link #PARK_NS} each (about {@code parks x 0.15 ms}) and records each
     * park's overshoot; also what margin {@link AdaptiveWaiter} would learn from them.
     */
    public static TimerFloor measure(int parks) {
        TimerSlack.minimizeForCurrentThread();
        Histogram h = Histograms.newHistogram();
        OvershootWindow window = new OvershootWindow(AdaptiveWaiter.WINDOW, AdaptiveWaiter.PERCENTILE,
                TimeUnit.MILLISECONDS.toNanos(AdaptiveWaiter.WINDOW_MAX_AGE_MS), AdaptiveWaiter.INITIAL_MARGIN_NS,
                AdaptiveWaiter.MAX_MARGIN_NS);
        for (int i = 0; i < parks; i++) {
            long start = System.nanoTime();
            LockSupport.parkNanos(PARK_NS);
            long woke = System.nanoTime();
            long overshoot = Math.max(0, woke - start - PARK_NS);
            h.recordValue(Histograms.clamp(overshoot));
            window.record(overshoot, woke);
        }
        return new TimerFloor(h, window.marginNs(System.nanoTime()));
    }

    /** Every park's overshoot, in ns. */
    public Histogram overshoots() {
        return overshoots;
    }

    /** The margin the adaptive waiter would spin before a deadline after these parks (capped at the budget). */
    public long adaptiveMarginNs() {
        return marginNs;
    }
}
