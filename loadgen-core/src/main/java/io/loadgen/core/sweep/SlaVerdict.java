package io.loadgen.core.sweep;

import io.loadgen.core.record.View;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

/**
 * Where a sweep's knee sits for an {@link Sla}: the highest offered rate up to which the objective
 * held, once measured from the intended start (the truth) and once from the actual start (what a
 * synchronous tool reports). Immutable; built on the main thread after the sweep.
 *
 * <p>"Met up to R" means R is the highest offered rate whose step kept up ({@link KeepUpRule}: nothing
 * unissued, achieved close enough to offered) and met the objective from the intended start. A step
 * that fell behind misses the objective whatever its percentiles: it did not carry the load it is
 * judged at. The service-time claim is what a synchronous tool would report, so it ignores keeping
 * up. A lower step that missed (typically the first, run on a cold JVM without {@code --warmup})
 * does not cap R; the second line names it. Steps are taken in order of offered rate, whatever
 * order they ran in.
 *
 * @param sla        the objective
 * @param intendedUpTo the highest rate met from the intended start by a step that kept up, empty when none did
 * @param serviceUpTo  the highest rate met from the actual start (service time), kept up or not
 * @param firstMiss  the lowest-rate step above {@code intendedUpTo} that missed the objective from the
 *                   intended start or fell behind (the knee's evidence), or null when none did
 * @param lowerMisses steps below {@code intendedUpTo} that missed it all the same
 */
public record SlaVerdict(Sla sla, OptionalDouble intendedUpTo, OptionalDouble serviceUpTo, SweepStep firstMiss,
                         List<SweepStep> lowerMisses) {

    public SlaVerdict {
        lowerMisses = List.copyOf(lowerMisses);
    }

    /** Evaluates {@code sla} on the steps' {@code intended} and {@code service} views. */
    public static SlaVerdict of(Sla sla, List<SweepStep> steps) {
        List<SweepStep> byRate = new ArrayList<>(steps);
        byRate.sort(Comparator.comparingDouble(SweepStep::offeredOpsPerSec));
        OptionalDouble intended = highestMet(sla, byRate, View.INTENDED);
        double claimed = intended.orElse(0.0);
        SweepStep firstMiss = null;
        List<SweepStep> lowerMisses = new ArrayList<>();
        for (SweepStep s : byRate) {
            if (!met(sla, s, View.INTENDED)) {
                if (s.offeredOpsPerSec() < claimed) {
                    lowerMisses.add(s);
                } else if (firstMiss == null) {
                    firstMiss = s;
                }
            }
        }
        return new SlaVerdict(sla, intended, highestMet(sla, byRate, View.SERVICE), firstMiss, lowerMisses);
    }

    /** The highest offered rate whose {@code view} meets the objective, or empty when none does. */
    static OptionalDouble highestMet(Sla sla, List<SweepStep> byRate, View view) {
        OptionalDouble best = OptionalDouble.empty();
        for (SweepStep s : byRate) {
            if (met(sla, s, view)) {
                best = OptionalDouble.of(s.offeredOpsPerSec());
            }
        }
        return best;
    }

    /** From the intended start a step meets the objective only if it also kept up; service time ignores that. */
    private static boolean met(Sla sla, SweepStep step, View view) {
        return sla.metBy(step.view(view)) && (view != View.INTENDED || step.keptUp());
    }

    /**
     * Two lines for the end of the report: where the objective holds from each view, then the
     * evidence at the first rate that misses it (or that none did).
     */
    public List<String> lines() {
        String head = "SLA " + sla.text() + ": "
                + (intendedUpTo.isPresent() ? "met up to " + rate(intendedUpTo) : "not met at any rate tested")
                + " measured from intended start; service time would "
                + (serviceUpTo.isPresent() ? "claim " + rate(serviceUpTo) : "not meet it either") + ".";
        String evidence = firstMiss == null ? "No rate above it missed it; sweep higher rates to find where it stops."
                : missEvidence();
        if (!lowerMisses.isEmpty()) {
            List<String> names = new ArrayList<>();
            lowerMisses.forEach(m -> names.add(RatePlan.format(m.offeredOpsPerSec()) + " ops/s"
                    + (m.keptUp() ? "" : " fell behind")));
            evidence += " Lower rates missed it too (" + String.join(", ", names) + "): a cold start or a"
                    + " hiccup; see the table, and consider --warmup.";
        }
        return List.of(head, evidence);
    }

    /** What happened at {@link #firstMiss}: its percentiles from both starts, and whether it fell behind. */
    private String missEvidence() {
        String p = sla.percentileName();
        String where = intendedUpTo.isPresent() ? "the next rate tested" : "the lowest rate tested";
        String percentiles = String.format(Locale.ROOT, "intended %s = %.3f ms while service %s = %.3f ms",
                p, sla.valueIn(firstMiss.view(View.INTENDED)) / 1e6, p, sla.valueIn(firstMiss.view(View.SERVICE)) / 1e6);
        String rate = RatePlan.format(firstMiss.offeredOpsPerSec());
        if (firstMiss.keptUp()) {
            return "At " + rate + " ops/s, " + where + ", " + percentiles + ".";
        }
        return "At " + rate + " ops/s, " + where + ", the step " + firstMiss.shortfall()
                + ", so it cannot meet the SLA whatever its percentiles (" + percentiles + ").";
    }

    private static String rate(OptionalDouble r) {
        return RatePlan.format(r.getAsDouble()) + " ops/s";
    }
}
