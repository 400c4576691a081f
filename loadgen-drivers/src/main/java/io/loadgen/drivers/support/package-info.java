/**
 * Helpers shared by the drivers in this module: sleeping to a deadline, per-worker random
 * generators, and YCSB's operation names. Nothing here is a driver.
 */
package io.loadgen.drivers.support;
