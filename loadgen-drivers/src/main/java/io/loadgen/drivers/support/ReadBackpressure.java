package io.loadgen.drivers.support;

import io.netty.channel.ChannelHandlerContext;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * How a local server ({@code ping-server}, {@code http-server}) keeps a connection's memory bounded: it counts
 * the connection's <em>pending</em> work (read, not yet taken by the socket: held for a delay or queued in
 * Netty's outbound buffer; bytes for the echo server, requests for the http server) and stops reading it
 * (Netty's autoRead off) above {@code pauseAbove}, or while the channel is not writable (Netty's write-buffer
 * high-water mark). The kernel's buffers, then the client's send, fill up instead of the server's heap. It reads
 * again once pending is back to {@code resumeBelow} or less and the channel is writable. A paused connection
 * still decodes what it has read, and Netty may hand it a read already under way, so pending passes
 * {@code pauseAbove} by what a read or two bring; a connection above {@code closeAbove} (reads that could not be
 * paused) is closed with a log line: {@code closeAbove} is the hard bound.
 *
 * <p>One instance per server, shared by its connections and their event loops: the marks are fixed, and
 * {@link #maxPending()} (the most any connection has had pending) is thread-safe. Each call is made on the
 * connection's own event loop with that connection's pending count.
 */
public final class ReadBackpressure {
    private static final Logger LOG = LogManager.getLogger(ReadBackpressure.class);

    private final String server;
    private final String pendingWhat;
    private final long resumeBelow;
    private final long pauseAbove;
    private final long closeAbove;
    private final LongAccumulator maxPending = new LongAccumulator(Math::max, 0);
    private final LongAdder pauses = new LongAdder();

    /**
     * @param server      the server's name, for the log line ({@code ping-server})
     * @param pendingWhat what pending counts, for the log line ({@code bytes wait to be echoed})
     */
    public ReadBackpressure(String server, String pendingWhat, long resumeBelow, long pauseAbove, long closeAbove) {
        if (resumeBelow < 0 || pauseAbove < resumeBelow || closeAbove < pauseAbove) {
            throw new IllegalArgumentException("need 0 <= resumeBelow <= pauseAbove <= closeAbove, got "
                    + resumeBelow + ", " + pauseAbove + ", " + closeAbove);
        }
        this.server = server;
        this.pendingWhat = pendingWhat;
        this.resumeBelow = resumeBelow;
        this.pauseAbove = pauseAbove;
        this.closeAbove = closeAbove;
    }

    public long resumeBelow() {
        return resumeBelow;
    }

    public long pauseAbove() {
        return pauseAbove;
    }

    public long closeAbove() {
        return closeAbove;
    }

    /** The most any connection has had pending so far. */
    public long maxPending() {
        return maxPending.get();
    }

    /** How many times a connection's reads were paused so far. */
    public long pauses() {
        return pauses.sum();
    }

    /**
     * After the connection read (and queued or held) something, or became unwritable: closes it above the cap,
     * else pauses its reads above the pause mark or while it is not writable.
     *
     * @return false when the connection was closed
     */
    public boolean pauseIfFull(ChannelHandlerContext ctx, long pending) {
        maxPending.accumulate(pending);
        if (pending > closeAbove) {
            LOG.warn("{}: closing the connection from {}: {} {}, above the cap of {} per connection (the client"
                    + " sends and does not read the answers)", server, ctx.channel().remoteAddress(), pending,
                    pendingWhat, closeAbove);
            ctx.close();
            return false;
        }
        if ((pending > pauseAbove || !ctx.channel().isWritable()) && ctx.channel().config().isAutoRead()) {
            ctx.channel().config().setAutoRead(false);
            pauses.increment();
        }
        return true;
    }

    /** After pending fell or the channel became writable: reads again when pending is low and the channel writable. */
    public void resumeIfDrained(ChannelHandlerContext ctx, long pending) {
        if (!ctx.channel().config().isAutoRead() && ctx.channel().isWritable() && pending <= resumeBelow) {
            ctx.channel().config().setAutoRead(true);
        }
    }
}
