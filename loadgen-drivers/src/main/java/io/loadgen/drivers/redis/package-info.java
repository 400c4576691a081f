/**
 * The {@code redis} driver: YCSB's six operations against a Redis server, through one pipelined
 * Lettuce connection, with YCSB's Redis data model (a hash per record, a sorted-set index for SCAN).
 * Operations are submitted asynchronously and complete on Lettuce's I/O thread.
 */
package io.loadgen.drivers.redis;
