package io.loadgen.core.record;

import io.loadgen.core.shard.Shard;

import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * A run's identity, written once in its interval log ({@code #[run_id: UUID]}) and its JSON summary
 * ({@code run_id}), so that tools merging logs can refuse logs of different runs. A whole run's is random.
 * The shards of a sharded run run in separate processes that share nothing but their command line, so
 * theirs is derived from what they share (a name-based UUID): the shard count, {@code --start-at} and the
 * shard's schedule (its share of the rate, the duration, the warm-up), so a sharded sweep's steps differ;
 * shards of two runs alike in all of these and without {@code --start-at} share it, and are told apart only
 * by their shard lines (a shard given twice). Stateless.
 */
public final class RunId {
    private RunId() {
    }

    /**
     * The id of a run that is {@code shard} (null for a whole run) starting at {@code startAtMs} (0: none);
     * {@code schedule} describes what every shard of the run shares beyond these (e.g. rate, duration).
     */
    public static String of(Shard shard, long startAtMs, String schedule) {
        if (shard == null) {
            return UUID.randomUUID().toString();
        }
        String shared = "loadgen sharded run count=" + shard.count() + " start_at=" + (startAtMs == 0 ? "-" : startAtMs)
                + " " + schedule;
        return UUID.nameUUIDFromBytes(shared.getBytes(StandardCharsets.UTF_8)).toString();
    }
}
