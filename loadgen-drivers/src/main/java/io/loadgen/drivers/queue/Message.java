package io.loadgen.drivers.queue;

/**
 * One message of a ring's burst: preallocated when the ring is built and reused by every round trip,
 * so an operation allocates no messages. Only the ring's worker thread reads or writes
 * {@link #sequence}; echo threads pass the reference on without touching it, and the queues' own
 * happens-before edges publish the worker's write back to itself.
 */
final class Message {
    /** The ring's running count of messages sent when this one was sent: its place in the ring's stream. */
    long sequence;
}
