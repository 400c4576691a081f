/**
 * The {@code mockdb} driver (YCSB BasicDB's role): a store whose latency is set by properties, a
 * fixed or random delay per operation plus optional periodic pauses that stop every thread, and an
 * optional capacity (operations per second it serves, one at a time in arrival order). Its
 * latency distribution is known in advance, so runs against it check the tool itself.
 */
package io.loadgen.drivers.mockdb;
