package io.loadgen.drivers.redis;

import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.output.CommandOutput;
import io.loadgen.core.driver.Status;

import java.nio.ByteBuffer;

/**
 * The reply of a {@code redis.requests} command, read as Lettuce decodes it, into the operation's status: nil or
 * empty where that means "not there" ({@link DataTypeCommand.Reply}), and, with {@code redis.dataintegrity}, each
 * value it carries checked in place ({@link VersionedValues#matches}) without copying it. Written by Lettuce on
 * the connection's event loop, read once when the command completes.
 */
final class DataTypeReply extends CommandOutput<String, byte[], Status> {
    private final DataTypeCommand.Reply kind;
    /** The identity the reply's values belong to (a hash's: its key's, each field added); unused unless checking. */
    private final long identity;
    private final boolean check;
    private long elements;
    private long fieldIdentity;
    private boolean wrong;

    /**
     * @param identity {@link VersionedValues#identity} of the key, or of the key and field for HGET
     * @param check    true to check the values ({@code redis.dataintegrity})
     */
    DataTypeReply(RedisCodec<String, byte[]> codec, DataTypeCommand.Reply kind, long identity, boolean check) {
        super(codec, null);
        this.kind = kind;
        this.identity = identity;
        this.check = check && kind != DataTypeCommand.Reply.ANY;
    }

    /** A bulk string (a value, a field name, a member) or a status; nil is none. */
    @Override
    public void set(ByteBuffer bytes) {
        if (bytes == null) {
            return;
        }
        elements++;
        if (!check || wrong) {
            return;
        }
        if (kind == DataTypeCommand.Reply.FIELDS_AND_VALUES) {
            if ((elements & 1) == 1) {
                fieldIdentity = VersionedValues.field(identity, bytes);
                return;
            }
            wrong = !VersionedValues.matches(fieldIdentity, bytes);
            return;
        }
        wrong = !VersionedValues.matches(identity, bytes);
    }

    /** An integer (a count, SISMEMBER's 0 or 1, INCR's new value). */
    @Override
    public void set(long integer) {
        elements++;
    }

    @Override
    public void set(double number) {
        elements++;
    }

    /** True when a value read was not one the run wrote for its key. */
    boolean wrong() {
        return wrong;
    }

    @Override
    public Status get() {
        if (wrong) {
            return Status.UNEXPECTED_STATE;
        }
        boolean notThere = elements == 0
                && (kind == DataTypeCommand.Reply.ONE_VALUE || kind == DataTypeCommand.Reply.FIELDS_AND_VALUES);
        return notThere ? Status.NOT_FOUND : Status.OK;
    }
}
