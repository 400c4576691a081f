package io.loadgen.core.shard;

import io.loadgen.core.BadInputException;
import io.loadgen.core.schedule.RateProfile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ShardTest {

    /** Counts and key slices over all shards add up to the total, the first total % N shards taking one more. */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 7, 10, 16})
    void countsAndKeySlicesAddUpExactly(int n) {
        for (long total : new long[]{0, 1, n - 1L, n, n + 1L, 10, 999, 1_000_003, 9_007_199_254_740_992L}) {
            if (total > 0 && total < n) {
                continue; // some shard would get none; the CLI refuses that
            }
            long first = 1234;
            long sum = 0;
            long next = first;
            for (int i = 0; i < n; i++) {
                Shard s = new Shard(i, n);
                long share = s.share(total);
                assertEquals(total / n + (i < total % n ? 1 : 0), share, "shard " + s + " of " + total);
                assertEquals(next, s.start(first, total), "slice of shard " + s + " starts where the last ended");
                next += share;
                sum += share;
            }
            assertEquals(total, sum, n + " shards of " + total);
            assertEquals(first + total, next, "the slices cover [first, first + total) with no gap or overlap");
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3, 4, 7})
    void ratesAndEveryPhaseSplitEvenly(int n) {
        RateProfile total = new RateProfile(List.of(new RateProfile.Segment("ramp", 2_000_000_000L, 0, 1000),
                new RateProfile.Segment("hold", 3_000_000_000L, 1000, 1000)));
        double rateSum = 0;
        double opsSum = 0;
        for (int i = 0; i < n; i++) {
            Shard s = new Shard(i, n);
            rateSum += s.rate(10_000);
            RateProfile part = s.rates(total);
            assertEquals(total.totalDurationNs(), part.totalDurationNs(), "phases keep their lengths");
            assertEquals("ramp", part.segments().get(0).name());
            assertEquals(1000.0 / n, part.segments().get(1).fromOpsPerSec(), 1e-9);
            opsSum += part.totalOperations();
        }
        assertEquals(10_000, rateSum, 1e-9);
        assertEquals(total.totalOperations(), opsSum, 1e-6);
    }

    @Test
    void parsesIndexSlashCount() {
        assertEquals(new Shard(2, 4), Shard.parse("2/4"));
        assertEquals(new Shard(0, 1), Shard.parse(" 0 / 1 "));
        assertEquals("3/8", new Shard(3, 8).toString());
    }

    @Test
    void refusesAnIndexNotBelowTheCountAndNonsense() {
        BadInputException notBelow = assertThrows(BadInputException.class, () -> Shard.parse("4/4"));
        assertTrue(notBelow.getMessage().contains("outside 0..3"), notBelow.getMessage());
        for (String bad : new String[]{"1/0", "-1/4", "4", "a/b", "/4", "1/"}) {
            BadInputException e = assertThrows(BadInputException.class, () -> Shard.parse(bad), bad);
            assertTrue(e.getMessage().startsWith("--shard "), e.getMessage());
        }
    }
}
