/**
 * The {@code mockdb} driver (YCSB BasicDB's role): a store whose latency is set by properties, a
 * fixed or random delay per operation plus optional periodic pauses that stop every thread. Its
 * latency distribution is known in advance, so runs against it check the tool itself.
 */
package io.loadgen.drivers.mockdb;
