package io.loadgen.drivers.redis;

import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.models.partitions.Partitions;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * A Redis Cluster's slot map as the {@code redis} driver knows it: which master serves each of the 16384 slots,
 * and every node it has heard of, each with an index that never changes (so connections can be kept in arrays by
 * node). Read on every command by the event loops; changed by a {@code MOVED} reply (one slot, on a loop) and by
 * a refresh from {@code CLUSTER NODES} (every slot). Thread-safe: the owners are an {@link AtomicIntegerArray},
 * the node list is append-only and published whole.
 */
final class ClusterSlots {
    static final int SLOTS = SlotHash.SLOT_COUNT;

    /** A node: where it listens. {@code index} is its place in the list, for as long as the run lasts. */
    record Node(int index, String host, int port) {
        String address() {
            return host + ":" + port;
        }
    }

    /** A {@code MOVED} or {@code ASK} error reply: the slot and where it is served now. */
    record Redirect(boolean ask, int slot, String host, int port) {
    }

    /** Per slot, the serving node's index + 1; 0 while no node is known to serve it. */
    private final AtomicIntegerArray owners = new AtomicIntegerArray(SLOTS);
    private volatile Node[] nodes = new Node[0];
    /** Used for a node whose address a reply leaves empty: the seed's host. */
    private final String defaultHost;

    ClusterSlots(String defaultHost) {
        this.defaultHost = defaultHost;
    }

    /** The key's slot: CRC16 of the key (or of its {@code {hash tag}}) mod 16384, Lettuce's {@link SlotHash}. */
    static int slot(String key) {
        return SlotHash.getSlot(key);
    }

    /** The index of the node serving {@code slot}, or -1 when none is known. Any thread. */
    int owner(int slot) {
        return owners.get(slot) - 1;
    }

    Node node(int index) {
        return nodes[index];
    }

    int nodeCount() {
        return nodes.length;
    }

    /** The node at {@code host:port}, added when new. Any thread. */
    int nodeIndex(String host, int port) {
        String h = host == null || host.isEmpty() ? defaultHost : host;
        for (Node n : nodes) {
            if (n.port == port && n.host.equalsIgnoreCase(h)) {
                return n.index;
            }
        }
        synchronized (this) {
            Node[] now = nodes;
            for (Node n : now) {
                if (n.port == port && n.host.equalsIgnoreCase(h)) {
                    return n.index;
                }
            }
            Node[] grown = Arrays.copyOf(now, now.length + 1);
            grown[now.length] = new Node(now.length, h, port);
            nodes = grown;
            return now.length;
        }
    }

    /** A {@code MOVED}: {@code slot} is served by {@code node} from now on. Any thread. */
    void moved(int slot, int node) {
        owners.set(slot, node + 1);
    }

    /**
     * Replaces the map with what {@code CLUSTER NODES} says (parsed by Lettuce): each master's slots. A master
     * flagged as failed counts only for slots no other master claims, so a replica promoted in its place wins.
     *
     * @return how many slots some node serves
     */
    synchronized int apply(Partitions partitions) {
        int[] fresh = new int[SLOTS];
        for (int pass = 0; pass < 2; pass++) {
            for (RedisClusterNode node : partitions) {
                boolean failed = node.is(RedisClusterNode.NodeFlag.FAIL) || node.is(RedisClusterNode.NodeFlag.EVENTUAL_FAIL);
                boolean master = node.is(RedisClusterNode.NodeFlag.UPSTREAM) || node.is(RedisClusterNode.NodeFlag.MASTER);
                RedisURI uri = node.getUri();
                if (!master || uri == null || node.hasNoSlots() || failed != (pass == 0)) {
                    continue; // failed masters first, so live ones overwrite them
                }
                int index = nodeIndex(uri.getHost(), uri.getPort()) + 1;
                node.forEachSlot(slot -> fresh[slot] = index);
            }
        }
        int served = 0;
        for (int slot = 0; slot < SLOTS; slot++) {
            owners.set(slot, fresh[slot]);
            served += fresh[slot] != 0 ? 1 : 0;
        }
        return served;
    }

    /** The nodes that serve at least one slot now, by index. */
    List<Integer> masters() {
        boolean[] seen = new boolean[nodes.length];
        List<Integer> masters = new ArrayList<>();
        for (int slot = 0; slot < SLOTS; slot++) {
            int owner = owner(slot);
            if (owner >= 0 && owner < seen.length && !seen[owner]) {
                seen[owner] = true;
                masters.add(owner);
            }
        }
        masters.sort(null);
        return masters;
    }

    /**
     * Reads a {@code MOVED 3999 127.0.0.1:6381} or {@code ASK 3999 127.0.0.1:6381} error reply (an IPv6 host may
     * come bare or in brackets; an empty one means the seed's host); null for any other message.
     */
    static Redirect redirect(String message) {
        if (message == null) {
            return null;
        }
        boolean ask = message.startsWith("ASK ");
        if (!ask && !message.startsWith("MOVED ")) {
            return null;
        }
        String[] parts = message.trim().split(" +");
        if (parts.length < 3) {
            return null;
        }
        int colon = parts[2].lastIndexOf(':');
        if (colon < 0) {
            return null;
        }
        try {
            String host = parts[2].substring(0, colon);
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            }
            int slot = Integer.parseInt(parts[1]);
            return slot < 0 || slot >= SLOTS ? null
                    : new Redirect(ask, slot, host, Integer.parseInt(parts[2].substring(colon + 1)));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * An error reply that says the cluster cannot serve the key now but will ({@code CLUSTERDOWN} while a failed
     * master's slots wait for a replica, {@code TRYAGAIN} during a slot's migration): worth waiting for.
     */
    static boolean isTransient(String message) {
        return message != null && (message.startsWith("CLUSTERDOWN") || message.startsWith("TRYAGAIN"));
    }
}
