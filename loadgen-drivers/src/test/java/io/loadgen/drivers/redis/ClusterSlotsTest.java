package io.loadgen.drivers.redis;

import io.lettuce.core.cluster.models.partitions.ClusterPartitionParser;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The slot map: read from CLUSTER NODES, patched by MOVED, and the redirects parsed. */
class ClusterSlotsTest {
    /** Three masters and a replica, as redis-server 7.0 prints CLUSTER NODES (one slot migrating). */
    private static final String NODES = String.join("\n",
            "a1 127.0.0.1:7000@17000 myself,master - 0 0 1 connected 0-5460 [93->-b2]",
            "b2 127.0.0.1:7001@17001 master - 0 1700000000000 2 connected 5461-10922",
            "c3 127.0.0.1:7002@17002 master - 0 1700000000000 3 connected 10923-16383",
            "d4 127.0.0.1:7003@17003 slave a1 0 1700000000000 1 connected", "");

    @Test
    void theMapFromClusterNodesSendsEachSlotToItsMasterAndMovedPatchesOneSlot() {
        ClusterSlots slots = new ClusterSlots("127.0.0.1");
        assertEquals(ClusterSlots.SLOTS, slots.apply(ClusterPartitionParser.parse(NODES)));
        assertEquals(3, slots.nodeCount(), "the replica serves no slot, so it is not a node to send to");
        assertEquals(7000, slots.node(slots.owner(0)).port());
        assertEquals(7000, slots.node(slots.owner(93)).port(), "a migrating slot stays its master's until it moves");
        assertEquals(7001, slots.node(slots.owner(5461)).port());
        assertEquals(7002, slots.node(slots.owner(16383)).port());
        assertEquals(List.of(0, 1, 2), slots.masters());

        int replica = slots.nodeIndex("127.0.0.1", 7003);
        assertEquals(3, replica, "a node first named by a MOVED gets the next index");
        slots.moved(42, replica);
        assertEquals(7003, slots.node(slots.owner(42)).port());
        assertEquals(7000, slots.node(slots.owner(41)).port());
        assertEquals(List.of(0, 1, 2, 3), slots.masters());

        // After a failover: a1 failed, d4 serves its slots.
        slots.apply(ClusterPartitionParser.parse(String.join("\n",
                "a1 127.0.0.1:7000@17000 master,fail - 0 0 1 disconnected",
                "b2 127.0.0.1:7001@17001 myself,master - 0 0 2 connected 5461-10922",
                "c3 127.0.0.1:7002@17002 master - 0 0 3 connected 10923-16383",
                "d4 127.0.0.1:7003@17003 master - 0 0 4 connected 0-5460")));
        assertEquals(7003, slots.node(slots.owner(0)).port());
        assertEquals(7003, slots.node(slots.owner(42)).port());
        assertEquals(List.of(1, 2, 3), slots.masters(), "indexes never change: 7000 is still node 0");
    }

    @Test
    void slotsAreLettucesCrc16WithHashTags() {
        assertEquals(12182, ClusterSlots.slot("foo"), "CRC16 of 'foo' mod 16384, as redis-cli CLUSTER KEYSLOT says");
        assertEquals(ClusterSlots.slot("user"), ClusterSlots.slot("{user}42"), "a hash tag picks the slot");
    }

    @Test
    void movedAndAskRepliesAreReadAndOtherErrorsAreNot() {
        ClusterSlots.Redirect moved = ClusterSlots.redirect("MOVED 3999 127.0.0.1:6381");
        assertFalse(moved.ask());
        assertEquals(3999, moved.slot());
        assertEquals("127.0.0.1", moved.host());
        assertEquals(6381, moved.port());
        ClusterSlots.Redirect ask = ClusterSlots.redirect("ASK 3999 ::1:6381");
        assertTrue(ask.ask());
        assertEquals("::1", ask.host());
        assertEquals("", ClusterSlots.redirect("MOVED 1 :7000").host(), "an empty host: the node's own");
        assertNull(ClusterSlots.redirect("WRONGTYPE Operation against a key holding the wrong kind of value"));
        assertNull(ClusterSlots.redirect("MOVED 99999 127.0.0.1:1"), "no such slot");
        assertNull(ClusterSlots.redirect("MOVED x"));
        assertTrue(ClusterSlots.isTransient("CLUSTERDOWN The cluster is down"));
        assertFalse(ClusterSlots.isTransient("ERR unknown command"));
    }
}
