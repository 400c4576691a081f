package io.loadgen.drivers.redis;

import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;

import java.util.concurrent.CancellationException;

/**
 * A command that is one whole operation: its outcome goes straight to the operation's {@link InFlight.Op}, with
 * no CompletableFuture stage between. Subclasses turn the reply into a status in {@link #complete()}; a failure
 * ({@link #completeExceptionally}) and a command the connection gives up ({@link #cancel()}) end the operation here.
 * Lettuce calls these on the connection's event loop.
 */
abstract class PendingCommand<T> extends Command<String, byte[], T> {
    /** The operation this command ends. */
    final InFlight.Op pending;

    PendingCommand(CommandType type, CommandOutput<String, byte[], T> output, CommandArgs<String, byte[]> args,
                   InFlight.Op pending) {
        super(type, output, args);
        this.pending = pending;
    }

    @Override
    public boolean completeExceptionally(Throwable error) {
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
