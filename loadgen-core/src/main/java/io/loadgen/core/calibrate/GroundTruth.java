package io.loadgen.core.calibrate;

/**
 * Latencies known analytically for the scenarios that check the tool against ground truth: the ground-truth
 * tests and {@code loadgen calibrate} both compute their expected values here, so one derivation serves both.
 * Times in any one unit (the caller's); stateless; any thread.
 */
public final class GroundTruth {
    /**
     * The asymptotic variance of the mean sojourn of an M/D/1 queue at utilisation {@link #MD1_RHO}, in units of
     * the service time squared: {@code n Var(mean of n sojourns) -> 3.4 S^2}. The sojourns' own variance is
     * {@code 7/12 S^2} ({@link #md1SojournVariance}); successive sojourns are positively correlated (a busy
     * period's customers all wait), which inflates the variance of their mean about 5.8-fold. Measured by
     * batch means over 4,000,000 simulated customers (batches of 2,000 and of 20,000 both gave 3.35 to 3.39,
     * each to about 3%); the bound here, 4, lies 18% above it.
     */
    public static final double MD1_MEAN_ASYMPTOTIC_VARIANCE_BOUND = 4.0;
    /** The utilisation {@link #MD1_MEAN_ASYMPTOTIC_VARIANCE_BOUND} holds for. */
    public static final double MD1_RHO = 0.5;

    private GroundTruth() {
    }

    /**
     * A store that cannot keep up, at percentile {@code q} (0..1) of its {@code n} operations' intended latency.
     * Asked for one operation every {@code gap}, it completes one every {@code service} (back to back: it is
     * behind from the second on), so operation k (k = 0 .. n-1), intended at {@code k gap}, completes at
     * {@code (k + 1) service}: its intended latency {@code L(k) = service + k (service - gap)} grows linearly,
     * uniform in k, and its q-th percentile is {@code service + q (n - 1) (service - gap)}. Service time alone
     * stays {@code service}: the backlog is visible only from the intended start.
     */
    public static double backlogPercentile(double q, long n, double service, double gap) {
        return service + q * (n - 1) * (service - gap);
    }

    /**
     * A store that stops for {@code pause} now and then and otherwise answers at once, at percentile {@code q}
     * (0..1) of the intended latency, when the pauses cover a share {@code pausedShare} of the run. An operation
     * intended {@code x} into a pause completes at its end: latency {@code pause - x}, uniform on (0, pause];
     * the rest take ~0. So {@code P(intended > t) = pausedShare (1 - t / pause)}, and the q-th percentile is
     * {@code pause (1 - (1 - q) / pausedShare)}; 0 where {@code 1 - q} exceeds the paused share (the percentile
     * falls among the operations that did not wait).
     */
    public static double pausePercentile(double q, double pause, double pausedShare) {
        return Math.max(0, pause * (1 - (1 - q) / pausedShare));
    }

    /**
     * The mean sojourn (wait plus service) in an M/D/1 queue: Poisson arrivals at {@code lambda} to one server
     * taking exactly {@code 1 / mu} for each, in arrival order. Pollaczek-Khinchine with a deterministic service
     * time S = 1/mu and rho = lambda/mu: {@code S + rho S / (2 (1 - rho))}.
     */
    public static double md1MeanSojourn(double lambda, double mu) {
        double s = 1 / mu;
        double rho = lambda / mu;
        return s + rho * s / (2 * (1 - rho));
    }

    /**
     * The variance of one M/D/1 sojourn (the wait's, S being fixed). For M/G/1, {@code E[W^2] = 2 E[W]^2 +
     * lambda E[S^3] / (3 (1 - rho))}; with S fixed, {@code Var = lambda S^3 / (3 (1 - rho)) + (rho S / (2 (1 -
     * rho)))^2}: 7/12 S^2 at rho = 0.5.
     */
    public static double md1SojournVariance(double lambda, double mu) {
        double s = 1 / mu;
        double rho = lambda / mu;
        double meanWait = rho * s / (2 * (1 - rho));
        return lambda * s * s * s / (3 * (1 - rho)) + meanWait * meanWait;
    }
}
