/**
 * Helpers shared by the drivers in this module: sleeping to a deadline, per-worker random
 * generators, and YCSB's operation names; and the local servers' backpressure ({@link
 * io.loadgen.drivers.support.ReadBackpressure}). Nothing here is a driver.
 */
package io.loadgen.drivers.support;
