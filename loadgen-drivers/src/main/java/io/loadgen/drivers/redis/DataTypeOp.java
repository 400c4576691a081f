package io.loadgen.drivers.redis;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.loadgen.core.driver.Status;

import java.util.concurrent.atomic.LongAdder;

/**
 * One {@code redis.requests} command, sent through Lettuce's connection, whose reply goes straight to its
 * {@link InFlight.Op} as a status ({@link DataTypeReply}), with no CompletableFuture stage in between; a
 * failure ends the operation as {@link PendingCommand} says.
 */
final class DataTypeOp extends PendingCommand<Status> {
    private final DataTypeReply reply;
    private final LongAdder integrityFailures;

    /** @param integrityFailures counts the replies whose values were not the run's ({@code UNEXPECTED_STATE}) */
    DataTypeOp(CommandType type, DataTypeReply reply, CommandArgs<String, byte[]> args, InFlight.Op pending,
               LongAdder integrityFailures) {
        super(type, reply, args, pending);
        this.reply = reply;
        this.integrityFailures = integrityFailures;
    }

    @Override
    public void complete() {
        if (rerouted()) {
            return; // on a cluster: sent again where it says (Lettuce writes only commands that are not done)
        }
        super.complete();
        if (reply.hasError()) {
            pending.accept(null, new RedisCommandExecutionException(reply.getError()));
            return;
        }
        if (reply.wrong()) {
            integrityFailures.increment(); // before the completion, so whoever it wakes sees the count
        }
        pending.accept(reply.get(), null);
    }
}
