/**
 * The {@code memcached} driver: YCSB's operations against a memcached server, one item per record, over
 * Netty connections of its own in memcached's text protocol ({@code get}, {@code set}, {@code delete}) or its
 * meta protocol ({@code mg}, {@code ms}, {@code md}). Operations are issued and completed on the connection's
 * event loop.
 */
package io.loadgen.drivers.memcached;
