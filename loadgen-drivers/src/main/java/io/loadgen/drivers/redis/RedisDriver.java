package io.loadgen.drivers.redis;

import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.loadgen.core.driver.AsyncDriver;
import io.loadgen.core.driver.Completion;
import io.loadgen.core.driver.Operation;
import io.loadgen.core.driver.Status;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.LongAdder;

/**
 * YCSB's six operations on one pipelined Lettuce connection, laid out as YCSB's Redis binding does
 * (see {@link RecordLayout}). Issuer threads call {@link #submit} concurrently; completions run on
 * Lettuce's I/O thread; {@link #stats} and {@link #close} are called once, after the run.
 *
 * <table>
 *   <caption>What each operation sends; an operation with several commands completes when all are answered</caption>
 *   <tr><th>op</th><th>commands</th><th>status</th></tr>
 *   <tr><td>READ</td><td>HGETALL key</td><td>NOT_FOUND when the key does not exist</td></tr>
 *   <tr><td>UPDATE</td><td>HSET key, every field (YCSB's {@code writeallfields=true})</td><td>OK</td></tr>
 *   <tr><td>INSERT</td><td>HSET key, every field; ZADD {@code _indices} score key (pipelined)</td><td>OK</td></tr>
 *   <tr><td>SCAN</td><td>ZRANGEBYSCORE {@code _indices} score(key) +inf LIMIT 0 scanlength, then HGETALL
 *       each key returned (pipelined)</td><td>OK, even when fewer records follow the key</td></tr>
 *   <tr><td>READ-MODIFY-WRITE</td><td>HGETALL key, then HSET every field</td><td>NOT_FOUND (and no
 *       write) when the key does not exist</td></tr>
 *   <tr><td>DELETE</td><td>DEL key; ZREM {@code _indices} key (pipelined)</td><td>NOT_FOUND when the
 *       key did not exist</td></tr>
 * </table>
 *
 * <p>A command that fails (timeout, connection lost, rejected while disconnected, a server error)
 * completes its operation with {@link Status#ERROR}, so an operation never hangs for longer than the
 * command timeout. The driver itself does not bound operations in flight ({@link #maxInFlight} is
 * unbounded): Redis serves one connection's pipeline in order, and the run's {@code --max-in-flight}
 * is the bound.
 */
final class RedisDriver implements AsyncDriver {
    private static final int READ = 0;
    private static final int UPDATE = 1;
    private static final int INSERT = 2;
    private static final int SCAN = 3;
    private static final int READ_MODIFY_WRITE = 4;
    private static final int DELETE = 5;

    private final RedisConnector.Opened opened;
    private final RedisAsyncCommands<String, byte[]> commands;
    private final RedisCodec<String, byte[]> codec;
    private final RecordLayout layout;
    private final Limit scanLimit;
    private final LongAdder timeouts = new LongAdder();
    private final LongAdder serverErrors = new LongAdder();
    private final LongAdder connectionErrors = new LongAdder();

    RedisDriver(RedisConnector.Opened opened, RedisSettings settings) {
        this(opened, settings, new RecordLayout(settings.fieldCount(), settings.fieldLength()));
    }

    /** @param layout the record shape: a YCSB workload's when the run has one, else the redis.* properties' */
    RedisDriver(RedisConnector.Opened opened, RedisSettings settings, RecordLayout layout) {
        this.opened = opened;
        StatefulRedisConnection<String, byte[]> connection = opened.connection();
        this.commands = connection.async();
        this.codec = RedisConnector.CODEC;
        this.layout = layout;
        this.scanLimit = Limit.create(0, settings.scanLength());
    }

    @Override
    public void submit(Operation op, Completion completion) {
        CompletionStage<Status> outcome;
        try {
            outcome = start(op.typeIndex(), op.keyNumber(), op.fieldIndex(), op.scanLength());
        } catch (RuntimeException e) {
            finish(completion, null, e);
            return;
        }
        outcome.whenComplete((status, error) -> finish(completion, status, error));
    }

    /** Sends the commands of one operation, reading or writing all fields; the stage ends with its status. */
    CompletionStage<Status> start(int typeIndex, long keyNumber) {
        return start(typeIndex, keyNumber, -1, 0);
    }

    /**
     * Sends the commands of one operation; the stage ends with its status.
     *
     * @param field      the one field a READ or UPDATE touches (YCSB's readallfields/writeallfields=false), or -1
     * @param scanLength records a SCAN reads, or 0 for {@code redis.scanlength}
     */
    CompletionStage<Status> start(int typeIndex, long keyNumber, int field, int scanLength) {
        String key = layout.key(keyNumber);
        switch (typeIndex) {
            case READ:
                if (field >= 0) {
                    return commands.hget(key, layout.fieldName(field))
                            .thenApply(value -> value == null ? Status.NOT_FOUND : Status.OK);
                }
                return commands.hgetall(key).thenApply(RedisDriver::foundStatus);
            case UPDATE:
                if (field >= 0) {
                    return commands.hset(key, layout.fieldName(field), layout.value(keyNumber, field, RecordLayout.UPDATED))
                            .thenApply(created -> Status.OK);
                }
                return hsetAll(key, keyNumber, RecordLayout.UPDATED).thenApply(written -> Status.OK);
            case INSERT:
                return hsetAll(key, keyNumber, RecordLayout.INSERTED)
                        .thenCombine(commands.zadd(RecordLayout.INDEX_KEY, RecordLayout.indexScore(key), ascii(key)),
                                (written, indexed) -> Status.OK);
            case SCAN:
                return scanKeys(key, scanLength > 0 ? Limit.create(0, scanLength) : scanLimit).thenCompose(this::readAll);
            case READ_MODIFY_WRITE:
                return commands.hgetall(key).thenCompose(record -> record.isEmpty()
                        ? CompletableFuture.completedFuture(Status.NOT_FOUND)
                        : hsetAll(key, keyNumber, RecordLayout.UPDATED).thenApply(written -> Status.OK));
            case DELETE:
                return commands.del(key).thenCombine(commands.zrem(RecordLayout.INDEX_KEY, ascii(key)),
                        (deleted, unindexed) -> deleted == 0 ? Status.NOT_FOUND : Status.OK);
            default:
                throw new IllegalArgumentException("redis driver has no operation type " + typeIndex);
        }
    }

    /** The keys a SCAN from {@code startKey} reads: index order from its score on, at most scanlength. */
    CompletionStage<List<byte[]>> scanKeys(String startKey) {
        return scanKeys(startKey, scanLimit);
    }

    private CompletionStage<List<byte[]>> scanKeys(String startKey, Limit limit) {
        return commands.zrangebyscore(RecordLayout.INDEX_KEY,
                Range.from(Range.Boundary.including(RecordLayout.indexScore(startKey)), Range.Boundary.unbounded()),
                limit);
    }

    private CompletionStage<Status> readAll(List<byte[]> keys) {
        if (keys.isEmpty()) {
            return CompletableFuture.completedFuture(Status.OK);
        }
        CompletableFuture<?>[] reads = new CompletableFuture<?>[keys.size()];
        for (int i = 0; i < reads.length; i++) {
            reads[i] = commands.hgetall(new String(keys.get(i), StandardCharsets.US_ASCII)).toCompletableFuture();
        }
        return CompletableFuture.allOf(reads).thenApply(done -> Status.OK);
    }

    /** HSET of every field in one command, built directly so no map is made per operation. */
    private RedisFuture<Long> hsetAll(String key, long keyNumber, byte writer) {
        CommandArgs<String, byte[]> args = new CommandArgs<>(codec).addKey(key);
        for (int f = 0; f < layout.fieldCount(); f++) {
            args.add(layout.fieldNameBytes(f)).addValue(layout.value(keyNumber, f, writer));
        }
        return commands.dispatch(CommandType.HSET, new IntegerOutput<>(codec), args);
    }

    private static Status foundStatus(Map<String, byte[]> record) {
        return record.isEmpty() ? Status.NOT_FOUND : Status.OK;
    }

    private static byte[] ascii(String key) {
        return key.getBytes(StandardCharsets.US_ASCII);
    }

    private void finish(Completion completion, Status status, Throwable error) {
        if (error == null) {
            completion.complete(status);
            return;
        }
        count(error instanceof CompletionException && error.getCause() != null ? error.getCause() : error);
        completion.complete(Status.ERROR);
    }

    private void count(Throwable cause) {
        if (cause instanceof RedisCommandTimeoutException) {
            timeouts.increment();
        } else if (cause instanceof RedisCommandExecutionException) {
            serverErrors.increment();
        } else {
            connectionErrors.increment();
        }
    }

    /**
     * {@code timeouts}: commands unanswered within {@code redis.timeout}. {@code server_errors}: error
     * replies. {@code connection_errors}: commands lost with the connection or rejected while it was
     * down. {@code reconnects}: times the connection came back. A failed operation is counted once, by
     * the failure that ended it.
     */
    @Override
    public Map<String, Number> stats() {
        Map<String, Number> stats = new LinkedHashMap<>();
        stats.put("timeouts", timeouts.sum());
        stats.put("server_errors", serverErrors.sum());
        stats.put("connection_errors", connectionErrors.sum());
        stats.put("reconnects", opened.reconnects());
        return stats;
    }

    @Override
    public void close() {
        opened.close();
    }
}
