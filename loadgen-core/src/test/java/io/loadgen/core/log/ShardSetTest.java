package io.loadgen.core.log;

import io.loadgen.core.BadInputException;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which shards of a sharded run a set of logs holds, read from their {@code #[shard: ...]} header lines. */
class ShardSetTest {
    private static LogHeader header(String source, String shardLine) {
        List<String> comments = new ArrayList<>(List.of("[run: driver=mockdb target=1000]"));
        if (shardLine != null) {
            comments.add("[shard: " + shardLine + "]");
        }
        return LogHeader.of(source, comments);
    }

    private static ShardSet of(String... sourceThenLine) {
        List<LogHeader> headers = new ArrayList<>();
        for (int i = 0; i < sourceThenLine.length; i += 2) {
            headers.add(header(sourceThenLine[i], sourceThenLine[i + 1]));
        }
        return ShardSet.of(headers);
    }

    @Test
    void everyShardOnceIsWhole() {
        ShardSet s = of("s2", "index=2 count=3 start_at=1795000000000", "s0", "index=0 count=3 start_at=1795000000000",
                "s1", "index=1 count=3 start_at=1795000000000");
        assertTrue(s.sharded());
        assertEquals("", s.problem());
        assertEquals("3 shard logs (0-2 of 3)", s.describe());
        assertEquals("{\"count\":3,\"start_at\":\"2026-11-18T11:06:40Z\",\"merged\":[0,1,2],\"missing\":[]}",
                s.toJson().toString());
    }

    @Test
    void missingAndDuplicatedShardsAreTheProblem() {
        ShardSet s = of("a", "index=0 count=5 start_at=-", "b", "index=0 count=5 start_at=-",
                "c", "index=2 count=5 start_at=-");
        assertEquals("shards 1, 3-4 of 5 missing; shard 0 given 2 times (a, b)", s.problem());
        assertEquals("3 shard logs (0, 2 of 5)", s.describe());
        assertEquals(List.of(1, 3, 4), s.missing());
        assertEquals("{\"count\":5,\"start_at\":null,\"merged\":[0,2],\"missing\":[1,3,4]}", s.toJson().toString());
    }

    @Test
    void unshardedLogsAreNoShardSet() {
        ShardSet s = of("a", null, "b", null);
        assertFalse(s.sharded());
        assertEquals("", s.problem());
        assertEquals("", s.describe());
    }

    @Test
    void logsOfDifferentRunsOrMixedWithUnshardedOnesAreBadInput() {
        assertEquals("b is not a shard log but a is: merge the shard logs of one run alone (an unsharded run's log is"
                        + " a whole run of its own)",
                assertThrows(BadInputException.class, () -> of("a", "index=0 count=2 start_at=-", "b", null)).getMessage());
        assertEquals("b is shard 1 of 3 starting at -, but a is of 2 shards starting at -: merge only the logs of one"
                        + " sharded run",
                assertThrows(BadInputException.class, () -> of("a", "index=0 count=2 start_at=-",
                        "b", "index=1 count=3 start_at=-")).getMessage());
        assertThrows(BadInputException.class, () -> of("a", "index=0 count=2 start_at=1", "b", "index=1 count=2 start_at=2"));
        assertEquals("a: the shard line 'index=2 count=2 start_at=-' is not 'index=I count=N start_at=MS' with"
                        + " 0 <= I < N; give the logs as loadgen run --shard wrote them",
                assertThrows(BadInputException.class, () -> of("a", "index=2 count=2 start_at=-")).getMessage());
        assertThrows(BadInputException.class, () -> of("a", "index=x count=2 start_at=-"));
    }
}
