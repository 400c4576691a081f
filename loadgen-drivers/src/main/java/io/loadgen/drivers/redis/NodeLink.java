package io.loadgen.drivers.redis;

import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.netty.channel.EventLoop;

import java.util.concurrent.CompletionStage;

/**
 * One connection to one server: Lettuce's connection, its async commands, and the batch its hot commands are
 * written in ({@link CommandBatch}, confined to the connection's loop). Without {@code redis.cluster} it is a
 * connection set's whole {@link Route}; on a cluster, one of the links a {@link ClusterRoute} picks from.
 */
final class NodeLink implements Route {
    final StatefulRedisConnection<String, byte[]> connection;
    final RedisAsyncCommands<String, byte[]> commands;
    final CommandBatch batch;

    NodeLink(StatefulRedisConnection<String, byte[]> connection, ChannelTracker.Ref channel, EventLoop loop) {
        this.connection = connection;
        this.commands = connection.async();
        this.batch = new CommandBatch(connection, channel, loop);
    }

    @Override
    public <T> CompletionStage<T> dispatch(String key, CommandType type, CommandOutput<String, byte[], T> output,
                                           CommandArgs<String, byte[]> args) {
        return commands.dispatch(type, output, args);
    }

    @Override
    public void add(String key, OpCommand command) {
        batch.add(command);
    }

    @Override
    public void send(String key, PendingCommand<?> command) {
        connection.dispatch(command);
    }

    /** Whether the connection is up now (Lettuce's view; false while it reconnects). */
    boolean isUp() {
        return connection.isOpen();
    }
}
