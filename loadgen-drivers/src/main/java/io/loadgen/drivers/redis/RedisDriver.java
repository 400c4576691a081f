package io.loadgen.drivers.redis;

import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.output.ValueListOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandKeyword;
import io.lettuce.core.protocol.CommandType;
import io.loadgen.core.driver.AsyncDriver;
import io.loadgen.core.driver.Completion;
import io.loadgen.core.driver.Operation;
import io.loadgen.core.driver.Status;
import io.netty.channel.EventLoop;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;

/**
 * YCSB's six operations on Lettuce connections, laid out as YCSB's Redis binding does (see
 * {@link RecordLayout}). With at most one connection per issuer, issuer {@code i} uses connection
 * {@code i mod redis.connections}; with more, issuer {@code i} owns connections {@code i}, {@code i + threads},
 * ... (all on its loop) and sends each operation on one of them with nothing in flight, or the least busy, as
 * redis-benchmark's {@code -c} clients each have one request in flight: so {@code -c 16} on one thread is 16
 * operations in flight by default ({@link #defaultInFlightPerIssuer}), one per connection. The run keeps each
 * issuer on its connections' event loop ({@link #issuerExecutor}), so {@link #submit} and the
 * completion both run there with no hand-off; a submit from any other thread is handed to the loop. READ
 * and UPDATE, one command each, are batched per loop pass ({@link CommandBatch}) and their replies counted by
 * {@link DirectReplies}; the other operations go through Lettuce's async API. Every command goes through its
 * connection's {@link Route}: the one connection, or with {@code redis.cluster=true} the connection to the master
 * serving the command's key's slot ({@link ClusterRoute}, {@link RedisCluster}).
 * {@link #warmUp}, {@link #stats} and {@link #close} are called once, on the main thread.
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
 * <p>A command that fails (connection lost, rejected while disconnected, a server error) completes its
 * operation with {@link Status#ERROR}, and so does an operation unanswered {@code redis.timeout} after it
 * started ({@link InFlight}), whatever commands it sends, so no operation lasts longer than the timeout
 * plus the loop's timer precision. The driver itself does not bound operations in flight
 * ({@link #maxInFlight} is unbounded): Redis serves one connection's pipeline in order, and the run's
 * {@code --max-in-flight} is the bound (default: the issuer's connections, one each; no pipelining).
 */
final class RedisDriver implements AsyncDriver {
    private static final int READ = 0;
    private static final int UPDATE = 1;
    private static final int INSERT = 2;
    private static final int SCAN = 3;
    private static final int READ_MODIFY_WRITE = 4;
    private static final int DELETE = 5;

    /** Operations per connection and round when warming up, on scratch records. */
    private static final int WARM_UP_BATCH = 32;
    private static final int WARM_UP_ROUNDS = 1600;

    private final RedisConnector.Opened opened;
    private final Link[] links;
    /** Per issuer, the connections it sends on (all on one loop), and where its search for a free one starts. */
    private final Link[][] issuerLinks;
    private final int[] cursors;
    private final RedisCodec<String, byte[]> codec;
    private final RecordLayout layout;
    private final int scanLimit;
    private final RedisFailures failures = new RedisFailures(false);

    /**
     * One connection set: where its commands go ({@link #route}: its one connection, or on a Redis Cluster a
     * connection to every master), its event loop, and what is in flight on it.
     */
    private static final class Link {
        /** The set's first connection, its commands and batch: its only one without {@code redis.cluster}; on a
         *  cluster, send through {@link #route}, which picks the connection by the key's slot. */
        final StatefulRedisConnection<String, byte[]> connection;
        final RedisAsyncCommands<String, byte[]> commands;
        final CommandBatch batch;
        final Route route;
        final EventLoop loop;
        final InFlight inFlight;

        Link(Route route, NodeLink first, EventLoop loop, InFlight inFlight) {
            this.route = route;
            this.connection = first.connection;
            this.commands = first.commands;
            this.batch = first.batch;
            this.loop = loop;
            this.inFlight = inFlight;
        }
    }

    /**
     * @param layout  the record shape: a YCSB workload's when the run has one, else the redis.* properties'
     * @param threads the run's issuers, as {@code opened} was connected for
     */
    RedisDriver(RedisConnector.Opened opened, RedisSettings settings, RecordLayout layout, int threads) {
        this.opened = opened;
        this.codec = RedisConnector.CODEC;
        this.layout = layout;
        this.scanLimit = settings.scanLength();
        this.links = new Link[opened.size()];
        for (int c = 0; c < links.length; c++) {
            Route route = opened.route(c);
            NodeLink first = route instanceof ClusterRoute cluster ? cluster.first() : (NodeLink) route;
            links[c] = new Link(route, first, opened.loop(c),
                    new InFlight(opened.loop(c), settings.timeoutNs(), failures.timeouts, failures::count));
        }
        this.issuerLinks = byIssuer(links, threads);
        this.cursors = new int[issuerLinks.length];
    }

    /**
     * Each issuer's connections: {@code i mod N} alone when there are no more connections than issuers, else
     * every connection {@code c} with {@code c mod threads == i}.
     */
    private static Link[][] byIssuer(Link[] links, int threads) {
        Link[][] byIssuer = new Link[threads][];
        for (int i = 0; i < threads; i++) {
            if (links.length <= threads) {
                byIssuer[i] = new Link[]{links[i % links.length]};
                continue;
            }
            List<Link> mine = new java.util.ArrayList<>();
            for (int c = i; c < links.length; c += threads) {
                mine.add(links[c]);
            }
            byIssuer[i] = mine.toArray(new Link[0]);
        }
        return byIssuer;
    }

    @Override
    public ScheduledExecutorService issuerExecutor(int issuer) {
        return issuerLinks[issuer % issuerLinks.length][0].loop;
    }

    /**
     * The connections per issuer, at least 1 (the fewest any issuer has): one operation in flight on each, as
     * redis-benchmark's {@code -c} clients; pipelining deeper is {@code --max-in-flight}'s to ask.
     */
    @Override
    public int defaultInFlightPerIssuer() {
        return Math.max(1, links.length / issuerLinks.length);
    }

    @Override
    public void submit(Operation op, Completion completion) {
        int issuer = op.workerIndex() % issuerLinks.length;
        Link[] mine = issuerLinks[issuer];
        Link link = mine.length == 1 ? mine[0] : freest(issuer, mine);
        if (link.loop.inEventLoop()) {
            send(link, layout, op.typeIndex(), op.keyNumber(), op.fieldIndex(), op.scanLength(), completion);
            return;
        }
        sendFromOutside(link, layout, op.typeIndex(), op.keyNumber(), op.fieldIndex(), op.scanLength(), completion);
    }

    /**
     * The issuer's next connection with nothing in flight, searching round-robin from where it last found one,
     * else its least busy. The issuer's thread (its loop).
     */
    private Link freest(int issuer, Link[] mine) {
        int n = mine.length;
        int start = cursors[issuer];
        Link best = null;
        for (int k = 0; k < n; k++) {
            int i = start + k < n ? start + k : start + k - n;
            int open = mine[i].inFlight.open();
            if (open == 0) {
                cursors[issuer] = i + 1 < n ? i + 1 : 0;
                return mine[i];
            }
            if (best == null || open < best.inFlight.open()) {
                best = mine[i];
            }
        }
        return best;
    }

    /** Hands an operation to its connection's loop; the arguments are copies (the harness reuses its op). */
    private void sendFromOutside(Link link, RecordLayout layout, int type, long key, int field, int scanLength,
                                 Completion completion) {
        link.loop.execute(() -> send(link, layout, type, key, field, scanLength, completion));
    }

    /** Sends one operation's commands on its connection's loop; its outcome reaches {@code completion} once. */
    private void send(Link link, RecordLayout layout, int type, long key, int field, int scanLength,
                      Completion completion) {
        InFlight.Op pending = link.inFlight.begin(completion);
        if (type == READ || type == UPDATE) {
            try {
                String name = layout.key(key);
                link.route.add(name, direct(layout, type, name, key, field, pending));
            } catch (RuntimeException e) {
                pending.accept(null, e);
            }
            return;
        }
        CompletionStage<Status> outcome;
        try {
            outcome = start(link.route, layout, type, key, field, scanLength);
        } catch (RuntimeException e) {
            pending.accept(null, e);
            return;
        }
        outcome.whenComplete(pending);
    }

    /** A READ or UPDATE as one command that completes {@code pending} itself (the hot path of most workloads). */
    private OpCommand direct(RecordLayout layout, int type, String key, long keyNumber, int field, InFlight.Op pending) {
        CommandArgs<String, byte[]> args = new CommandArgs<>(codec).addKey(key);
        if (type == READ) {
            if (field >= 0) {
                return OpCommand.read(CommandType.HGET, args.add(layout.fieldNameBytes(field)), codec, pending);
            }
            return OpCommand.read(CommandType.HGETALL, args, codec, pending);
        }
        if (field >= 0) {
            args.add(layout.fieldNameBytes(field)).addValue(layout.value(keyNumber, field, RecordLayout.UPDATED));
        } else {
            addAllFields(args, layout, keyNumber, RecordLayout.UPDATED);
        }
        return OpCommand.write(CommandType.HSET, args, codec, pending);
    }

    /**
     * Runs every operation type on every connection, {@value #WARM_UP_BATCH} at a time, through the run's own
     * path (on the connection's loop, with its timeout) on scratch records of the same shape
     * ({@link RecordLayout#scratch}), until {@value #WARM_UP_ROUNDS} rounds are done or the
     * budget is spent, then deletes the scratch records: connections are up and Lettuce's and the JIT's cold
     * start is behind us, and the workload's own records and index are as they were.
     */
    @Override
    public void warmUp(long budgetNs) throws Exception {
        long deadlineNs = System.nanoTime() + budgetNs;
        RecordLayout scratch = layout.scratch();
        int[] types = {INSERT, READ, UPDATE, SCAN, READ_MODIFY_WRITE, READ, UPDATE, DELETE};
        CompletableFuture<?>[] batch = new CompletableFuture<?>[WARM_UP_BATCH * links.length];
        try {
            for (int round = 0; round < WARM_UP_ROUNDS && System.nanoTime() - deadlineNs < 0; round++) {
                int type = types[round % types.length];
                int field = round % 3 == 0 ? round % layout.fieldCount() : -1;
                for (int c = 0; c < links.length; c++) {
                    for (int i = 0; i < WARM_UP_BATCH; i++) {
                        CompletableFuture<Status> done = new CompletableFuture<>();
                        sendFromOutside(links[c], scratch, type, c * WARM_UP_BATCH + i, field, 0, done::complete);
                        batch[c * WARM_UP_BATCH + i] = done;
                    }
                }
                if (!RedisConnector.await(CompletableFuture.allOf(batch), deadlineNs)) {
                    break; // a slow or absent server: the run measures it as it is
                }
            }
        } finally {
            removeScratch(scratch, batch, deadlineNs + budgetNs);
            failures.reset(); // the run's counters count the run's operations, not the warm-up's
        }
    }

    /**
     * Deletes every scratch record and the scratch index once the warm-up's operations are done (waiting at
     * most until {@code deadlineNs}): each connection deletes the records it wrote and then the index, after
     * its own writes, since Redis runs one connection's commands in order.
     */
    private void removeScratch(RecordLayout scratch, CompletableFuture<?>[] batch, long deadlineNs)
            throws InterruptedException {
        if (batch[batch.length - 1] == null) {
            return; // nothing was sent
        }
        RedisConnector.await(CompletableFuture.allOf(batch), deadlineNs);
        CompletableFuture<?>[] deletes = new CompletableFuture<?>[links.length * (WARM_UP_BATCH + 1)];
        for (int c = 0; c < links.length; c++) {
            for (int i = 0; i <= WARM_UP_BATCH; i++) {
                // one key per DEL: on a cluster the keys live on different masters
                String key = i < WARM_UP_BATCH ? scratch.key(c * WARM_UP_BATCH + i) : scratch.indexKey();
                deletes[c * (WARM_UP_BATCH + 1) + i] = links[c].route.dispatch(key, CommandType.DEL,
                        new IntegerOutput<>(codec), new CommandArgs<>(codec).addKey(key)).toCompletableFuture();
            }
        }
        RedisConnector.await(CompletableFuture.allOf(deletes), deadlineNs);
    }

    /** Sends the commands of one operation on the first connection, reading or writing all fields. Tests. */
    CompletionStage<Status> start(int typeIndex, long keyNumber) {
        return start(links[0].route, layout, typeIndex, keyNumber, -1, 0);
    }

    /**
     * Sends the commands of one operation; the stage ends with its status.
     *
     * @param field      the one field a READ or UPDATE touches (YCSB's readallfields/writeallfields=false), or -1
     * @param scanLength records a SCAN reads, or 0 for {@code redis.scanlength}
     */
    CompletionStage<Status> start(Route route, RecordLayout layout, int typeIndex, long keyNumber, int field,
                                  int scanLength) {
        String key = layout.key(keyNumber);
        switch (typeIndex) {
            case READ:
                if (field >= 0) {
                    return route.dispatch(key, CommandType.HGET, new ElementCount(codec),
                                    new CommandArgs<>(codec).addKey(key).add(layout.fieldNameBytes(field)))
                            .thenApply(values -> values == 0 ? Status.NOT_FOUND : Status.OK);
                }
                return route.dispatch(key, CommandType.HGETALL, new ElementCount(codec), new CommandArgs<>(codec).addKey(key))
                        .thenApply(elements -> elements == 0 ? Status.NOT_FOUND : Status.OK);
            case UPDATE:
                if (field >= 0) {
                    return route.dispatch(key, CommandType.HSET, new IntegerOutput<>(codec), new CommandArgs<>(codec)
                                    .addKey(key).add(layout.fieldNameBytes(field))
                                    .addValue(layout.value(keyNumber, field, RecordLayout.UPDATED)))
                            .thenApply(created -> Status.OK);
                }
                return hsetAll(route, layout, key, keyNumber, RecordLayout.UPDATED).thenApply(written -> Status.OK);
            case INSERT:
                return hsetAll(route, layout, key, keyNumber, RecordLayout.INSERTED)
                        .thenCombine(route.dispatch(layout.indexKey(), CommandType.ZADD, new IntegerOutput<>(codec),
                                        new CommandArgs<>(codec).addKey(layout.indexKey())
                                                .add(RecordLayout.indexScore(key)).addValue(ascii(key))),
                                (written, indexed) -> Status.OK);
            case SCAN:
                return scanKeys(route, layout, key, scanLength > 0 ? scanLength : scanLimit)
                        .thenCompose(keys -> readAll(route, keys));
            case READ_MODIFY_WRITE:
                return route.dispatch(key, CommandType.HGETALL, new ElementCount(codec), new CommandArgs<>(codec).addKey(key))
                        .thenCompose(elements -> elements == 0
                        ? CompletableFuture.completedFuture(Status.NOT_FOUND)
                        : hsetAll(route, layout, key, keyNumber, RecordLayout.UPDATED).thenApply(written -> Status.OK));
            case DELETE:
                return route.dispatch(key, CommandType.DEL, new IntegerOutput<>(codec), new CommandArgs<>(codec).addKey(key))
                        .thenCombine(route.dispatch(layout.indexKey(), CommandType.ZREM, new IntegerOutput<>(codec),
                                        new CommandArgs<>(codec).addKey(layout.indexKey()).addValue(ascii(key))),
                                (deleted, unindexed) -> deleted == 0 ? Status.NOT_FOUND : Status.OK);
            default:
                throw new IllegalArgumentException("redis driver has no operation type " + typeIndex);
        }
    }

    /** The keys a SCAN from {@code startKey} reads: index order from its score on, at most scanlength. Tests. */
    CompletionStage<List<byte[]>> scanKeys(String startKey) {
        return scanKeys(links[0].route, layout, startKey, scanLimit);
    }

    /**
     * {@code ZRANGEBYSCORE index score(startKey) +inf LIMIT 0 limit}, to the master serving the index: YCSB's one
     * index, on one master of a cluster as YCSB's binding leaves it.
     */
    private CompletionStage<List<byte[]>> scanKeys(Route route, RecordLayout layout, String startKey, int limit) {
        return route.dispatch(layout.indexKey(), CommandType.ZRANGEBYSCORE, new ValueListOutput<>(codec),
                new CommandArgs<>(codec).addKey(layout.indexKey()).add(RecordLayout.indexScore(startKey)).add("+inf")
                        .add(CommandKeyword.LIMIT).add(0).add(limit));
    }

    /** HGETALL of every key a SCAN found, pipelined (each to its own master on a cluster). */
    private CompletionStage<Status> readAll(Route route, List<byte[]> keys) {
        if (keys.isEmpty()) {
            return CompletableFuture.completedFuture(Status.OK);
        }
        CompletableFuture<?>[] reads = new CompletableFuture<?>[keys.size()];
        for (int i = 0; i < reads.length; i++) {
            String key = new String(keys.get(i), StandardCharsets.US_ASCII);
            reads[i] = route.dispatch(key, CommandType.HGETALL, new ElementCount(codec), new CommandArgs<>(codec).addKey(key))
                    .toCompletableFuture();
        }
        return CompletableFuture.allOf(reads).thenApply(done -> Status.OK);
    }

    /** HSET of every field in one command, built directly so no map is made per operation. */
    private CompletionStage<Long> hsetAll(Route route, RecordLayout layout, String key, long keyNumber, byte writer) {
        CommandArgs<String, byte[]> args = new CommandArgs<>(codec).addKey(key);
        addAllFields(args, layout, keyNumber, writer);
        return route.dispatch(key, CommandType.HSET, new IntegerOutput<>(codec), args);
    }

    private static void addAllFields(CommandArgs<String, byte[]> args, RecordLayout layout, long keyNumber, byte writer) {
        for (int f = 0; f < layout.fieldCount(); f++) {
            args.add(layout.fieldNameBytes(f)).addValue(layout.value(keyNumber, f, writer));
        }
    }

    private static Status foundStatus(Map<String, byte[]> record) {
        return record.isEmpty() ? Status.NOT_FOUND : Status.OK;
    }

    private static byte[] ascii(String key) {
        return key.getBytes(StandardCharsets.US_ASCII);
    }

    /** The first failure's message (an error reply's text, a connection's error), or null when none failed. */
    @Override
    public String lastFailure() {
        return failures.first(opened);
    }

    /**
     * {@code connections} and {@code io_threads}: what the run used. {@code timeouts}: operations
     * unanswered {@code redis.timeout} after they started. {@code server_errors}: error
     * replies. {@code connection_errors}: commands lost with the connection or rejected while it was
     * down. {@code reconnects}: times the connection came back. A failed operation is counted once, by
     * the failure that ended it.
     */
    @Override
    public Map<String, Number> stats() {
        return opened.stats(liveStats());
    }

    /** The failure counters (LongAdders, safe to sum while operations complete), for the status line. */
    @Override
    public Map<String, Number> liveStats() {
        Map<String, Number> live = new LinkedHashMap<>();
        failures.addTo(live);
        return live;
    }

    @Override
    public void close() {
        opened.close();
    }
}
