package io.loadgen.cli;

import io.loadgen.core.Limits;
import io.loadgen.core.run.LateStart;
import io.loadgen.core.run.RunOptions;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * When {@code run} and {@code load} start: {@code --start-at}, the instant of the first intended start, so shards on
 * several machines line up, and {@code --late-start}, what a run ready only after it does. Main thread.
 */
final class StartOptions {
    @Option(names = "--start-at", paramLabel = "TIME", converter = InstantConverter.class, order = 51,
            description = "Start the schedule (the first intended start, the interval log's StartTime) at this instant,"
                    + " in epoch milliseconds or ISO-8601 (2026-11-25T18:00:00Z), so shards on several machines line"
                    + " up; the driver opens and warms up first, then the run waits. Within 24h of now.")
    Long startAt;

    @Option(names = "--late-start", paramLabel = "catch-up|refuse", converter = LateStartConverter.class,
            defaultValue = "catch-up", order = 52,
            description = "When ready only after --start-at: catch-up says how late and starts the schedule at the"
                    + " instant anyway (the operations due since then are issued late, their waits counted in"
                    + " intended), refuse exits 2 saying how late. Default: ${DEFAULT-VALUE}.")
    LateStart lateStart;

    /** Sets the start instant and the late-start policy on {@code b}. */
    RunOptions.Builder applyTo(RunOptions.Builder b) {
        return b.startAt(startAt).lateStart(lateStart);
    }

    /** Reads epoch milliseconds ({@code 1795000000000}) or an ISO-8601 instant ({@code 2026-11-25T18:00:00Z}). */
    static final class InstantConverter implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            String v = value.trim();
            try {
                return v.chars().allMatch(Character::isDigit) && !v.isEmpty() ? Long.parseLong(v)
                        : Instant.parse(v).toEpochMilli();
            } catch (NumberFormatException | DateTimeParseException | ArithmeticException e) {
                throw new TypeConversionException("'" + Limits.quote(value) + "' is not an instant; write epoch"
                        + " milliseconds (1795629600000) or ISO-8601 with a zone (2026-11-25T18:00:00Z)");
            }
        }
    }

    /** Reads {@code catch-up} or {@code refuse}. */
    static final class LateStartConverter implements ITypeConverter<LateStart> {
        @Override
        public LateStart convert(String value) {
            for (LateStart l : LateStart.values()) {
                if (l.toString().equalsIgnoreCase(value.trim())) {
                    return l;
                }
            }
            throw new TypeConversionException("'" + Limits.quote(value) + "' is not catch-up or refuse");
        }
    }
}
