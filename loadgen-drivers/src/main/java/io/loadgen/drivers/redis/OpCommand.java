package io.loadgen.drivers.redis;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.RedisCommand;
import io.loadgen.core.driver.Status;

import java.util.concurrent.CancellationException;

/**
 * A one-command operation (a READ or an UPDATE) whose reply goes straight to its {@link InFlight.Op},
 * without the CompletableFuture stages Lettuce's async API puts between a reply and its caller. Lettuce's
 * encoder writes it; {@link DirectReplies} reads its reply and calls {@link #replied}. Through Lettuce's own
 * path (a connection without {@link DirectReplies}) Lettuce decodes it as any command and calls
 * {@link #complete()} or {@link #completeExceptionally} on the connection's event loop, or {@link #cancel()}
 * when the connection gives it up.
 */
final class OpCommand extends Command<String, byte[], Long> implements ClusterRoute.Resendable {
    private final InFlight.Op pending;
    private final boolean emptyIsNotFound;
    /** On a cluster: the route that sent it, which follows redirects and waits out failovers; else null. */
    ClusterRoute route;
    /** On a cluster: the key's slot. */
    int slot;
    /** On a cluster: MOVED and ASK replies followed so far. */
    int redirects;

    private OpCommand(CommandType type, CommandOutput<String, byte[], Long> output, CommandArgs<String, byte[]> args,
                      InFlight.Op pending, boolean emptyIsNotFound) {
        super(type, output, args);
        this.pending = pending;
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

    @Override
    public int slot() {
        return slot;
    }

    /** Whether the operation is over (answered, failed or timed out): then nothing more is sent for it. */
    @Override
    public boolean over() {
        return pending.isDone();
    }

    @Override
    public int redirected() {
        return redirects++;
    }

    @Override
    public void clearError() {
        output.setError((String) null);
    }

    /** Its operation's timeout says it all: nothing to keep. */
    @Override
    public void remember(Throwable error) {
    }

    /** Its operation has ended already (by its timeout): nothing to do. */
    @Override
    public void giveUp() {
    }

    /** Sends it again: in {@code link}'s batch, or after {@code ASKING} through Lettuce's path. */
    @Override
    public void sendOn(NodeLink link, boolean asking) {
        if (asking) {
            link.connection.dispatch(java.util.List.<RedisCommand<String, byte[], ?>>of(ClusterRoute.asking(), this));
        } else {
            link.batch.add(this);
        }
    }

    @Override
    public void complete() {
        if (output.hasError() && route != null
                && route.failed(this, new RedisCommandExecutionException(output.getError()))) {
            return; // not complete: sent again (Lettuce writes only commands that are not done)
        }
        super.complete();
        if (output.hasError()) {
            pending.accept(null, new RedisCommandExecutionException(output.getError()));
        } else {
            pending.accept(emptyIsNotFound && output.get() == 0 ? Status.NOT_FOUND : Status.OK, null);
        }
    }

    @Override
    public boolean completeExceptionally(Throwable error) {
        if (route != null && route.failed(this, error)) {
            return false;
        }
        boolean first = super.completeExceptionally(error);
        pending.accept(null, error);
        return first;
    }

    @Override
    public void cancel() {
        super.cancel();
        pending.accept(null, new CancellationException("the connection gave the command up"));
    }
}
