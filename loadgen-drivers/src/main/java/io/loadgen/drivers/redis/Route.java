package io.loadgen.drivers.redis;

import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;

import java.util.concurrent.CompletionStage;

/**
 * Where one connection set sends each command: its one connection ({@link NodeLink}), or, on a Redis Cluster, the
 * connection to the master serving the command's key's slot ({@link ClusterRoute}). Every command the driver
 * sends names its key, so the operations are written once for both.
 */
interface Route {
    /**
     * Sends one command about {@code key}; the stage ends with its reply, or its failure. Any thread (Lettuce's
     * connections are thread-safe); the stage completes on the connection's event loop.
     */
    <T> CompletionStage<T> dispatch(String key, CommandType type, CommandOutput<String, byte[], T> output,
                                    CommandArgs<String, byte[]> args);

    /** Sends a READ's or UPDATE's one command about {@code key} in this loop pass's batch. The set's loop thread. */
    void add(String key, OpCommand command);

    /** Sends a command that is one whole operation ({@code redis.requests}'), about {@code key}. The set's loop. */
    void send(String key, PendingCommand<?> command);
}
