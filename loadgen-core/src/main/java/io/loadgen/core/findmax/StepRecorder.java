package io.loadgen.core.findmax;

import io.loadgen.core.record.Histograms;
import io.loadgen.core.record.StatusTags;
import io.loadgen.core.run.IntervalHistograms;
import io.loadgen.core.run.IntervalListener;
import io.loadgen.core.stats.IntervalSeries;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One step's interval listener: keeps a copy of every measured interval's judged series (each operation type's
 * {@code OP.intended}, {@code OP.failed.intended} and {@code OP.status}, and {@link #ALL} = every completion's
 * intended latency; also {@code OP.service}, for the table and chart), feeds the {@link StabilityDetector} each interval's completions and intended p99, and stops the
 * run (through {@code stop}) once the detector decides. The run's histograms are reused for the next interval, so
 * they are copied here. Aggregator thread while the run goes; {@link #series} and the getters on the main thread
 * after the run returned (which joined the aggregator).
 */
public final class StepRecorder implements IntervalListener {
    /** The series of every operation type's completions, successes and failures, intended latency. */
    public static final String ALL = "*.intended";
    private static final String INTENDED = ".intended";
    private static final String SERVICE = ".service";

    private final StabilityDetector detector;
    private final Consumer<String> stop;
    private final Map<String, List<Histogram>> byTag = new LinkedHashMap<>();
    private final List<Double> lengths = new ArrayList<>();
    private final Histogram all = Histograms.newHistogram();
    private volatile StabilityDetector.Decision decision = StabilityDetector.Decision.CONTINUE;
    private int windowIntervals = -1;
    private long windowCompleted;
    private double windowSec;

    /**
     * @param stop called once, on the aggregator thread, with the decision's text, when the detector decides
     */
    public StepRecorder(StabilityDetector detector, Consumer<String> stop) {
        this.detector = detector;
        this.stop = stop;
    }

    @Override
    public void onInterval(IntervalHistograms interval) {
        if (!interval.measured()) {
            return;
        }
        int index = lengths.size();
        double sec = (interval.endMs() - interval.startMs()) / 1000.0;
        lengths.add(sec);
        all.reset();
        for (Map.Entry<String, Histogram> e : interval.byTag().entrySet()) {
            String tag = e.getKey();
            if (!tag.endsWith(INTENDED) && !tag.endsWith(SERVICE) && !StatusTags.isStatusTag(tag)) {
                continue;
            }
            List<Histogram> list = byTag.computeIfAbsent(tag, k -> new ArrayList<>());
            while (list.size() < index) {
                list.add(Histograms.newHistogram()); // absent in earlier intervals: nothing recorded then
            }
            list.add(e.getValue().copy());
            if (tag.endsWith(INTENDED)) {
                all.add(e.getValue());
            }
        }
        byTag.computeIfAbsent(ALL, k -> new ArrayList<>()).add(all.copy());
        if (decision != StabilityDetector.Decision.CONTINUE) {
            return; // the run is stopping: its last intervals are kept, not judged
        }
        long completed = all.getTotalCount();
        windowCompleted += completed;
        windowSec += sec;
        StabilityDetector.Decision d = detector.add(sec, completed,
                completed == 0 ? Double.NaN : all.getValueAtPercentile(99));
        if (d != StabilityDetector.Decision.CONTINUE) {
            decision = d;
            windowIntervals = index + 1;
            stop.accept(d.text());
        }
    }

    /** What ended the step: the detector's decision, or {@link StabilityDetector.Decision#CONTINUE} if the run ended first. */
    public StabilityDetector.Decision decision() {
        return decision;
    }

    /** Intervals up to and including the one the detector decided on; -1 when it did not decide. */
    public int windowIntervals() {
        return windowIntervals;
    }

    /** Operations completed in those intervals (all of them when the detector did not decide). */
    public long windowCompleted() {
        return windowCompleted;
    }

    /** Those intervals' seconds. */
    public double windowSec() {
        return windowSec;
    }

    /** Every measured interval of {@code tag} as an {@link IntervalSeries}; null when the step never recorded it. */
    public IntervalSeries series(String tag) {
        List<Histogram> list = byTag.get(tag);
        if (list == null) {
            return null;
        }
        List<Histogram> padded = new ArrayList<>(list);
        while (padded.size() < lengths.size()) {
            padded.add(Histograms.newHistogram());
        }
        double[] secs = new double[lengths.size()];
        for (int i = 0; i < secs.length; i++) {
            secs[i] = lengths.get(i);
        }
        return IntervalSeries.of(padded, secs);
    }

    /** Every measured interval's histograms of {@code tag} (the recorder's own copies), padded to every interval. */
    public List<Histogram> intervals(String tag) {
        List<Histogram> list = new ArrayList<>(byTag.getOrDefault(tag, List.of()));
        while (list.size() < lengths.size()) {
            list.add(Histograms.newHistogram());
        }
        return list;
    }

    /** Every measured interval's length (s). */
    public List<Double> lengths() {
        return List.copyOf(lengths);
    }

    /** The tags recorded, {@link #ALL} last. */
    public List<String> tags() {
        List<String> tags = new ArrayList<>(byTag.keySet());
        tags.remove(ALL);
        tags.add(ALL);
        return tags;
    }
}
