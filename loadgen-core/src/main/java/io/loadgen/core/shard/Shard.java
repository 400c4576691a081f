package io.loadgen.core.shard;

import io.loadgen.core.BadInputException;
import io.loadgen.core.schedule.RateProfile;

import java.util.ArrayList;
import java.util.List;

/**
 * One of {@code count} load generators sharing a run (on several machines, e.g. a Kubernetes Indexed Job), and
 * its share of the work: 1/count of the rate (every phase's), of an operation count and of a key range, split
 * so that the shards' shares add up exactly to the whole. Indexes count from 0, as Kubernetes'
 * {@code JOB_COMPLETION_INDEX} does. Immutable.
 *
 * <p>Counts split as YCSB splits {@code insertcount} over clients: each shard takes {@code total / count}, and
 * the first {@code total % count} shards one more; key ranges are consecutive, so their union is the whole
 * range and no two shards share a key:
 * <pre><code>
 * new Shard(1, 4).share(10)        // 3: shards 0 and 1 take 3, shards 2 and 3 take 2
 * new Shard(1, 4).start(100, 10)   // 103: shard 0 has [100, 103), shard 1 [103, 106), 2 [106, 108), 3 [108, 110)
 * </code></pre>
 *
 * @param index this shard, 0 .. count - 1
 * @param count how many shards share the run, at least 1
 */
public record Shard(int index, int count) {

    public Shard {
        if (count < 1) {
            throw new BadInputException("the shard count must be at least 1 (got " + count + ")");
        }
        if (index < 0 || index >= count) {
            throw new BadInputException("shard index " + index + " is outside 0.." + (count - 1) + " for " + count
                    + " shard" + (count == 1 ? "" : "s") + ": indexes count from 0, as JOB_COMPLETION_INDEX does");
        }
    }

    /**
     * Parses {@code I/N}, as {@code --shard} takes it.
     *
     * @throws BadInputException for anything else, or an index not below the count
     */
    public static Shard parse(String text) {
        String t = text.trim();
        int slash = t.indexOf('/');
        try {
            if (slash > 0) {
                return new Shard(Integer.parseInt(t.substring(0, slash).trim()),
                        Integer.parseInt(t.substring(slash + 1).trim()));
            }
        } catch (NumberFormatException e) {
            // reported below
        } catch (BadInputException e) {
            throw new BadInputException("--shard " + t + ": " + e.getMessage(), e);
        }
        throw new BadInputException("--shard " + t + " is not INDEX/COUNT; give e.g. --shard 0/4 for the first of"
                + " four shards");
    }

    /** This shard's part of a total rate in ops/s: an N-th of it. */
    public double rate(double totalOpsPerSec) {
        return totalOpsPerSec / count;
    }

    /** This shard's part of a rate profile: every phase's rates divided by the count, the durations kept. */
    public RateProfile rates(RateProfile total) {
        List<RateProfile.Segment> scaled = new ArrayList<>();
        for (RateProfile.Segment s : total.segments()) {
            scaled.add(new RateProfile.Segment(s.name(), s.durationNs(), rate(s.fromOpsPerSec()),
                    rate(s.toOpsPerSec())));
        }
        return new RateProfile(scaled);
    }

    /** This shard's part of {@code total} operations or keys: {@code total / count}, one more for the first {@code total % count}. */
    public long share(long total) {
        return total / count + (index < total % count ? 1 : 0);
    }

    /**
     * The first key of this shard's slice of {@code [first, first + total)}: the shards before it take their
     * {@link #share}s from {@code first} on.
     */
    public long start(long first, long total) {
        return first + index * (total / count) + Math.min(index, total % count);
    }

    /** {@code I/N}, as {@code --shard} takes it. */
    @Override
    public String toString() {
        return index + "/" + count;
    }
}
