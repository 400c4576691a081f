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
 * <p>"Met up to R" means R is the highest offered rate whose step met the objective. A lower step
 * that missed it (typically the first, run on a cold JVM without {@code --warmup}) does not cap R;
 * the second line names it. Steps are taken in order of offered rate, whatever order they ran in.
 *
 * @param sla        the objective
 * @param intendedUpTo the highest rate met from the intended start, empty when no step met it
 * @param serviceUpTo  the same from the actual start (service time)
 * @param firstMiss  the lowest-rate step above {@code intendedUpTo} that missed the objective from the
 *                   intended start (the knee's evidence), or null when none did
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
            if (!sla.metBy(s.view(View.INTENDED))) {
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
            if (sla.metBy(s.view(view))) {
                best = OptionalDouble.of(s.offeredOpsPerSec());
            }
        }
        return best;
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
        String evidence;
        if (firstMiss == null) {
            evidence = "No rate above it missed it; sweep higher rates to find where it stops.";
        } else {
            String p = sla.percentileName();
            evidence = String.format(Locale.ROOT, "At %s ops/s, %s, intended %s = %.3f ms"
                            + " while service %s = %.3f ms.", RatePlan.format(firstMiss.offeredOpsPerSec()),
                    intendedUpTo.isPresent() ? "the next rate tested" : "the lowest rate tested",
                    p, sla.valueIn(firstMiss.view(View.INTENDED)) / 1e6,
                    p, sla.valueIn(firstMiss.view(View.SERVICE)) / 1e6);
        }
        if (!lowerMisses.isEmpty()) {
            List<String> names = new ArrayList<>();
            lowerMisses.forEach(m -> names.add(RatePlan.format(m.offeredOpsPerSec())));
            evidence += " Lower rates missed it too (" + String.join(", ", names) + " ops/s): a cold start or a"
                    + " hiccup; see the table, and consider --warmup.";
        }
        return List.of(head, evidence);
    }

    private static String rate(OptionalDouble r) {
        return RatePlan.format(r.getAsDouble()) + " ops/s";
    }
}
