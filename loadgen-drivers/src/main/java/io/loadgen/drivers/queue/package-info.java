/**
 * The {@code queue} driver: the round-trip benchmark of the lock-free queue articles. Each
 * {@code ROUNDTRIP} sends a burst of preallocated messages from the worker through a ring of threads
 * linked by queues ({@link io.loadgen.drivers.queue.QueueImpl}), each link waiting in one of four ways
 * ({@link io.loadgen.drivers.queue.LinkWait}), and completes when the whole burst is back. Every worker
 * has its own ring, so every link has exactly one producer and one consumer ({@link io.loadgen.drivers.queue.SpscLink}).
 */
package io.loadgen.drivers.queue;
