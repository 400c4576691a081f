/**
 * The {@code ycsb} driver: any YCSB binding (a {@code site.ycsb.DB} from a YCSB release's {@code lib/} folders)
 * under loadgen's schedule, as a blocking driver with one DB instance per worker thread. YCSB's core and the
 * binding are loaded in a child class loader of their own and called through method handles resolved at open, so
 * their libraries never meet loadgen's.
 */
package io.loadgen.drivers.ycsb;
