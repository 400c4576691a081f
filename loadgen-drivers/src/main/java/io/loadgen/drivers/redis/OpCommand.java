package io.loadgen.drivers.redis;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.loadgen.core.driver.Status;

/**
 * A one-command operation (a READ or an UPDATE) whose reply goes straight to its {@link InFlight.Op},
 * without the CompletableFuture stages Lettuce's async API puts between a reply and its caller. Lettuce's
 * encoder writes it; {@link DirectReplies} reads its reply and calls {@link #replied}. Through Lettuce's own
 * path (a connection without {@link DirectReplies}) Lettuce decodes it as any command and calls
 * {@link #complete()} or {@link #completeExceptionally} on the connection's event loop, or {@link #cancel()}
 * when the connection gives it up.
 */
final class OpCommand extends PendingCommand<Long> {
    private final boolean emptyIsNotFound;

    private OpCommand(CommandType type, CommandOutput<String, byte[], Long> output, CommandArgs<String, byte[]> args,
                      InFlight.Op pending, boolean emptyIsNotFound) {
        super(type, output, args, pending);
        this.emptyIsNotFound = emptyIsNotFound;
    }

    /** A read ({@code HGETALL} or {@code HGET}): {@code NOT_FOUND} when the reply has no element. */
    static OpCommand read(CommandType type, CommandArgs<String, byte[]> args, RedisCodec<String, byte[]> codec,
                          InFlight.Op pending) {
        return new OpCommand(type, new ElementCount(codec), args, pending, true);
    }

    /** A write ({@code HSET}): {@code OK} once answered. */
    static OpCommand write(CommandType type, CommandArgs<String, byte[]> args, RedisCodec<String, byte[]> codec,
                           InFlight.Op pending) {
        return new OpCommand(type, new ElementCount(codec), args, pending, false);
    }

    /**
     * The reply, read by {@link DirectReplies} without Lettuce: how many elements it had, or the error that
     * ended the command. Loop thread.
     */
    void replied(long elements, Throwable error) {
        if (error != null && route != null && route.failed(this, error)) {
            return; // sent on to where the cluster says, or waiting for the next slot map
        }
        if (error != null) {
            pending.accept(null, error);
        } else {
            pending.accept(emptyIsNotFound && elements == 0 ? Status.NOT_FOUND : Status.OK, null);
        }
    }

    /** Sends it again: in {@code link}'s batch, or after {@code ASKING} through Lettuce's path. */
    @Override
    public void sendOn(NodeLink link, boolean asking) {
        if (asking) {
            super.sendOn(link, true);
        } else {
            link.batch.add(this);
        }
    }

    @Override
    public void complete() {
        if (rerouted()) {
            return; // not complete: sent again (Lettuce writes only commands that are not done)
        }
        super.complete();
        if (output.hasError()) {
            pending.accept(null, new RedisCommandExecutionException(output.getError()));
        } else {
            pending.accept(emptyIsNotFound && output.get() == 0 ? Status.NOT_FOUND : Status.OK, null);
        }
    }
}
