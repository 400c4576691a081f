package io.loadgen.drivers.redis;

import io.lettuce.core.RedisException;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.protocol.RedisCommand;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;

import java.util.ArrayList;
import java.util.List;

/**
 * The commands one connection's event loop issues in one pass (the completions of a read of replies, or
 * one step of the issuer), written to the channel as one message when the pass is over: Lettuce's
 * {@code CommandHandler} puts each on its stack of commands awaiting replies and its encoder writes them
 * all into one buffer, as redis-benchmark's {@code -P} writes a pipeline. Confined to the loop.
 *
 * <p>Replies, reconnects and the reply order are Lettuce's, unchanged: only the write is batched. When the
 * connection is down ({@link ChannelTracker.Ref} holds no channel) every command of the batch fails at
 * once, as Lettuce's own path refuses commands while disconnected. When the connection has no tracked
 * channel at all (a Lettuce whose writer is not its endpoint), commands go through Lettuce's path.
 */
final class CommandBatch {
    private static final RedisException NOT_CONNECTED =
            new RedisException("Currently not connected. Commands are rejected.", null) {
                @Override
                public synchronized Throwable fillInStackTrace() {
                    return this; // shared: the message is the whole story
                }
            };

    private final StatefulRedisConnection<String, byte[]> connection;
    private final ChannelTracker.Ref ref;
    private final EventLoop loop;
    private final Runnable flushTask = this::flush;
    private List<RedisCommand<String, byte[], ?>> pending = new ArrayList<>();

    /** @param ref the connection's channel, or null to write through Lettuce's path */
    CommandBatch(StatefulRedisConnection<String, byte[]> connection, ChannelTracker.Ref ref, EventLoop loop) {
        this.connection = connection;
        this.ref = ref;
        this.loop = loop;
    }

    /** Adds a command to this pass's batch; the batch is written when the loop's current work is done. Loop thread. */
    void add(RedisCommand<String, byte[], ?> command) {
        if (ref == null) {
            connection.dispatch(command);
            return;
        }
        pending.add(command);
        if (pending.size() == 1) {
            loop.execute(flushTask); // runs after the tasks and reads in progress: every command they add joins
        }
    }

    private void flush() {
        List<RedisCommand<String, byte[], ?>> batch = pending;
        if (batch.isEmpty()) {
            return;
        }
        pending = new ArrayList<>(batch.size()); // the handler may keep the message until it is written
        Channel channel = ref.channel();
        if (channel == null || !channel.isActive()) {
            for (RedisCommand<String, byte[], ?> command : batch) {
                command.completeExceptionally(NOT_CONNECTED);
            }
            return;
        }
        // A failed write reaches Lettuce's CommandHandler as an exception, and the channel's close hands the
        // commands on its stack back to Lettuce, as for commands written through its own path.
        channel.writeAndFlush(batch.size() == 1 ? batch.get(0) : batch, channel.voidPromise());
    }
}
