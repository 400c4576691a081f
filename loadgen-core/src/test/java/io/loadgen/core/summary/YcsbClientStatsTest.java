package io.loadgen.core.summary;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * YCSB's GC lines count the run's collections, not the JVM's life: a short {@code load} run counted its start-up's
 * nine collections (69 ms) against 20 ms of run time and printed {@code [TOTAL_GC_TIME_%], Time(%), 332}.
 */
class YcsbClientStatsTest {
    @Test
    void countsOnlyTheCollectionsSinceTheStart() {
        List<YcsbClientStats.Collector> start = YcsbClientStats.collectorsNow();
        long before = start.stream().mapToLong(YcsbClientStats.Collector::count).sum();
        System.gc(); // at least one collection by some collector (the JVM may run more of its own)
        YcsbClientStats since = YcsbClientStats.since(start, 5);
        long counted = since.collectors().stream().mapToLong(YcsbClientStats.Collector::count).sum();
        long now = YcsbClientStats.collectorsNow().stream().mapToLong(YcsbClientStats.Collector::count).sum();
        assertTrue(counted >= 1, "the collection after the start is counted: " + since);
        assertTrue(counted <= now - before, "nothing before the start is counted: " + counted + " of " + (now - before));
        assertEquals(5, since.cleanupNs());
    }

    @Test
    void aCollectorUnknownAtTheStartCountsFromZeroAndCountsNeverGoNegative() {
        List<YcsbClientStats.Collector> now = YcsbClientStats.collectorsNow();
        YcsbClientStats fromNothing = YcsbClientStats.since(List.of(), -1);
        for (int i = 0; i < now.size(); i++) {
            assertEquals(now.get(i).name(), fromNothing.collectors().get(i).name());
            assertTrue(fromNothing.collectors().get(i).count() >= now.get(i).count(), fromNothing.toString());
        }
        List<YcsbClientStats.Collector> inflated = now.stream()
                .map(c -> new YcsbClientStats.Collector(c.name(), c.count() + 1_000_000, c.timeMs() + 1_000_000)).toList();
        for (YcsbClientStats.Collector c : YcsbClientStats.since(inflated, -1).collectors()) {
            assertEquals(0, c.count(), c.toString());
            assertEquals(0, c.timeMs(), c.toString());
        }
    }
}
