package io.loadgen.drivers.redis;

import io.lettuce.core.protocol.CommandArgs;
import io.loadgen.core.driver.AsyncDriver;
import io.loadgen.core.driver.Completion;
import io.loadgen.core.driver.Operation;
import io.loadgen.core.driver.Status;
import io.loadgen.core.workload.generator.NumberGenerator;
import io.netty.channel.EventLoop;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.LongAdder;

/**
 * The {@code redis} driver with {@code redis.requests}: each named command of the file is an operation type of
 * its own, sent on the same connections, event loops and per-operation timeouts as YCSB's operations
 * ({@link RedisConnector}, {@link InFlight}): issuer {@code i} runs on its connections' loop, draws the command's
 * key (and field or member, and value size) from its own generators, and sends one command through Lettuce
 * ({@link DataTypeOp}), whose reply becomes the status ({@link DataTypeReply}).
 *
 * <p>Statuses: a command whose reply is an error completes with {@link Status#ERROR} and counts in
 * {@code server_errors}, or in {@code wrongtype_errors} when Redis says WRONGTYPE (the key holds another data
 * type); a read of something that is not there (GET, HGET, LPOP: nil; HGETALL: empty) is {@link Status#NOT_FOUND};
 * with {@code redis.dataintegrity=true}, a value read that the run did not write for its key
 * ({@link VersionedValues}) is {@link Status#UNEXPECTED_STATE} and counts in {@code integrity_failures}.
 *
 * <p>{@link #submit} runs on the issuer's loop (a submit from elsewhere is handed to it), so each issuer's
 * generators are confined to one thread; {@link #warmUp}, {@link #stats} and {@link #close} run once on the main
 * thread.
 */
final class DataTypeDriver implements AsyncDriver {
    /** Where the warm-up reads: a key nothing writes. */
    static final String SCRATCH_KEY = RecordLayout.SCRATCH_PREFIX + "absent";
    private static final int WARM_UP_BATCH = 32;
    private static final int WARM_UP_ROUNDS = 400;

    private final RedisConnector.Opened opened;
    private final Link[] links;
    private final Link[][] issuerLinks;
    private final DataTypeRequests.Request[] requests;
    private final boolean integrity;
    private final Issuer[] issuers;
    private final byte[] pattern;
    private final int threads;
    private final RedisFailures failures = new RedisFailures(true);
    private final LongAdder integrityFailures = new LongAdder();
    /** The first failure seen, for {@link #lastFailure}; racy by design, any loop may set it. */

    /**
     * One connection set (its one connection, or on a Redis Cluster a connection to every master: {@link Route}),
     * its event loop and what is in flight on it.
     */
    private record Link(Route route, EventLoop loop, InFlight inFlight) {
    }

    /** One issuer's generators, one per command (null where the command has no such names), on its loop only. */
    private static final class Issuer {
        final NumberGenerator[] keys;
        final NumberGenerator[] fields;
        final NumberGenerator[] members;
        final SplittableRandom random;
        final int index;
        long writes;

        Issuer(int index, DataTypeRequests.Request[] requests, SplittableRandom random) {
            this.index = index;
            this.random = random;
            this.keys = new NumberGenerator[requests.length];
            this.fields = new NumberGenerator[requests.length];
            this.members = new NumberGenerator[requests.length];
            for (int t = 0; t < requests.length; t++) {
                keys[t] = requests[t].key().generator(random.split());
                fields[t] = requests[t].field() == null ? null : requests[t].field().generator(random.split());
                members[t] = requests[t].member() == null ? null : requests[t].member().generator(random.split());
            }
        }
    }

    /**
     * @param threads the run's issuers, as {@code opened} was connected for
     * @param seed    the run's seed: each issuer's generators are split from it, so a run is repeatable
     */
    DataTypeDriver(RedisConnector.Opened opened, RedisSettings settings, DataTypeRequests file, int threads,
                   long seed) {
        this.opened = opened;
        this.threads = threads;
        this.requests = file.requests().toArray(new DataTypeRequests.Request[0]);
        this.integrity = file.integrity();
        this.pattern = VersionedValues.pattern(Math.max(1, file.maxValueSize()));
        this.links = new Link[opened.size()];
        for (int c = 0; c < links.length; c++) {
            links[c] = new Link(opened.route(c), opened.loop(c),
                    new InFlight(opened.loop(c), settings.timeoutNs(), failures.timeouts, failures::count));
        }
        this.issuerLinks = new Link[threads][];
        for (int i = 0; i < threads; i++) {
            List<Link> mine = new ArrayList<>();
            for (int c = i; c < links.length; c += threads) {
                mine.add(links[c]);
            }
            issuerLinks[i] = links.length <= threads ? new Link[] {links[i % links.length]} : mine.toArray(new Link[0]);
        }
        SplittableRandom root = new SplittableRandom(seed);
        this.issuers = new Issuer[threads];
        for (int i = 0; i < threads; i++) {
            issuers[i] = new Issuer(i, requests, root.split());
        }
    }

    @Override
    public ScheduledExecutorService issuerExecutor(int issuer) {
        return issuerLinks[issuer % issuerLinks.length][0].loop();
    }

    /** The connections per issuer, at least 1: one command in flight on each, as redis-benchmark's clients. */
    @Override
    public int defaultInFlightPerIssuer() {
        return Math.max(1, links.length / issuerLinks.length);
    }

    @Override
    public void submit(Operation op, Completion completion) {
        int issuer = op.workerIndex() % issuerLinks.length;
        Link link = leastBusy(issuerLinks[issuer]);
        int type = op.typeIndex();
        if (link.loop().inEventLoop()) {
            send(link, issuer, type, completion);
        } else {
            link.loop().execute(() -> send(link, issuer, type, completion));
        }
    }

    /** The first of the issuer's connections with nothing in flight, else the one with least. */
    private static Link leastBusy(Link[] mine) {
        Link best = mine[0];
        for (int i = 0; i < mine.length && best.inFlight().open() > 0; i++) {
            if (mine[i].inFlight().open() < best.inFlight().open()) {
                best = mine[i];
            }
        }
        return best;
    }

    /** Draws command {@code type}'s names and sends it on the connection's loop; its status reaches {@code completion} once. */
    private void send(Link link, int issuer, int type, Completion completion) {
        InFlight.Op pending = link.inFlight().begin(completion);
        try {
            Issuer s = issuers[issuer];
            DataTypeRequests.Request r = requests[type];
            String key = r.key().next(s.keys[type]);
            String field = r.field() == null ? null : r.field().next(s.fields[type]);
            String member = r.member() == null ? null : r.member().next(s.members[type]);
            link.route().send(key, command(r, key, field, member, s, pending));
        } catch (RuntimeException e) {
            pending.accept(null, e);
        }
    }

    /**
     * The command {@code r} with these names; {@code s} draws its value's size, version and score (a read draws
     * nothing, so the warm-up passes null).
     */
    private DataTypeOp command(DataTypeRequests.Request r, String key, String field, String member, Issuer s,
                               InFlight.Op pending) {
        long identity = integrity ? VersionedValues.identity(key) : 0;
        if (integrity && field != null) {
            identity = VersionedValues.field(identity, field);
        }
        CommandArgs<String, byte[]> args = new CommandArgs<>(RedisConnector.CODEC).addKey(key);
        switch (r.command()) {
            case SET:
                args.addValue(value(r, s, identity));
                if (r.ttlMs() > 0) {
                    boolean seconds = r.ttlMs() % 1000 == 0;
                    args.add(seconds ? "EX" : "PX").add(seconds ? r.ttlMs() / 1000 : r.ttlMs());
                }
                break;
            case LPUSH:
            case RPUSH:
                args.addValue(value(r, s, identity));
                break;
            case LRANGE:
            case ZRANGE:
                args.add(r.start()).add(r.stop());
                break;
            case SADD:
            case SREM:
            case SISMEMBER:
                args.add(member);
                break;
            case ZADD:
                long span = r.maxScore() - r.minScore();
                args.add(span == 0 ? r.minScore() : r.minScore() + s.random.nextLong(span + 1)).add(member);
                break;
            case ZRANGEBYSCORE:
                args.add(r.rangeMin()).add(r.rangeMax());
                if (r.limit() > 0) {
                    args.add("LIMIT").add(0).add(r.limit());
                }
                break;
            case ZINCRBY:
                args.add(r.increment()).add(member);
                break;
            case HSET:
                args.add(field).addValue(value(r, s, identity));
                break;
            case HGET:
                args.add(field);
                break;
            default: // GET, INCR, LPOP, SMEMBERS, HGETALL: the key alone
                break;
        }
        return new DataTypeOp(r.command().type(), new DataTypeReply(RedisConnector.CODEC, r.command().reply(), identity,
                integrity), args, pending, integrityFailures);
    }

    /** A value of {@code r}'s size: versioned for {@code identity} when checking, else the plain pattern. */
    private byte[] value(DataTypeRequests.Request r, Issuer s, long identity) {
        int size = r.minSize() == r.maxSize() ? r.minSize() : r.minSize() + s.random.nextInt(r.maxSize() - r.minSize() + 1);
        if (!integrity) {
            return VersionedValues.plain(pattern, size);
        }
        s.writes++;
        long version = (s.writes * threads + s.index) % VersionedValues.VERSION_LIMIT; // distinct across issuers
        return VersionedValues.value(identity, version, size);
    }

    /**
     * Sends the file's reads (GET, HGET, LRANGE, ...; never a write) of {@value #SCRATCH_KEY}, a key nothing
     * writes, on every connection through the run's own path, {@value #WARM_UP_BATCH} at a time, until
     * {@value #WARM_UP_ROUNDS} rounds are done or the budget is spent: connections are up and the client's and
     * the JIT's cold start is behind us, and the data are as they were. A file with no reads warms nothing.
     */
    @Override
    public void warmUp(long budgetNs) throws Exception {
        long deadlineNs = System.nanoTime() + budgetNs;
        List<DataTypeRequests.Request> reads = new ArrayList<>();
        for (DataTypeRequests.Request r : requests) {
            if (r.command().isRead()) {
                reads.add(r);
            }
        }
        if (reads.isEmpty()) {
            return;
        }
        CompletableFuture<?>[] batch = new CompletableFuture<?>[WARM_UP_BATCH * links.length];
        try {
            for (int round = 0; round < WARM_UP_ROUNDS && System.nanoTime() - deadlineNs < 0; round++) {
                DataTypeRequests.Request r = reads.get(round % reads.size());
                for (int c = 0; c < links.length; c++) {
                    Link link = links[c];
                    for (int i = 0; i < WARM_UP_BATCH; i++) {
                        CompletableFuture<Status> done = new CompletableFuture<>();
                        link.loop().execute(() -> {
                            InFlight.Op pending = link.inFlight().begin(done::complete);
                            try {
                                link.route().send(SCRATCH_KEY, command(r, SCRATCH_KEY, "f", "m", null, pending));
                            } catch (RuntimeException e) {
                                pending.accept(null, e);
                            }
                        });
                        batch[c * WARM_UP_BATCH + i] = done;
                    }
                }
                if (!RedisConnector.await(CompletableFuture.allOf(batch), deadlineNs)) {
                    break; // a slow or absent server: the run measures it as it is
                }
            }
        } finally {
            failures.reset(); // the run's counters count the run's operations, not the warm-up's
            integrityFailures.reset();
        }
    }

    /** The first failure's message (an error reply's text, a connection's error), or null when none failed. */
    @Override
    public String lastFailure() {
        return failures.first(opened);
    }

    /**
     * As YCSB's operations' ({@code connections}, {@code io_threads}, {@code timeouts}, {@code server_errors},
     * {@code connection_errors}, {@code reconnects}), and {@code wrongtype_errors}: WRONGTYPE replies, apart from
     * {@code server_errors}; {@code integrity_failures}: values read that the run did not write for their key
     * (with {@code redis.dataintegrity=true}).
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
        if (integrity) {
            live.put("integrity_failures", integrityFailures.sum());
        }
        return live;
    }

    @Override
    public void close() {
        opened.close();
    }
}
