package io.loadgen.drivers.redis;

import io.loadgen.core.BadInputException;
import io.loadgen.core.driver.DriverProperties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code redis.requests}: what a file means, one line naming the command and the field for each mistake, and the checked values. */
class DataTypeRequestsTest {
    private static final Path SAMPLE = Path.of("..", "workloads", "redis-datatypes.yaml");

    @TempDir
    Path dir;

    private static DriverProperties props(Map<String, String> given) {
        return DriverProperties.of("redis", RedisSettings.SPECS, given);
    }

    private static DataTypeRequests read(Map<String, String> given) {
        return DataTypeRequests.from(props(given));
    }

    /** The one line a file with {@code yaml} is refused with; {@code FILE} in the answer stands for its path. */
    private String refused(String yaml, String... more) throws Exception {
        Path f = dir.resolve("commands.yaml");
        Files.writeString(f, yaml);
        Map<String, String> given = new HashMap<>(Map.of("redis.requests", f.toString()));
        for (int i = 0; i + 1 < more.length; i += 2) {
            given.put(more[i], more[i + 1]);
        }
        String message = assertThrows(BadInputException.class, () -> read(given)).getMessage();
        assertFalse(message.contains("\n"), message);
        return message.replace(f.toString(), "FILE");
    }

    @Test
    void theSampleFileIsEveryCommandKindNamedAndWeighed() {
        DataTypeRequests r = read(Map.of("redis.requests", SAMPLE.toString()));
        assertEquals(List.of("GET_SESSION", "SET_SESSION", "COUNT_HIT", "PUSH_EVENT", "READ_FEED", "APPEND_EVENT",
                "POP_EVENT", "JOIN_ROOM", "LEAVE_ROOM", "IN_ROOM", "ROOM_MEMBERS", "SCORE", "ADD_POINTS", "TOP_TEN",
                "SCORE_BAND", "SET_PROFILE", "GET_PROFILE_FIELD", "GET_PROFILE"), r.names());
        java.util.Set<DataTypeCommand> kinds = java.util.EnumSet.noneOf(DataTypeCommand.class);
        r.requests().forEach(q -> kinds.add(q.command()));
        assertEquals(java.util.EnumSet.allOf(DataTypeCommand.class), kinds, "the sample shows every command");
        DataTypeRequests.Request set = r.requests().get(1);
        assertEquals(DataTypeCommand.SET, set.command());
        assertEquals("session:", set.key().prefix());
        assertEquals(1000, set.key().count());
        assertEquals("zipfian", set.key().distribution());
        assertEquals(200, set.minSize());
        assertEquals(2000, set.maxSize());
        assertEquals(30 * 60_000L, set.ttlMs());
        DataTypeRequests.Request band = r.requests().get(14);
        assertEquals("50000", band.rangeMin());
        assertEquals("(60000", band.rangeMax());
        assertEquals(20, band.limit());
        assertTrue(r.requests().get(11).key().fixed(), "key: leaderboard is one key");
        assertEquals("leaderboard", r.requests().get(11).key().name(7));
        assertFalse(r.integrity());
        assertEquals(2000, r.maxValueSize());
    }

    @Test
    void defaultsAndShorthands() throws Exception {
        Path f = dir.resolve("c.json");
        Files.writeString(f, "[{\"name\": \"W\", \"command\": \"rpush\", \"key\": {\"prefix\": \"l:\", \"count\": 3}},"
                + " {\"name\": \"R\", \"command\": \"LRANGE\", \"key\": \"l:0\", \"weight\": 2.5}]");
        DataTypeRequests r = read(Map.of("redis.requests", f.toString(), "redis.dataintegrity", "true"));
        DataTypeRequests.Request w = r.requests().get(0);
        assertEquals(DataTypeCommand.RPUSH, w.command(), "command names are case-insensitive");
        assertEquals(100, w.minSize(), "values are 100 bytes unless given");
        assertEquals("uniform", w.key().distribution());
        assertEquals(1.0, w.weight());
        assertEquals(0, r.requests().get(1).start());
        assertEquals(9, r.requests().get(1).stop());
        assertArrayEquals(new double[] {1.0, 2.5}, r.weights());
        assertTrue(r.integrity());
        assertNull(read(Map.of()), "no file: YCSB's operations");
    }

    @Test
    void eachMistakeInTheFileIsOneLineNamingTheCommandAndTheField() throws Exception {
        assertEquals("FILE: command 1 (A): command 'GETT' is not one the driver sends; give one of GET, SET, INCR,"
                + " LPUSH, RPUSH, LPOP, LRANGE, SADD, SREM, SMEMBERS, SISMEMBER, ZADD, ZRANGE, ZRANGEBYSCORE, ZINCRBY,"
                + " HSET, HGET, HGETALL", refused("- {name: A, command: GETT, key: k}\n"));
        assertEquals("FILE: command 2 (B): no 'key'; give key: {prefix: \"session:\", count: 100000, distribution:"
                + " zipfian}, or key: NAME for one key",
                refused("- {name: A, command: GET, key: k}\n- {name: B, command: SET}\n"));
        assertEquals("FILE: command 1 (A): weight '0' must be a number above 0 (how often the command is sent"
                + " relative to the others); remove the command to send it never",
                refused("- {name: A, command: GET, key: k, weight: 0}\n"));
        assertEquals("FILE: command 1 (A): weight '-2' must be a number above 0 (how often the command is sent"
                + " relative to the others); remove the command to send it never",
                refused("- {name: A, command: GET, key: k, weight: -2}\n"));
        assertEquals("FILE: command 1 (A): GET takes no 'value' (GET key); remove it, or send a command that takes it",
                refused("- {name: A, command: GET, key: k, value: {size: 10}}\n"));
        assertEquals("FILE: command 1 (A): HGET needs 'field' (HGET key field); give field: {prefix: \"field:\","
                + " count: 100}, or field: NAME for one field", refused("- {name: A, command: HGET, key: k}\n"));
        assertEquals("FILE: command 1 (A): LPUSH takes no 'ttl' (LPUSH key value); remove it, or send a command that"
                + " takes it", refused("- {name: A, command: LPUSH, key: k, ttl: 10s}\n"));
        assertEquals("FILE: command 1 (A): key: count '0' must be a whole number from 1: how many names, s:0 to"
                + " s:count-1", refused("- {name: A, command: GET, key: {prefix: 's:', count: 0}}\n"));
        assertEquals("FILE: command 1 (A): key: distribution 'latest' is not one of uniform, zipfian, sequential",
                refused("- {name: A, command: GET, key: {prefix: 's:', count: 5, distribution: latest}}\n"));
        assertEquals("FILE: command 1 (A): value: min 50 is above max 10; give value: {size: 100} (fixed) or value:"
                + " {min: 10, max: 1000} (uniform)", refused("- {name: A, command: SET, key: k, value: {min: 50, max: 10}}\n"));
        assertEquals("FILE: command 1 (A): unknown field 'vlaue'; a command has command, field, increment, key, limit,"
                + " max, member, min, name, score, start, stop, ttl, value, weight",
                refused("- {name: A, command: SET, key: k, vlaue: 5}\n"));
        assertEquals("FILE: command 1: name 'A.B' must be 1-64 letters, digits, _ or - (it names the series, e.g."
                + " GET_SESSION.intended)", refused("- {name: A.B, command: GET, key: k}\n"));
        assertEquals("FILE: two commands are named 'a'; give each its own name (it names its series)",
                refused("- {name: A, command: GET, key: k}\n- {name: a, command: GET, key: k}\n"));
        assertEquals("FILE: command 1 (A): max 'x' is not a score bound; give a number, (number for an open bound,"
                + " -inf or +inf", refused("- {name: A, command: ZRANGEBYSCORE, key: z, max: x}\n"));
        assertEquals("FILE: expected a list of commands (or 'commands:' with one), each with a name, a command and a"
                + " key", refused("commands: []\n"));
        assertEquals("FILE: command 1 (A): value: size 8 is below 16 bytes, the least a value checked by"
                + " redis.dataintegrity carries (its version and its letters); give sizes of 16 or more",
                refused("- {name: A, command: SET, key: k, value: 8}\n", "redis.dataintegrity", "true"));
        assertEquals("property redis.fieldcount shapes YCSB's records, which redis.requests does not use; remove it"
                + " (each command's value: gives its size)",
                refused("- {name: A, command: GET, key: k}\n", "redis.fieldcount", "3"));
        assertTrue(refused("- {name: A, command: GET, key: k\n").startsWith("redis.requests FILE:"));
    }

    @Test
    void integrityWithoutAFileAndAMissingFileAreRefused() {
        assertEquals("property redis.dataintegrity checks the values of redis.requests' commands; give -p"
                + " redis.requests=FILE too (YCSB's operations are not checked)",
                assertThrows(BadInputException.class, () -> read(Map.of("redis.dataintegrity", "true"))).getMessage());
        assertEquals("property redis.requests: nope.yaml does not exist; give the path of a YAML or JSON file of"
                + " commands (docs/drivers/redis.md shows one)",
                assertThrows(BadInputException.class, () -> read(Map.of("redis.requests", "nope.yaml"))).getMessage());
    }

    @Test
    void aCheckedValueIsKnownByItsKeyAndNothingElse() {
        long key = VersionedValues.identity("session:42");
        byte[] v = VersionedValues.value(key, 1234, 64);
        String text = new String(v, StandardCharsets.US_ASCII);
        assertEquals(64, v.length);
        assertTrue(text.matches("1234:[a-z]{59}"), text);
        assertTrue(VersionedValues.matches(key, ByteBuffer.wrap(v)));
        assertFalse(VersionedValues.matches(VersionedValues.identity("session:43"), ByteBuffer.wrap(v)),
                "another key's value");
        byte[] changed = v.clone();
        changed[40] = (byte) (changed[40] == 'a' ? 'b' : 'a');
        assertFalse(VersionedValues.matches(key, ByteBuffer.wrap(changed)), "one letter changed");
        assertFalse(VersionedValues.matches(key, ByteBuffer.wrap(java.util.Arrays.copyOf(v, 6))), "cut short");
        assertFalse(VersionedValues.matches(key, ByteBuffer.wrap("garbage".getBytes(StandardCharsets.US_ASCII))));
        byte[] renumbered = VersionedValues.value(key, 1235, 64);
        assertFalse(java.util.Arrays.equals(v, renumbered), "another version, other letters");
        assertTrue(VersionedValues.matches(key, ByteBuffer.wrap(renumbered)));
        assertTrue(VersionedValues.matches(key, ByteBuffer.wrap(VersionedValues.value(key,
                VersionedValues.VERSION_LIMIT - 1, VersionedValues.MIN_CHECKED_SIZE))), "the longest version fits");
        long field = VersionedValues.field(key, "f3");
        assertEquals(field, VersionedValues.field(key, ByteBuffer.wrap("f3".getBytes(StandardCharsets.US_ASCII))));
        assertFalse(VersionedValues.matches(VersionedValues.field(key, "f4"),
                ByteBuffer.wrap(VersionedValues.value(field, 1, 32))), "another field's value");
    }
}
