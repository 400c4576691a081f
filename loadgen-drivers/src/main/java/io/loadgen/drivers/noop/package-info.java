/** The {@code noop} driver: completes every operation at once, so a run measures the harness itself. */
package io.loadgen.drivers.noop;
