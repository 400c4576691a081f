package io.loadgen.drivers.redis;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.RedisCommand;

import java.util.concurrent.CancellationException;

/**
 * A command that is one whole operation: its outcome goes straight to the operation's {@link InFlight.Op}, with
 * no CompletableFuture stage between. Subclasses turn the reply into a status in {@link #complete()}; a failure
 * ({@link #completeExceptionally}) and a command the connection gives up ({@link #cancel()}) end the operation here.
 * Lettuce calls these on the connection's event loop.
 */
abstract class PendingCommand<T> extends Command<String, byte[], T> implements ClusterRoute.Resendable {
    /** The operation this command ends. */
    final InFlight.Op pending;
    /** On a cluster: the route that sent it, which follows redirects and waits out failovers; else null. */
    ClusterRoute route;
    /** On a cluster: the key's slot. */
    int slot;
    /** On a cluster: MOVED and ASK replies followed so far. */
    int redirects;

    PendingCommand(CommandType type, CommandOutput<String, byte[], T> output, CommandArgs<String, byte[]> args,
                   InFlight.Op pending) {
        super(type, output, args);
        this.pending = pending;
    }

    /**
     * On a cluster, whether an error reply ({@code MOVED}, {@code ASK}, {@code CLUSTERDOWN}) sent the command on
     * instead of ending it: then {@link #complete()} must do nothing more. Subclasses call it first.
     */
    boolean rerouted() {
        return output.hasError() && route != null
                && route.failed(this, new RedisCommandExecutionException(output.getError()));
    }

    /** On a cluster, a lost connection first goes to the route, which may send the command again. */
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

    /** Sends it on {@code link} through Lettuce's path, after {@code ASKING} when {@code asking}. */
    @Override
    public void sendOn(NodeLink link, boolean asking) {
        if (asking) {
            link.connection.dispatch(java.util.List.<RedisCommand<String, byte[], ?>>of(ClusterRoute.asking(), this));
        } else {
            link.connection.dispatch(this);
        }
    }

    @Override
    public void cancel() {
        super.cancel();
        pending.accept(null, new CancellationException("the connection gave the command up"));
    }
}
