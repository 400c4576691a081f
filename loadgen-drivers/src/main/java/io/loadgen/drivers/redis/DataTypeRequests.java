package io.loadgen.drivers.redis;

import com.fasterxml.jackson.databind.JsonNode;
import io.loadgen.core.BadInputException;
import io.loadgen.core.Limits;
import io.loadgen.core.driver.DriverProperties;
import io.loadgen.core.time.Durations;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * {@code redis.requests}: a YAML or JSON file of named Redis commands on Redis's own data types (strings,
 * lists, sets, sorted sets, hashes), each its own operation type and series, mixed by weight; and
 * {@code redis.dataintegrity}, which checks the values they read. Read and checked on the main thread, before the
 * driver connects; immutable.
 *
 * <pre>
 * commands:
 *   - name: GET_SESSION
 *     command: GET
 *     key: {prefix: "session:", count: 100000, distribution: zipfian}
 *     weight: 80
 *   - name: SET_SESSION
 *     command: SET
 *     key: {prefix: "session:", count: 100000, distribution: zipfian}
 *     value: {min: 100, max: 1000}
 *     ttl: 30m
 *     weight: 20
 * </pre>
 *
 * @param file      the file, for messages
 * @param requests  the commands, in the file's order
 * @param integrity true to check every value read ({@code redis.dataintegrity})
 */
record DataTypeRequests(Path file, List<Request> requests, boolean integrity) {
    static final String REQUESTS = "redis.requests";
    static final String DATA_INTEGRITY = "redis.dataintegrity";

    /** A value larger than this is surely a typo; Redis itself allows 512 MB. */
    static final int MAX_VALUE_BYTES = 64 << 20;
    /** ZADD's scores are whole numbers within this (2^53), which Redis's doubles hold exactly. */
    private static final long MAX_SCORE = 1L << 53;

    /** A command's name becomes a tag prefix: no dots (they separate tag parts), no spaces. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");
    private static final Set<String> COMMON = Set.of("name", "command", "key", "weight");
    private static final Set<String> ALL_FIELDS = Set.of("name", "command", "key", "weight", "value", "ttl", "field",
            "member", "start", "stop", "score", "min", "max", "limit", "increment");
    private static final Pattern SCORE_BOUND = Pattern.compile("\\(?([-+]?inf|[-+]?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?)");

    /**
     * One command of the file.
     *
     * @param name      the operation type, and so the series' tag prefix ({@code name.intended}, ...)
     * @param command   what it sends
     * @param key       its keys
     * @param field     a hash command's fields, else null
     * @param member    a set or sorted-set command's members, else null
     * @param minSize   the smallest value a write sends, bytes
     * @param maxSize   the largest; sizes are uniform in between (equal: fixed)
     * @param ttlMs     SET's expiry (EX, or PX when not whole seconds), 0 for none
     * @param start     LRANGE's and ZRANGE's start index
     * @param stop      their stop index (inclusive, negative from the end)
     * @param minScore  ZADD's smallest score; scores are uniform whole numbers up to maxScore
     * @param maxScore  ZADD's largest score
     * @param rangeMin  ZRANGEBYSCORE's min, as Redis reads it ({@code -inf}, {@code (5}, {@code 10})
     * @param rangeMax  its max
     * @param limit     ZRANGEBYSCORE's LIMIT 0 count, 0 for none
     * @param increment ZINCRBY's increment
     * @param weight    how often a mixed run sends it, relative to the others
     */
    record Request(String name, DataTypeCommand command, NameSpace key, NameSpace field, NameSpace member,
                   int minSize, int maxSize, long ttlMs, long start, long stop, long minScore, long maxScore,
                   String rangeMin, String rangeMax, long limit, double increment, double weight) {
    }

    /**
     * The file {@code redis.requests} names, read and checked; null when it is not given (YCSB's operations).
     *
     * @throws BadInputException naming the property, or the file's command and field, and the fix
     */
    static DataTypeRequests from(DriverProperties p) {
        String file = p.getString(REQUESTS).trim();
        boolean integrity = p.getBoolean(DATA_INTEGRITY);
        if (file.isEmpty()) {
            if (integrity) {
                throw new BadInputException("property " + DATA_INTEGRITY + " checks the values of " + REQUESTS
                        + "' commands; give -p " + REQUESTS + "=FILE too (YCSB's operations are not checked)");
            }
            return null;
        }
        for (String ycsb : List.of(RedisSettings.FIELD_COUNT, RedisSettings.FIELD_LENGTH, RedisSettings.SCAN_LENGTH)) {
            if (p.isSet(ycsb)) {
                throw new BadInputException("property " + ycsb + " shapes YCSB's records, which " + REQUESTS
                        + " does not use; remove it (each command's value: gives its size)");
            }
        }
        Path path = Path.of(file);
        return new DataTypeRequests(path, read(path, integrity), integrity);
    }

    /** The operation types: the commands' names, in order. */
    List<String> names() {
        return requests.stream().map(Request::name).toList();
    }

    /** Each command's weight, in order. */
    double[] weights() {
        return requests.stream().mapToDouble(Request::weight).toArray();
    }

    /** The largest value any command writes, bytes (0 when none writes one). */
    int maxValueSize() {
        int max = 0;
        for (Request r : requests) {
            max = Math.max(max, r.command().writesValue() ? r.maxSize() : 0);
        }
        return max;
    }

    private static List<Request> read(Path file, boolean integrity) {
        JsonNode root = io.loadgen.drivers.support.RequestFiles.read(file, REQUESTS,
                "a YAML or JSON file of commands (docs/drivers/redis.md shows one)", "a YAML or JSON list of commands");
        JsonNode list = root;
        if (root != null && root.isObject()) {
            for (Iterator<String> keys = root.fieldNames(); keys.hasNext(); ) {
                String key = keys.next();
                if (!key.equals("commands")) {
                    throw new BadInputException(file + ": unknown key '" + Limits.quote(key) + "' at the top; the"
                            + " file is a list of commands, or 'commands:' with one");
                }
            }
            list = root.get("commands");
        }
        if (list == null || !list.isArray() || list.isEmpty()) {
            throw new BadInputException(file + ": expected a list of commands (or 'commands:' with one), each with a"
                    + " name, a command and a key");
        }
        List<Request> requests = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (int i = 0; i < list.size(); i++) {
            Request r = request(list.get(i), file + ": command " + (i + 1), integrity);
            if (!names.add(r.name().toLowerCase(Locale.ROOT))) {
                throw new BadInputException(file + ": two commands are named '" + r.name() + "'; give each its own"
                        + " name (it names its series)");
            }
            requests.add(r);
        }
        return List.copyOf(requests);
    }

    private static Request request(JsonNode e, String what, boolean integrity) {
        if (!e.isObject()) {
            throw new BadInputException(what + ": expected a map with name, command and key");
        }
        String name = e.path("name").isValueNode() ? e.path("name").asText() : "";
        if (!NAME.matcher(name).matches()) {
            throw new BadInputException(what + ": name '" + Limits.quote(name) + "' must be 1-64 letters, digits,"
                    + " _ or - (it names the series, e.g. GET_SESSION.intended)");
        }
        what = what + " (" + name + ")";
        for (Iterator<String> keys = e.fieldNames(); keys.hasNext(); ) {
            String key = keys.next();
            if (!ALL_FIELDS.contains(key)) {
                throw new BadInputException(what + ": unknown field '" + Limits.quote(key) + "'; a command has "
                        + String.join(", ", new TreeSet<>(ALL_FIELDS)));
            }
        }
        DataTypeCommand command = command(e.path("command"), what);
        checkArity(e, command, what);
        if (!e.has("key")) {
            throw new BadInputException(what + ": no 'key'; give key: {prefix: \"session:\", count: 100000,"
                    + " distribution: zipfian}, or key: NAME for one key");
        }
        NameSpace key = names(e.get("key"), what + ": key");
        NameSpace field = e.has("field") ? names(e.get("field"), what + ": field") : null;
        NameSpace member = e.has("member") ? names(e.get("member"), what + ": member") : null;
        int minSize = 100;
        int maxSize = 100;
        if (e.has("value")) {
            int[] sizes = sizes(e.get("value"), what + ": value");
            minSize = sizes[0];
            maxSize = sizes[1];
        }
        if (integrity && command.writesValue() && minSize < VersionedValues.MIN_CHECKED_SIZE) {
            throw new BadInputException(what + ": value: size " + minSize + " is below "
                    + VersionedValues.MIN_CHECKED_SIZE + " bytes, the least a value checked by " + DATA_INTEGRITY
                    + " carries (its version and its letters); give sizes of " + VersionedValues.MIN_CHECKED_SIZE
                    + " or more");
        }
        long ttlMs = e.has("ttl") ? ttl(e.get("ttl"), what + ": ttl") : 0;
        long[] score = e.has("score") ? scores(e.get("score"), what + ": score") : new long[] {0, 1000};
        double weight = 1;
        if (e.has("weight")) {
            JsonNode w = e.get("weight");
            weight = w.asDouble();
            if (!w.isNumber() || !(weight > 0) || Double.isInfinite(weight)) {
                throw new BadInputException(what + ": weight '" + Limits.quote(w.asText()) + "' must be a number"
                        + " above 0 (how often the command is sent relative to the others); remove the command to"
                        + " send it never");
            }
        }
        return new Request(name, command, key, field, member, minSize, maxSize, ttlMs,
                whole(e, "start", 0, what), whole(e, "stop", 9, what), score[0], score[1],
                bound(e, "min", "-inf", what), bound(e, "max", "+inf", what), limit(e, what),
                number(e, "increment", 1, what), weight);
    }

    private static DataTypeCommand command(JsonNode node, String what) {
        String given = node.isValueNode() ? node.asText().trim() : "";
        if (given.isEmpty()) {
            throw new BadInputException(what + ": no 'command'; give one of " + commandNames());
        }
        try {
            return DataTypeCommand.valueOf(given.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException unknown) {
            throw new BadInputException(what + ": command '" + Limits.quote(given) + "' is not one the driver sends;"
                    + " give one of " + commandNames());
        }
    }

    private static String commandNames() {
        List<String> names = new ArrayList<>();
        for (DataTypeCommand c : DataTypeCommand.values()) {
            names.add(c.name());
        }
        return String.join(", ", names);
    }

    /** The fields the command needs are there, and no field it does not take. */
    private static void checkArity(JsonNode e, DataTypeCommand command, String what) {
        for (String needed : command.needs()) {
            if (!e.has(needed)) {
                throw new BadInputException(what + ": " + command.name() + " needs '" + needed + "' ("
                        + command.synopsis() + "); give " + needed + ": {prefix: \"" + needed
                        + ":\", count: 100}, or " + needed + ": NAME for one " + needed);
            }
        }
        for (Iterator<String> keys = e.fieldNames(); keys.hasNext(); ) {
            String key = keys.next();
            if (!COMMON.contains(key) && !command.needs().contains(key) && !command.may().contains(key)) {
                throw new BadInputException(what + ": " + command.name() + " takes no '" + key + "' ("
                        + command.synopsis() + "); remove it, or send a command that takes it");
            }
        }
    }

    /** A name space: a map {prefix, count, distribution}, or one name as text. */
    private static NameSpace names(JsonNode node, String what) {
        if (node.isTextual() || node.isNumber()) {
            String name = node.asText();
            checkAscii(name, what);
            if (name.isEmpty()) {
                throw new BadInputException(what + ": the name is empty; give a name, or {prefix, count}");
            }
            return NameSpace.fixed(name);
        }
        if (!node.isObject()) {
            throw new BadInputException(what + ": expected {prefix: \"session:\", count: 1000, distribution:"
                    + " uniform} or one name");
        }
        for (Iterator<String> keys = node.fieldNames(); keys.hasNext(); ) {
            String key = keys.next();
            if (!Set.of("prefix", "count", "distribution").contains(key)) {
                throw new BadInputException(what + ": unknown field '" + Limits.quote(key) + "'; give prefix, count"
                        + " and distribution (uniform, zipfian or sequential)");
            }
        }
        String prefix = node.path("prefix").asText("");
        checkAscii(prefix, what + ": prefix");
        JsonNode count = node.get("count");
        if (count == null || !count.canConvertToLong() || !count.isIntegralNumber() || count.asLong() < 1) {
            throw new BadInputException(what + ": count '" + (count == null ? "" : Limits.quote(count.asText()))
                    + "' must be a whole number from 1: how many names, " + (prefix.isEmpty() ? "" : prefix) + "0 to "
                    + (prefix.isEmpty() ? "" : prefix) + "count-1");
        }
        String distribution = node.path("distribution").asText("uniform").trim().toLowerCase(Locale.ROOT);
        if (!NameSpace.DISTRIBUTIONS.contains(distribution)) {
            throw new BadInputException(what + ": distribution '" + Limits.quote(distribution) + "' is not one of "
                    + String.join(", ", NameSpace.DISTRIBUTIONS));
        }
        return NameSpace.of(prefix, count.asLong(), distribution);
    }

    private static void checkAscii(String name, String what) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c <= ' ' || c > '~') {
                throw new BadInputException(what + ": '" + Limits.quote(name) + "' has a character that is not"
                        + " printable ASCII (or a space); names are sent as ASCII");
            }
        }
    }

    /** Value sizes: a number (fixed), {size: N} or {min: A, max: B} (uniform). */
    private static int[] sizes(JsonNode node, String what) {
        String form = "; give value: {size: 100} (fixed) or value: {min: 10, max: 1000} (uniform)";
        if (node.isNumber()) {
            int size = size(node, what);
            return new int[] {size, size};
        }
        if (!node.isObject()) {
            throw new BadInputException(what + ": '" + Limits.quote(node.asText()) + "' is not a size" + form);
        }
        for (Iterator<String> keys = node.fieldNames(); keys.hasNext(); ) {
            String key = keys.next();
            if (!Set.of("size", "min", "max").contains(key)) {
                throw new BadInputException(what + ": unknown field '" + Limits.quote(key) + "'" + form);
            }
        }
        if (node.has("size")) {
            if (node.has("min") || node.has("max")) {
                throw new BadInputException(what + ": both size and min/max" + form);
            }
            int size = size(node.get("size"), what + ": size");
            return new int[] {size, size};
        }
        if (!node.has("min") || !node.has("max")) {
            throw new BadInputException(what + ": needs size, or min and max" + form);
        }
        int min = size(node.get("min"), what + ": min");
        int max = size(node.get("max"), what + ": max");
        if (min > max) {
            throw new BadInputException(what + ": min " + min + " is above max " + max + form);
        }
        return new int[] {min, max};
    }

    private static int size(JsonNode node, String what) {
        if (!node.isIntegralNumber() || node.asLong() < 1 || node.asLong() > MAX_VALUE_BYTES) {
            throw new BadInputException(what + ": '" + Limits.quote(node.asText()) + "' must be a whole number of"
                    + " bytes from 1 to " + MAX_VALUE_BYTES);
        }
        return node.asInt();
    }

    private static long ttl(JsonNode node, String what) {
        Duration d = Durations.parse(node.asText(), what);
        if (d.isNegative() || d.toMillis() < 1) {
            throw new BadInputException(what + ": '" + Limits.quote(node.asText()) + "' must be 1ms or more, e.g."
                    + " 60s (SET ... EX 60)");
        }
        return d.toMillis();
    }

    /** ZADD's scores: a whole number, or {min, max} (uniform whole numbers). */
    private static long[] scores(JsonNode node, String what) {
        if (node.isIntegralNumber() && Math.abs(node.asLong()) <= MAX_SCORE) {
            return new long[] {node.asLong(), node.asLong()};
        }
        JsonNode min = node.path("min");
        JsonNode max = node.path("max");
        if (!node.isObject() || !min.isIntegralNumber() || !max.isIntegralNumber() || min.asLong() > max.asLong()
                || node.size() != 2 || Math.abs(min.asLong()) > MAX_SCORE || Math.abs(max.asLong()) > MAX_SCORE) {
            throw new BadInputException(what + ": give a whole number, or {min: 0, max: 1000} (uniform whole"
                    + " numbers, min not above max, within +-2^53, where Redis's double scores are exact)");
        }
        return new long[] {min.asLong(), max.asLong()};
    }

    private static long whole(JsonNode e, String field, long otherwise, String what) {
        JsonNode node = number(e, field, true, what);
        return node == null ? otherwise : node.asLong();
    }

    private static double number(JsonNode e, String field, double otherwise, String what) {
        JsonNode node = number(e, field, false, what);
        return node == null ? otherwise : node.asDouble();
    }

    /** The entry's {@code field}, a whole number (an index) or any finite number; null when not given. */
    private static JsonNode number(JsonNode e, String field, boolean whole, String what) {
        JsonNode node = e.get(field);
        boolean fits = node == null || (whole ? node.isIntegralNumber() && node.canConvertToLong()
                : node.isNumber() && Double.isFinite(node.asDouble()));
        if (!fits) {
            throw new BadInputException(what + ": " + field + " '" + Limits.quote(node.asText()) + "' must be "
                    + (whole ? "a whole number (an index; negative counts from the end)" : "a number"));
        }
        return node;
    }

    private static String bound(JsonNode e, String field, String otherwise, String what) {
        JsonNode node = e.get(field);
        if (node == null) {
            return otherwise;
        }
        String text = node.asText().trim();
        if (!node.isValueNode() || !SCORE_BOUND.matcher(text).matches()) {
            throw new BadInputException(what + ": " + field + " '" + Limits.quote(text) + "' is not a score bound;"
                    + " give a number, (number for an open bound, -inf or +inf");
        }
        return text;
    }

    private static long limit(JsonNode e, String what) {
        JsonNode node = e.get("limit");
        if (node == null) {
            return 0;
        }
        if (!node.isIntegralNumber() || node.asLong() < 0) {
            throw new BadInputException(what + ": limit '" + Limits.quote(node.asText()) + "' must be a whole number,"
                    + " 0 for none (LIMIT 0 count)");
        }
        return node.asLong();
    }
}
