package io.loadgen.core.gate;

/**
 * What a gate accepts of its input beyond one whole run: logs of different runs merged ({@code --allow-mixed}),
 * a log cut short judged on counts and throughput ({@code --allow-partial}), the run's warm-up counted
 * ({@code --include-warmup}). Each is refused or left out by default. Immutable.
 */
public record InputPolicy(boolean allowMixed, boolean allowPartial, boolean includeWarmup) {
    /** One whole run, its warm-up left out, as the run's own JSON counts it. */
    public static final InputPolicy STRICT = new InputPolicy(false, false, false);
}
