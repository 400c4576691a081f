package io.loadgen.drivers.ping;

import io.loadgen.core.driver.Completion;
import io.loadgen.core.driver.Status;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.socket.DatagramPacket;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

import java.net.PortUnreachableException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * One client connection's pings (TCP, or a connected UDP socket): turns each submitted {@link Completion}
 * into a request carrying a sequence number, matches replies back by that number, and fails requests
 * that outlive the timeout. Runs on the connection's event loop; only {@link #outstanding} is also
 * touched by the submitting threads.
 *
 * <p>{@link PingDriver#submit} writes the harness's {@code Completion} into the channel in a pooled
 * {@link PingRequest} (Netty carries it to the event loop in a recycled task, so submitting allocates
 * nothing once warm); {@link #write} gives it a sequence number and sends {@code sizeBytes} bytes: the
 * sequence number, then zeros. A reply
 * whose number is no longer pending (it already timed out) is counted and dropped. Completions are
 * called on the event loop, after the in-flight count is released, so the harness can submit again at once.
 */
final class PingClientHandler extends ChannelDuplexHandler {
    private static final Logger LOG = LogManager.getLogger(PingClientHandler.class);

    private final int sizeBytes;
    private final long timeoutNs;
    private final String target;
    private final PendingPings pending;
    /** Requests submitted to this connection and not yet completed; submitters claim it, the loop releases it. */
    final AtomicInteger outstanding = new AtomicInteger();

    private ScheduledFuture<?> expiry;
    private boolean closed;
    private boolean warned;
    // Counters: written on the event loop only, read there by PingDriver#stats. The failure counters are
    // volatile so that the status line can read them from its own thread each interval (liveStats): one
    // writer, so ++ loses nothing, and a volatile store costs only on the failure path.
    private long sent;
    private long bytesSent;
    private long bytesReceived;
    private volatile long timeouts;
    private volatile long lateReplies;
    private volatile long badReplies;
    private volatile long rejected;
    private volatile long disconnectErrors;
    /** Requests dropped before they reached this handler; counted from any thread. */
    private final LongAdder undelivered = new LongAdder();

    PingClientHandler(PingSettings settings) {
        this.sizeBytes = settings.sizeBytes();
        this.timeoutNs = settings.timeoutNs();
        this.target = settings.target();
        this.pending = new PendingPings(settings.ringCapacity());
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        // Checks a tenth of the timeout apart (1 to 100 ms): a request fails at most that long after its deadline.
        long tickNs = Math.max(1_000_000L, Math.min(100_000_000L, timeoutNs / 10));
        expiry = ctx.executor().scheduleAtFixedRate(this::expire, tickNs, tickNs, TimeUnit.NANOSECONDS);
        super.channelActive(ctx);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (!(msg instanceof PingRequest request)) {
            ctx.write(msg, promise);
            return;
        }
        Completion completion = request.take();
        long seq = closed ? -1 : pending.add(completion, System.nanoTime() + timeoutNs);
        if (seq < 0) {
            if (closed) {
                disconnectErrors++;
            } else {
                rejected++; // the ring is full: only UDP with a window held open by losses
            }
            finish(completion, Status.ERROR);
            return;
        }
        ByteBuf bytes = ctx.alloc().directBuffer(sizeBytes);
        bytes.writeLong(seq).writeZero(sizeBytes - Long.BYTES);
        sent++;
        bytesSent += sizeBytes;
        ctx.write(bytes, promise);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf reply = msg instanceof DatagramPacket packet ? packet.content() : (ByteBuf) msg;
        try {
            if (reply.readableBytes() != sizeBytes) {
                badReplies++;
                return;
            }
            bytesReceived += sizeBytes;
            Completion completion = pending.remove(reply.getLong(reply.readerIndex()));
            if (completion == null) {
                lateReplies++;
            } else {
                finish(completion, Status.OK);
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    private void expire() {
        long nowNs = System.nanoTime();
        Completion completion;
        while ((completion = pending.pollExpired(nowNs)) != null) {
            timeouts++;
            finish(completion, Status.TIMEOUT);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        closed = true;
        if (expiry != null) {
            expiry.cancel(false);
        }
        Completion completion;
        while ((completion = pending.poll()) != null) {
            disconnectErrors++;
            finish(completion, Status.ERROR);
        }
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // Rare path: the first failure per connection is worth a line; requests already sent time out or
        // fail when the connection closes.
        if (!warned) {
            warned = true;
            String hint = cause instanceof PortUnreachableException
                    ? "; nothing listens there (start 'loadgen ping-server --protocol udp')" : "";
            LOG.warn("ping {}: {}{}", target, cause.toString(), hint);
        }
        if (!(cause instanceof PortUnreachableException)) {
            ctx.close();
        }
    }

    /**
     * Completes with an error a request Netty dropped before it reached {@link #write}: the connection had
     * closed, or the event loop had stopped. Any thread (whichever one Netty released the request on).
     */
    void failUndelivered(Completion completion) {
        undelivered.increment();
        finish(completion, Status.ERROR);
    }

    private void finish(Completion completion, Status status) {
        outstanding.decrementAndGet();
        completion.complete(status);
    }

    /**
     * Adds this connection's failure counters into {@code into} ({@link PingDriver#LIVE_STAT_NAMES} order),
     * from any thread.
     */
    void addFailureCounters(long[] into) {
        into[0] += timeouts;
        into[1] += lateReplies;
        into[2] += badReplies;
        into[3] += rejected;
        into[4] += disconnectErrors + undelivered.sum();
    }

    /** Adds this connection's counters into {@code into}, in {@link PingDriver#STAT_NAMES} order. Event loop. */
    void addCounters(long[] into) {
        into[0] += sent;
        into[1] += bytesSent;
        into[2] += bytesReceived;
        into[3] += timeouts;
        into[4] += lateReplies;
        into[5] += badReplies;
        into[6] += rejected;
        into[7] += disconnectErrors + undelivered.sum();
    }
}
