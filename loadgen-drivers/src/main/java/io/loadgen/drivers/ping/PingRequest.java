package io.loadgen.drivers.ping;

import io.loadgen.core.driver.Completion;
import io.netty.util.AbstractReferenceCounted;
import io.netty.util.Recycler;

/**
 * Carries one submitted {@link Completion} from the issuer thread to the connection's event loop, where
 * {@link PingClientHandler#write} takes it out. Pooled through Netty's {@link Recycler}: taken on the
 * issuer thread, returned on the event loop, so submitting allocates nothing once warm.
 *
 * <p>It is reference-counted for one reason: a request that never reaches the handler (the connection
 * closed and Netty dropped its pipeline, or the event loop has stopped) is released by Netty, and
 * releasing one that still holds its completion completes it with an error. So no submit is ever lost,
 * whichever thread Netty releases it on.
 */
final class PingRequest extends AbstractReferenceCounted {
    private static final Recycler<PingRequest> RECYCLER = new Recycler<>() {
        @Override
        protected PingRequest newObject(Handle<PingRequest> handle) {
            return new PingRequest(handle);
        }
    };

    private final Recycler.Handle<PingRequest> handle;
    private PingClientHandler handler;
    private Completion completion;

    private PingRequest(Recycler.Handle<PingRequest> handle) {
        this.handle = handle;
    }

    /** A request holding {@code completion}, bound for {@code handler}'s connection. Issuer thread. */
    static PingRequest of(PingClientHandler handler, Completion completion) {
        PingRequest r = RECYCLER.get();
        r.setRefCnt(1);
        r.handler = handler;
        r.completion = completion;
        return r;
    }

    /** Takes the completion out and returns this request to the pool. Event loop; the request is dead after. */
    Completion take() {
        Completion c = completion;
        completion = null;
        release();
        return c;
    }

    @Override
    protected void deallocate() {
        Completion undelivered = completion;
        PingClientHandler h = handler;
        completion = null;
        handler = null;
        handle.recycle(this);
        if (undelivered != null) {
            h.failUndelivered(undelivered);
        }
    }

    @Override
    public PingRequest touch(Object hint) {
        return this;
    }
}
