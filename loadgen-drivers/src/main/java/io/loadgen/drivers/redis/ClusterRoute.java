package io.loadgen.drivers.redis;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.AsyncCommand;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.RedisCommand;
import io.netty.channel.EventLoop;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.concurrent.CompletionStage;

/**
 * One connection set's way to a Redis Cluster: a connection to every master, all on the set's event loop, and
 * each command sent on the connection to the master serving its key's slot ({@link ClusterSlots}).
 *
 * <ul>
 *   <li>{@code MOVED slot host:port}: the slot map learns the slot's new master at once, a refresh of the whole
 *       map is asked for, and the command is sent again there.</li>
 *   <li>{@code ASK slot host:port} (a slot being migrated): the command is sent there after {@code ASKING}, the
 *       map unchanged.</li>
 *   <li>A lost connection, a master that is down, a {@code CLUSTERDOWN} or {@code TRYAGAIN}: the command waits
 *       here ({@link #park}) for the next slot map (asked for at once, at most every
 *       {@link RedisCluster#REFRESH_INTERVAL_NS}), then is sent to the master it names; so a failover is waited
 *       out, and an operation that outlasts {@code redis.timeout} ends as {@code TIMEOUT}, as any other.</li>
 * </ul>
 *
 * The links array is read by any thread and replaced whole (copy on write); the waiting commands are confined to
 * the set's loop.
 */
final class ClusterRoute implements Route {
    private final RedisCluster cluster;
    private final ClusterSlots slots;
    final EventLoop loop;
    /** By node index; null where this set has no connection (yet) to that node. */
    private volatile NodeLink[] links = new NodeLink[0];
    /** Commands waiting for a slot map that names a live master: {@link OpCommand}s and {@link Routed}s. Loop. */
    private ArrayDeque<Resendable> parked = new ArrayDeque<>();

    ClusterRoute(RedisCluster cluster, ClusterSlots slots, EventLoop loop) {
        this.cluster = cluster;
        this.slots = slots;
        this.loop = loop;
    }

    /** This set's connection to node {@code index}, or null. Any thread. */
    NodeLink link(int index) {
        NodeLink[] now = links;
        return index >= 0 && index < now.length ? now[index] : null;
    }

    /** Every link, by node index (nulls where none). */
    NodeLink[] links() {
        return links;
    }

    /** Adds this set's connection to node {@code index}: at open (main thread), or later on the set's loop. */
    synchronized void attach(int index, NodeLink link) {
        NodeLink[] grown = Arrays.copyOf(links, Math.max(links.length, index + 1));
        grown[index] = link;
        links = grown;
    }

    /** Forgets this set's connection to node {@code index} (the caller closes it). Any thread. */
    synchronized void detach(int index) {
        if (index < links.length) {
            NodeLink[] shrunk = links.clone();
            shrunk[index] = null;
            links = shrunk;
        }
    }

    /** The link with the lowest node index: the set's "first" connection. */
    NodeLink first() {
        for (NodeLink link : links) {
            if (link != null) {
                return link;
            }
        }
        return null;
    }

    /**
     * A command a route can send again: a READ's or UPDATE's {@link OpCommand}, or a {@link Routed} on Lettuce's
     * path. Its own thread (the set's loop) once sent.
     */
    interface Resendable {
        /** Its key's slot. */
        int slot();

        /** Whether nothing more is to be sent for it: its operation ended, or its deadline passed. */
        boolean over();

        /** Counts one redirect followed; returns how many were followed before it. */
        int redirected();

        /** Forgets an error reply, so it can be sent again. */
        void clearError();

        /** Keeps the failure that made it wait, for {@link #giveUp}. */
        void remember(Throwable error);

        /** Ends it with the failure it waited on, once it is {@link #over}. */
        void giveUp();

        /** Sends it on {@code link}, after {@code ASKING} when {@code asking}. */
        void sendOn(NodeLink link, boolean asking);
    }

    @Override
    public void add(String key, OpCommand command) {
        send(key, command);
    }

    @Override
    public void send(String key, PendingCommand<?> command) {
        command.route = this;
        command.slot = ClusterSlots.slot(key);
        send(command);
    }

    @Override
    public <T> CompletionStage<T> dispatch(String key, CommandType type, CommandOutput<String, byte[], T> output,
                                           CommandArgs<String, byte[]> args) {
        AsyncCommand<String, byte[], T> result = new AsyncCommand<>(new Command<>(type, output, args));
        send(new Routed<>(result, this, ClusterSlots.slot(key), System.nanoTime() + cluster.timeoutNs()));
        return result;
    }

    /** Sends a command to the master serving its slot, or keeps it until the map names a live one. */
    private void send(Resendable command) {
        NodeLink link = link(slots.owner(command.slot()));
        if (link == null) {
            park(command);
            return;
        }
        command.sendOn(link, false);
    }

    /**
     * A command's failure: true when it is handled here (sent on, or waiting), false when it ends its operation
     * (an error reply that is not about the cluster, a redirect too many, or an operation already over).
     */
    boolean failed(Resendable command, Throwable error) {
        if (command.over()) {
            return false;
        }
        String reply = error instanceof RedisCommandExecutionException ? error.getMessage() : null;
        ClusterSlots.Redirect redirect = ClusterSlots.redirect(reply);
        if (redirect != null) {
            if (command.redirected() >= RedisCluster.MAX_REDIRECTS) {
                return false;
            }
            command.clearError();
            NodeLink target = follow(redirect);
            if (target == null) {
                park(command);
            } else {
                command.sendOn(target, redirect.ask());
            }
            return true;
        }
        if (reply != null && !ClusterSlots.isTransient(reply)) {
            return false;
        }
        command.clearError();
        command.remember(error);
        park(command);
        return true;
    }

    /**
     * Where a redirect points: a MOVED updates the map (and asks for a refresh), an ASK does not. Null when this
     * set has no connection to that node yet (one is being opened).
     */
    private NodeLink follow(ClusterSlots.Redirect redirect) {
        int node = slots.nodeIndex(redirect.host(), redirect.port());
        if (redirect.ask()) {
            cluster.countAsk();
        } else {
            slots.moved(redirect.slot(), node);
            cluster.countMoved();
        }
        NodeLink link = link(node);
        if (link == null) {
            cluster.connect(node);
        }
        return link;
    }

    /** {@code ASKING}, written right before a command an {@code ASK} reply sent elsewhere. */
    static RedisCommand<String, byte[], String> asking() {
        return new Command<>(CommandType.ASKING, new StatusOutput<>(RedisConnector.CODEC),
                new CommandArgs<>(RedisConnector.CODEC));
    }

    /** Keeps a command until the next slot map; asks for one. Any thread. */
    private void park(Resendable command) {
        if (!loop.inEventLoop()) {
            loop.execute(() -> park(command));
            return;
        }
        parked.add(command);
        cluster.requestRefresh();
    }

    /**
     * Sends every waiting command again by the current map, after a refresh or a new connection. Those whose
     * operation is over are dropped (a {@link Routed} past its deadline fails with its last failure); those still
     * without a live master wait again. The set's loop.
     */
    void resendParked() {
        if (parked.isEmpty()) {
            return;
        }
        ArrayDeque<Resendable> waiting = parked;
        parked = new ArrayDeque<>();
        for (Resendable command : waiting) {
            if (command.over()) {
                command.giveUp();
            } else {
                send(command);
            }
        }
    }

}
