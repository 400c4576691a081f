/**
 * What every output of the tool shares: outputs that never overwrite an input or each other
 * ({@link io.loadgen.core.output.OutputPaths}), and writes whose first failure is remembered and reported
 * instead of lost ({@link io.loadgen.core.output.FailureTrackingOutputStream},
 * {@link io.loadgen.core.output.OutputFailures}).
 */
package io.loadgen.core.output;
