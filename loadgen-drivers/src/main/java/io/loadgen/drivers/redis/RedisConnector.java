package io.loadgen.drivers.redis;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;
import io.loadgen.core.BadInputException;

import java.net.SocketAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Opens the one Lettuce connection the {@code redis} driver uses, with the options that keep a run
 * moving when the server goes away. Called on the main thread when the driver opens.
 *
 * <ul>
 *   <li>Every command times out after {@code redis.timeout} ({@link TimeoutOptions}), so no operation
 *       waits longer than that for a server that has stopped answering.</li>
 *   <li>While the connection is down, new commands fail at once
 *       ({@link ClientOptions.DisconnectedBehavior#REJECT_COMMANDS}) instead of queueing in the client,
 *       where they would pile up unseen and then all arrive at the restarted server together.</li>
 *   <li>The connection reconnects by itself, trying again after 1, 2, 4 ... ms, at most
 *       {@value #MAX_RECONNECT_DELAY_MS} ms apart, so a server that comes back is used again within
 *       about that long.</li>
 * </ul>
 */
final class RedisConnector {
    /** Keys and field names are ASCII text; values are bytes. */
    static final RedisCodec<String, byte[]> CODEC = RedisCodec.of(StringCodec.ASCII, ByteArrayCodec.INSTANCE);

    static final long MAX_RECONNECT_DELAY_MS = 500;
    private static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(2);

    private RedisConnector() {
    }

    /**
     * Connects to {@code settings.uri()}.
     *
     * @throws BadInputException when the server cannot be reached, naming the URI and the fix
     */
    static Opened open(RedisSettings settings) {
        ClientResources resources = ClientResources.builder()
                .reconnectDelay(Delay.exponential(Duration.ofMillis(1), Duration.ofMillis(MAX_RECONNECT_DELAY_MS),
                        2, TimeUnit.MILLISECONDS))
                .build();
        RedisClient client = RedisClient.create(resources, settings.uri());
        client.setOptions(ClientOptions.builder()
                .autoReconnect(true)
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .timeoutOptions(TimeoutOptions.enabled(Duration.ofNanos(settings.timeoutNs())))
                .build());
        ConnectCounter connects = new ConnectCounter();
        client.addListener(connects);
        try {
            return new Opened(resources, client, client.connect(CODEC), connects);
        } catch (RedisConnectionException e) {
            shutdown(client, resources);
            throw new BadInputException("cannot connect to Redis at " + settings.uriText() + " (" + rootMessage(e)
                    + "); start redis-server there or point -p " + RedisSettings.URI + "=redis://HOST:PORT at one", e);
        } catch (RuntimeException e) {
            shutdown(client, resources);
            throw e;
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() != null ? root.getMessage() : root.getClass().getSimpleName();
    }

    private static void shutdown(RedisClient client, ClientResources resources) {
        client.shutdown(Duration.ZERO, SHUTDOWN_TIMEOUT);
        resources.shutdown(0, SHUTDOWN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).awaitUninterruptibly(
                SHUTDOWN_TIMEOUT.toMillis());
    }

    /** Counts connections made; Lettuce calls it on its I/O thread. */
    private static final class ConnectCounter implements RedisConnectionStateListener {
        private final AtomicLong connects = new AtomicLong();

        @Override
        public void onRedisConnected(RedisChannelHandler<?, ?> connection, SocketAddress socketAddress) {
            connects.incrementAndGet();
        }
    }

    /** An open connection and what it needs; closed once, by the driver. */
    static final class Opened implements AutoCloseable {
        private final ClientResources resources;
        private final RedisClient client;
        private final StatefulRedisConnection<String, byte[]> connection;
        private final ConnectCounter connects;

        private Opened(ClientResources resources, RedisClient client, StatefulRedisConnection<String, byte[]> connection,
                       ConnectCounter connects) {
            this.resources = resources;
            this.client = client;
            this.connection = connection;
            this.connects = connects;
        }

        StatefulRedisConnection<String, byte[]> connection() {
            return connection;
        }

        /** Connections made after the first. */
        long reconnects() {
            return Math.max(0, connects.connects.get() - 1);
        }

        @Override
        public void close() {
            connection.close();
            shutdown(client, resources);
        }
    }
}
