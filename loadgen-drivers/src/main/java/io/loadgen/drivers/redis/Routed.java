package io.loadgen.drivers.redis;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisException;
import io.lettuce.core.protocol.AsyncCommand;
import io.lettuce.core.protocol.CommandWrapper;
import io.lettuce.core.protocol.RedisCommand;

import java.util.List;

/**
 * A command sent through Lettuce's path on a Redis Cluster (INSERT's, DELETE's, SCAN's and READ-MODIFY-WRITE's
 * commands): Lettuce completes it, and a {@code MOVED} or {@code ASK} reply, a lost connection or a
 * {@code CLUSTERDOWN} goes to its {@link ClusterRoute} first, which sends it again where the cluster says, or
 * when the next slot map names a live master, until {@code redis.timeout} after it was first sent. Its caller
 * sees only the final outcome, on the {@link AsyncCommand} inside (as Lettuce's own cluster command wraps one).
 */
final class Routed<T> extends CommandWrapper<String, byte[], T> implements ClusterRoute.Resendable {
    private final ClusterRoute route;
    private final int slot;
    /** After this, a command waiting for a live master gives up with its last failure. */
    private final long deadlineNs;
    private int redirects;
    /** The failure that made it wait, for when it gives up. */
    private volatile Throwable lastError;

    Routed(AsyncCommand<String, byte[], T> command, ClusterRoute route, int slot, long deadlineNs) {
        super(command);
        this.route = route;
        this.slot = slot;
        this.deadlineNs = deadlineNs;
    }

    @Override
    public void complete() {
        String error = getOutput().getError();
        if (error != null && route.failed(this, new RedisCommandExecutionException(error))) {
            return; // not done: sent again (Lettuce writes only commands that are not done)
        }
        super.complete();
    }

    @Override
    public boolean completeExceptionally(Throwable error) {
        if (route.failed(this, error)) {
            return false;
        }
        return super.completeExceptionally(error);
    }

    @Override
    public int slot() {
        return slot;
    }

    @Override
    public boolean over() {
        return System.nanoTime() - deadlineNs > 0;
    }

    @Override
    public int redirected() {
        return redirects++;
    }

    @Override
    public void clearError() {
        getOutput().setError((String) null);
    }

    @Override
    public void remember(Throwable error) {
        lastError = error;
    }

    /** Ends the command with the failure it waited on, past any redirect or wait. */
    @Override
    public void giveUp() {
        super.completeExceptionally(lastError != null ? lastError
                : new RedisException("no master of the cluster serves slot " + slot));
    }

    @Override
    public void sendOn(NodeLink link, boolean asking) {
        if (asking) {
            link.connection.dispatch(List.<RedisCommand<String, byte[], ?>>of(ClusterRoute.asking(), this));
        } else {
            link.connection.dispatch(this);
        }
    }
}
