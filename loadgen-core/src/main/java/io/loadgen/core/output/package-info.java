/**
 * What every output of the tool shares: outputs that never overwrite an input or each other, nor a file a
 * directory output writes, nor share standard output, and whose directory exists
 * ({@link io.loadgen.core.output.OutputPaths}); whole files that appear complete or not at all
 * ({@link io.loadgen.core.output.AtomicFile}); and writes whose first failure is remembered and reported instead
 * of lost, standard output's included ({@link io.loadgen.core.output.FailureTrackingOutputStream},
 * {@link io.loadgen.core.output.TrackedPrintStream}, {@link io.loadgen.core.output.OutputFailures},
 * {@link io.loadgen.core.output.OutputWriteException}).
 */
package io.loadgen.core.output;
