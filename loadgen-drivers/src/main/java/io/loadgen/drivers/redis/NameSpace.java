package io.loadgen.drivers.redis;

import io.loadgen.core.workload.generator.NumberGenerator;
import io.loadgen.core.workload.generator.ScrambledZipfianGenerator;
import io.loadgen.core.workload.generator.SequentialGenerator;
import io.loadgen.core.workload.generator.UniformGenerator;

import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Where a {@code redis.requests} command's keys (or hash fields, or set members) come from: {@code count} names,
 * {@code prefix} followed by a number from 0 to count - 1, drawn with YCSB's {@code distribution} (uniform,
 * zipfian or sequential, loadgen-core's generators); or one fixed name. Immutable; any thread.
 *
 * @param prefix       the names' common start; the whole name when {@code fixed}
 * @param count        how many names, 1 when fixed
 * @param distribution uniform, zipfian or sequential
 * @param fixed        true for one name, given as it is
 * @param position     the draws a sequential walk has taken, shared by every issuer, so together they walk the
 *                     names once per cycle (YCSB's sequential); unused otherwise
 */
record NameSpace(String prefix, long count, String distribution, boolean fixed, AtomicLong position) {
    static final java.util.List<String> DISTRIBUTIONS = java.util.List.of("uniform", "zipfian", "sequential");

    /** One name, as given. */
    static NameSpace fixed(String name) {
        return new NameSpace(name, 1, "uniform", true, new AtomicLong());
    }

    static NameSpace of(String prefix, long count, String distribution) {
        return new NameSpace(prefix, count, distribution, false, new AtomicLong());
    }

    /** A generator of name numbers for one issuer; null for a fixed name (nothing to draw). */
    NumberGenerator generator(SplittableRandom random) {
        if (fixed) {
            return null;
        }
        return switch (distribution) {
            case "zipfian" -> new ScrambledZipfianGenerator(0, count - 1, random);
            case "sequential" -> new SequentialGenerator(0, count - 1, position);
            default -> new UniformGenerator(0, count - 1, random);
        };
    }

    /** The next name from {@code generator} (this name space's, for the calling issuer). */
    String next(NumberGenerator generator) {
        return generator == null ? prefix : prefix.concat(Long.toString(generator.next()));
    }

    /** The name numbered {@code n}: for tests and readers. */
    String name(long n) {
        return fixed ? prefix : prefix + n;
    }
}
