package io.loadgen.core.schedule;

/**
 * A {@link Schedule} whose rate can be changed in place, for {@link ChangeableSchedule}: it can tell its next
 * intended start without advancing, and continue from a given start at a new mean gap. Same thread as the
 * schedule's; neither method allocates.
 */
interface RestartableSchedule extends Schedule {

    /** The intended start {@link #nextIntendedStartNs()} will return next, without advancing. */
    long peekNs();

    /** From now on: the next intended start is {@code nextNs}, and the mean gap after it {@code intervalNs}. */
    void restart(long nextNs, double intervalNs);
}
