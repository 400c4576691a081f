/**
 * The {@code stw-mockdb} driver: the four-mode store from Gil Tene's coordinated-omission
 * examples. Most operations are fast, some slow, a few hiccup on their own thread, and a rare one
 * stops every thread. A tool that hides the rare stops is lying; this store makes that visible.
 */
package io.loadgen.drivers.stwmockdb;
