package io.loadgen.drivers.redis;

import io.lettuce.core.protocol.CommandType;

import java.util.List;

/**
 * The Redis commands a {@code redis.requests} file may name: what each takes besides its key (the entry's
 * fields it needs and those it may have), and how its reply becomes a status. Immutable.
 */
enum DataTypeCommand {
    GET(CommandType.GET, "GET key", Reply.ONE_VALUE, List.of(), List.of()),
    SET(CommandType.SET, "SET key value [EX seconds]", Reply.ANY, List.of(), List.of("value", "ttl")),
    INCR(CommandType.INCR, "INCR key", Reply.ANY, List.of(), List.of()),
    LPUSH(CommandType.LPUSH, "LPUSH key value", Reply.ANY, List.of(), List.of("value")),
    RPUSH(CommandType.RPUSH, "RPUSH key value", Reply.ANY, List.of(), List.of("value")),
    LPOP(CommandType.LPOP, "LPOP key", Reply.ONE_VALUE, List.of(), List.of()),
    LRANGE(CommandType.LRANGE, "LRANGE key start stop", Reply.VALUES, List.of(), List.of("start", "stop")),
    SADD(CommandType.SADD, "SADD key member", Reply.ANY, List.of("member"), List.of()),
    SREM(CommandType.SREM, "SREM key member", Reply.ANY, List.of("member"), List.of()),
    SMEMBERS(CommandType.SMEMBERS, "SMEMBERS key", Reply.ANY, List.of(), List.of()),
    SISMEMBER(CommandType.SISMEMBER, "SISMEMBER key member", Reply.ANY, List.of("member"), List.of()),
    ZADD(CommandType.ZADD, "ZADD key score member", Reply.ANY, List.of("member"), List.of("score")),
    ZRANGE(CommandType.ZRANGE, "ZRANGE key start stop", Reply.ANY, List.of(), List.of("start", "stop")),
    ZRANGEBYSCORE(CommandType.ZRANGEBYSCORE, "ZRANGEBYSCORE key min max [LIMIT 0 count]", Reply.ANY, List.of(),
            List.of("min", "max", "limit")),
    ZINCRBY(CommandType.ZINCRBY, "ZINCRBY key increment member", Reply.ANY, List.of("member"), List.of("increment")),
    HSET(CommandType.HSET, "HSET key field value", Reply.ANY, List.of("field"), List.of("value")),
    HGET(CommandType.HGET, "HGET key field", Reply.ONE_VALUE, List.of("field"), List.of()),
    HGETALL(CommandType.HGETALL, "HGETALL key", Reply.FIELDS_AND_VALUES, List.of(), List.of());

    /** How a reply becomes a status, and what {@code redis.dataintegrity} checks in it. */
    enum Reply {
        /** OK whatever it holds (a write's count, a range, a member test's 0 or 1). */
        ANY,
        /** One value, checked; nil (no such key, field or element) is NOT_FOUND. */
        ONE_VALUE,
        /** Values of one key (a list's), each checked; empty is OK. */
        VALUES,
        /** A hash's fields and values, each value checked against its field; empty (no such key) is NOT_FOUND. */
        FIELDS_AND_VALUES
    }

    private final CommandType type;
    private final String synopsis;
    private final Reply reply;
    private final List<String> needs;
    private final List<String> may;

    DataTypeCommand(CommandType type, String synopsis, Reply reply, List<String> needs, List<String> may) {
        this.type = type;
        this.synopsis = synopsis;
        this.reply = reply;
        this.needs = needs;
        this.may = may;
    }

    CommandType type() {
        return type;
    }

    /** The command as Redis's documentation writes it, for messages. */
    String synopsis() {
        return synopsis;
    }

    Reply reply() {
        return reply;
    }

    /** The entry's fields, besides name, command, key and weight, that this command must have. */
    List<String> needs() {
        return needs;
    }

    /** The entry's fields, besides those it needs, that this command may have. */
    List<String> may() {
        return may;
    }

    /** True for a command that writes a value the run makes ({@link VersionedValues}). */
    boolean writesValue() {
        return may.contains("value");
    }

    /** True for a command that changes nothing, which the warm-up may send. */
    boolean isRead() {
        return this == GET || this == LRANGE || this == SMEMBERS || this == SISMEMBER || this == ZRANGE
                || this == ZRANGEBYSCORE || this == HGET || this == HGETALL;
    }
}
