package io.loadgen.drivers.redis;

import io.lettuce.core.RedisException;
import io.lettuce.core.api.StatefulRedisConnection;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;

import java.util.ArrayList;
import java.util.List;

/**
 * The hot commands (READ's and UPDATE's) one connection's event loop issues in one pass (the completions of a
 * read of replies, or one step of the issuer), written as one message when the pass is over, by
 * {@link DirectReplies}: Lettuce's encoder writes them all into one buffer, as redis-benchmark's {@code -P}
 * writes a pipeline, and their replies are counted without Lettuce's decoder. Confined to the loop.
 *
 * <p>The connection itself (handshake, AUTH, SELECT, reconnects) stays Lettuce's. When it is down
 * ({@link ChannelTracker.Ref} holds no channel) every command of the batch fails at once, as Lettuce's own
 * path refuses commands while disconnected. When the connection has no tracked channel at all (a Lettuce
 * whose writer is not its endpoint), commands go through Lettuce's path.
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
    private List<OpCommand> pending = new ArrayList<>();

    /** @param ref the connection's channel, or null to write through Lettuce's path */
    CommandBatch(StatefulRedisConnection<String, byte[]> connection, ChannelTracker.Ref ref, EventLoop loop) {
        this.connection = connection;
        this.ref = ref;
        this.loop = loop;
    }

    /** Adds a command to this pass's batch; the batch is written when the loop's current work is done. Loop thread. */
    void add(OpCommand command) {
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
        List<OpCommand> batch = pending;
        if (batch.isEmpty()) {
            return;
        }
        pending = new ArrayList<>(batch.size()); // the encoder may keep the message until it is written
        Channel channel = ref.channel();
        DirectReplies direct = ref.direct();
        if (channel == null || direct == null || !channel.isActive()) {
            for (OpCommand command : batch) {
                command.replied(-1, NOT_CONNECTED);
            }
            return;
        }
        // A write that fails closes the channel; DirectReplies then fails every operation still awaiting a reply.
        direct.writeDirect(batch);
    }
}
