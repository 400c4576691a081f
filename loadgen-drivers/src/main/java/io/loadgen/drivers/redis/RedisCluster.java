package io.loadgen.drivers.redis;

import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.models.partitions.ClusterPartitionParser;
import io.loadgen.core.BadInputException;
import io.loadgen.core.Limits;
import io.loadgen.core.Secrets;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The {@code redis} driver on a Redis Cluster ({@code -p redis.cluster=true}, {@code redis.uri} naming any node):
 * the slot map, read at open from {@code CLUSTER NODES} (parsed by Lettuce's {@link ClusterPartitionParser});
 * for each connection set a {@link ClusterRoute} with a connection to every master, on the set's event loop, so
 * an issuer's commands and replies never leave its loop; refreshes of the map; connections to masters that
 * appear later (a promoted replica, a new node); and the counts of redirects.
 *
 * <p>A refresh is asked for after a {@code MOVED}, a lost connection, and by every command waiting for a live
 * master; it runs at most once per {@value #REFRESH_INTERVAL_MS} ms, asking the first live master of set 0 (then
 * the next, if that one fails), on set 0's loop, without blocking it.
 */
final class RedisCluster {
    /** The property that turns cluster mode on. */
    static final String PROPERTY = "redis.cluster";
    /** MOVED and ASK replies one command follows at most, as Lettuce's cluster client (maxRedirects 5). */
    static final int MAX_REDIRECTS = 5;
    static final long REFRESH_INTERVAL_MS = 100;
    static final long REFRESH_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(REFRESH_INTERVAL_MS);

    private static final Logger LOG = LogManager.getLogger(RedisCluster.class);

    private final RedisConnector.Opened opened;
    private final RedisSettings settings;
    private final ClusterSlots slots;
    private final ClusterRoute[] routes;
    private final LongAdder moved = new LongAdder();
    private final LongAdder asks = new LongAdder();
    private final AtomicLong refreshes = new AtomicLong();
    private final AtomicBoolean refreshing = new AtomicBoolean();
    private volatile long lastRefreshNs = System.nanoTime() - REFRESH_INTERVAL_NS;
    /** Nodes a connection is being opened to, for every set that has none. */
    private final Set<Integer> connecting = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    private RedisCluster(RedisConnector.Opened opened, RedisSettings settings, int sets) {
        this.opened = opened;
        this.settings = settings;
        this.slots = new ClusterSlots(settings.uri().getHost());
        this.routes = new ClusterRoute[sets];
        for (int c = 0; c < sets; c++) {
            routes[c] = new ClusterRoute(this, slots, opened.loop(c));
        }
    }

    /**
     * Reads the slot map from the seed ({@code redis.uri}) and connects every set to every master, within
     * {@code redis.connect.timeout} each. Main thread.
     *
     * @throws BadInputException when the seed is not a cluster node, the cluster serves no slot, or a master
     *                           cannot be reached, naming it and the fix
     */
    static RedisCluster open(RedisConnector.Opened opened, RedisSettings settings, int sets) {
        String seedText = Secrets.redact(settings.uriText());
        if (settings.uri().getDatabase() != 0) {
            throw new BadInputException("Redis Cluster has only database 0, and " + RedisSettings.URI + " " + seedText
                    + " asks for database " + settings.uri().getDatabase() + "; drop the /DB from the URI");
        }
        RedisCluster cluster = new RedisCluster(opened, settings, sets);
        StatefulRedisConnection<String, byte[]> seed = RedisConnector.connect(opened.client(0), settings.uri(), settings);
        opened.countFirstConnect();
        try {
            RedisConnector.checkIsRedis(seed, settings);
            String nodes = clusterNodes(seed, settings, seedText);
            int served = cluster.slots.apply(ClusterPartitionParser.parse(nodes));
            if (served == 0) {
                throw new BadInputException("the Redis Cluster at " + seedText + " serves no slots yet (is it created?);"
                        + " create it with redis-cli --cluster create HOST:PORT ... or assign the slots, then run again");
            }
            if (served < ClusterSlots.SLOTS) {
                LOG.warn("redis: the cluster at {} serves {} of {} slots; commands for the others wait for a master and"
                        + " end as TIMEOUT", seedText, served, ClusterSlots.SLOTS);
            }
        } finally {
            seed.close();
        }
        List<Integer> masters = cluster.slots.masters();
        for (int c = 0; c < sets; c++) {
            for (int node : masters) {
                ClusterSlots.Node where = cluster.slots.node(node);
                StatefulRedisConnection<String, byte[]> connection;
                try {
                    connection = RedisConnector.connect(opened.client(c), cluster.uri(node), settings);
                } catch (RedisConnectionException e) {
                    throw new BadInputException("cannot connect to " + where.address() + ", a master of the Redis Cluster"
                            + " at " + seedText + " (" + Secrets.redact(RedisConnector.connectFailure(e)) + "); is it"
                            + " up? the cluster names it in CLUSTER NODES: start it, or, if that address is not"
                            + " reachable from here, set cluster-announce-ip on the node", e);
                }
                NodeLink link = opened.link(c, connection);
                if (c == 0) {
                    RedisConnector.checkIsRedis(connection, settings);
                }
                cluster.routes[c].attach(node, link);
            }
        }
        return cluster;
    }

    private static String clusterNodes(StatefulRedisConnection<String, byte[]> seed, RedisSettings settings,
                                       String seedText) {
        try {
            return seed.async().clusterNodes().get(settings.timeoutNs(), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            String message = RedisConnector.rootMessage(e);
            if (message.contains("cluster support disabled")) {
                throw new BadInputException("the server at " + seedText + " is not a Redis Cluster node ("
                        + Limits.quote(message) + "); drop -p " + PROPERTY + "=true for a single server, or point -p "
                        + RedisSettings.URI + " at a node of a cluster", e);
            }
            throw new BadInputException("the server at " + seedText + " refused CLUSTER NODES ("
                    + Secrets.redact(Limits.quote(message)) + "); " + PROPERTY + "=true needs it to learn the slot map", e);
        } catch (TimeoutException e) {
            throw new BadInputException("the server at " + seedText + " did not answer CLUSTER NODES within "
                    + RedisSettings.TIMEOUT + "=" + Duration.ofNanos(settings.timeoutNs()).toMillis() + "ms; is it"
                    + " paused or overloaded? raise -p " + RedisSettings.TIMEOUT + " or point " + RedisSettings.URI
                    + " at another node", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BadInputException("interrupted while reading the slot map of the Redis Cluster at " + seedText, e);
        }
    }

    /** Node {@code node}'s URI: the seed's (password, TLS, client name) with the node's host and port. */
    private RedisURI uri(int node) {
        ClusterSlots.Node where = slots.node(node);
        return RedisURI.builder(settings.uri()).withHost(where.host()).withPort(where.port()).build();
    }

    ClusterRoute route(int set) {
        return routes[set];
    }

    long timeoutNs() {
        return settings.timeoutNs();
    }

    void countMoved() {
        moved.increment();
        requestRefresh();
    }

    void countAsk() {
        asks.increment();
    }

    long moved() {
        return moved.sum();
    }

    long asks() {
        return asks.sum();
    }

    /** Slot maps read after the one at open. */
    long refreshes() {
        return refreshes.get();
    }

    /** Connections open now: the sets' links to every node they know. */
    int connections() {
        int n = 0;
        for (ClusterRoute route : routes) {
            for (NodeLink link : route.links()) {
                n += link != null ? 1 : 0;
            }
        }
        return n;
    }

    /** Masters serving slots in the current map. */
    int masters() {
        return slots.masters().size();
    }

    /**
     * {@code [DRIVER]}'s cluster counters: {@code masters} serving slots now, {@code moved} and {@code ask}
     * redirects followed, {@code slot_map_refreshes} (maps read after the one at open).
     */
    void addStats(java.util.Map<String, Number> stats) {
        stats.put("masters", masters());
        stats.put("moved", moved());
        stats.put("ask", asks());
        stats.put("slot_map_refreshes", refreshes());
    }

    /**
     * Asks for the slot map to be read again, at most once per {@value #REFRESH_INTERVAL_MS} ms; a request while
     * one is pending is the same request. Any thread.
     */
    void requestRefresh() {
        if (closed || !refreshing.compareAndSet(false, true)) {
            return;
        }
        long waitNs = lastRefreshNs + REFRESH_INTERVAL_NS - System.nanoTime();
        try {
            routes[0].loop.schedule(this::refresh, Math.max(0, waitNs), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            refreshing.set(false); // the loop is shutting down
        }
    }

    private void refresh() {
        lastRefreshNs = System.nanoTime();
        ask(routes[0].links(), 0);
    }

    /** Asks the first live master from {@code from} on for CLUSTER NODES; the next one when it fails. */
    private void ask(NodeLink[] candidates, int from) {
        for (int i = from; i < candidates.length && !closed; i++) {
            NodeLink link = candidates[i];
            if (link == null || !link.isUp()) {
                continue;
            }
            int next = i + 1;
            link.commands.clusterNodes().toCompletableFuture().orTimeout(settings.timeoutNs(), TimeUnit.NANOSECONDS)
                    .whenComplete((text, error) -> {
                        if (error != null || text == null) {
                            ask(candidates, next);
                        } else {
                            apply(text);
                        }
                    });
            return;
        }
        refreshing.set(false); // no master answered: the commands waiting ask again
        if (!closed) {
            requestRefresh();
        }
    }

    private void apply(String text) {
        try {
            slots.apply(ClusterPartitionParser.parse(text));
            refreshes.incrementAndGet();
            List<Integer> masters = slots.masters();
            for (int node : masters) {
                for (ClusterRoute route : routes) {
                    if (route.link(node) == null) {
                        connect(node);
                        break;
                    }
                }
            }
            retireDead(masters);
        } catch (RuntimeException e) {
            LOG.debug("redis: cannot read CLUSTER NODES: {}", text, e);
        } finally {
            refreshing.set(false);
        }
        resendParked();
    }

    /**
     * Closes the connections to nodes that serve no slot and are down (a master that died and was replaced), so
     * they stop trying to reconnect; should such a node serve slots again, {@link #connect} opens new ones.
     */
    private void retireDead(List<Integer> masters) {
        for (ClusterRoute route : routes) {
            NodeLink[] links = route.links();
            for (int node = 0; node < links.length; node++) {
                if (links[node] != null && !masters.contains(node) && !links[node].isUp()) {
                    route.detach(node);
                    links[node].connection.closeAsync();
                }
            }
        }
    }

    private void resendParked() {
        for (ClusterRoute route : routes) {
            try {
                route.loop.execute(route::resendParked);
            } catch (RejectedExecutionException e) {
                return; // shutting down
            }
        }
    }

    /**
     * Opens a connection to node {@code node} for every set that has none, without blocking; each set sends its
     * waiting commands once its connection is there. Any thread.
     */
    void connect(int node) {
        if (closed || !connecting.add(node)) {
            return;
        }
        RedisURI uri = uri(node);
        AtomicInteger pending = new AtomicInteger(routes.length);
        for (int c = 0; c < routes.length; c++) {
            ClusterRoute route = routes[c];
            if (route.link(node) != null) {
                done(node, pending);
                continue;
            }
            int set = c;
            opened.client(set).connectAsync(RedisConnector.CODEC, uri).whenComplete((connection, error) -> {
                try {
                    if (connection != null && closed) {
                        connection.closeAsync();
                    } else if (connection != null) {
                        route.attach(node, opened.link(set, connection));
                        route.loop.execute(route::resendParked);
                    }
                } catch (RejectedExecutionException e) {
                    // shutting down
                } finally {
                    done(node, pending);
                }
            });
        }
    }

    private void done(int node, AtomicInteger pending) {
        if (pending.decrementAndGet() == 0) {
            connecting.remove(node);
        }
    }

    /** Stops refreshing and connecting; the connections are closed with the rest ({@link RedisConnector.Opened}). */
    void close() {
        closed = true;
    }
}
