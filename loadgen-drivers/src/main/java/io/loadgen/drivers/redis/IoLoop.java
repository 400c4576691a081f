package io.loadgen.drivers.redis;

import io.lettuce.core.resource.EventLoopGroupProvider;
import io.lettuce.core.resource.Transports;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutorGroup;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.SucceededFuture;
import io.netty.util.concurrent.GlobalEventExecutor;

import java.util.concurrent.TimeUnit;

/**
 * One Netty event loop, handed to Lettuce as the whole of a client's I/O threads, so every connection
 * that client opens lives on this one known loop. The {@code redis} driver runs the issuers of those
 * connections on it ({@code AsyncDriver#issuerExecutor}): a command is written and its reply read on the
 * thread that issued it. Created and shut down on the main thread; Lettuce calls the provider methods.
 */
final class IoLoop implements EventLoopGroupProvider {
    private final EventLoopGroup group;
    private final EventLoop loop;

    IoLoop(int index) {
        DefaultThreadFactory threads = new DefaultThreadFactory("loadgen-redis-io-" + index, true);
        this.group = Transports.eventLoopGroupClass() == EpollEventLoopGroup.class
                ? new EpollEventLoopGroup(1, threads) : new NioEventLoopGroup(1, threads);
        this.loop = group.next();
    }

    /** The loop every connection of this provider's client is registered on. */
    EventLoop loop() {
        return loop;
    }

    @Override
    public <T extends EventLoopGroup> T allocate(Class<T> type) {
        if (!type.isInstance(group)) {
            throw new IllegalStateException("Lettuce asked for a " + type.getName() + "; this loop is a "
                    + group.getClass().getName());
        }
        return type.cast(group);
    }

    @Override
    public int threadPoolSize() {
        return 1;
    }

    /** The group outlives the client; {@link #close} ends it. */
    @Override
    public Future<Boolean> release(EventExecutorGroup eventLoopGroup, long quietPeriod, long timeout, TimeUnit unit) {
        return new SucceededFuture<>(GlobalEventExecutor.INSTANCE, true);
    }

    @Override
    public Future<Boolean> shutdown(long quietPeriod, long timeout, TimeUnit unit) {
        return new SucceededFuture<>(GlobalEventExecutor.INSTANCE, true);
    }

    /** Ends the loop's thread, waiting at most {@code timeoutMs}. */
    void close(long timeoutMs) {
        group.shutdownGracefully(0, timeoutMs, TimeUnit.MILLISECONDS).awaitUninterruptibly(timeoutMs);
    }
}
