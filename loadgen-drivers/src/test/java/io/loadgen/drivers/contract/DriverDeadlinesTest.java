package io.loadgen.drivers.contract;

import io.loadgen.core.BadInputException;
import io.loadgen.core.driver.Driver;
import io.loadgen.core.driver.DriverContext;
import io.loadgen.core.driver.DriverProperties;
import io.loadgen.core.driver.DriverProvider;
import io.loadgen.core.driver.DriverRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One contract for every driver: its open, warm-up and close each end within a bound, even against a target
 * that accepts connections and never answers (a frozen server), so a run always ends. Network drivers are
 * pointed at such a listener of the test's own on loopback; the others run as they are.
 *
 * <p>The bounds, each a driver's own documented deadline plus 2 s of slack for a loaded 2-core machine:
 * <ul>
 * <li>open: the driver's connect deadline. ping and http: a TCP connect of 3 s (awaited at most 6 s); redis:
 *     redis.connect.timeout, set here to 1 s (its default is 5 s) to keep the test short; memcached:
 *     memcached.connect.timeout, also 1 s. Bound: 8 s.</li>
 * <li>warm-up: the budget the run gives it (LoadRun's 1 s) plus the driver's request timeout it may wait out for
 *     a request already sent (1 s, the ping and http defaults). Bound: 4 s.</li>
 * <li>close: the driver's own shutdown deadline (Netty's graceful shutdown, at most 2 s where a driver has
 *     one). Bound: 5 s.</li>
 * </ul>
 * A driver may refuse to open (a BadInputException naming the server): that ends the run too, and is allowed.
 */
class DriverDeadlinesTest {
    private static final long OPEN_BOUND_MS = 8_000;
    private static final long WARM_UP_BUDGET_NS = TimeUnit.SECONDS.toNanos(1);
    private static final long WARM_UP_BOUND_MS = 4_000;
    private static final long CLOSE_BOUND_MS = 5_000;

    private static ServerSocket silent;
    private static final List<Socket> held = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void listenAndNeverAnswer() throws IOException {
        silent = new ServerSocket(0, 100, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(() -> {
            try {
                while (true) {
                    held.add(silent.accept()); // held open; nothing is read or written
                }
            } catch (IOException closed) {
                // the tests are over
            }
        }, "silent-acceptor");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    @AfterAll
    static void stop() throws IOException {
        silent.close();
        for (Socket s : held) {
            s.close();
        }
    }

    static List<String> drivers() {
        List<String> names = new ArrayList<>();
        for (DriverProvider p : DriverRegistry.all()) {
            names.add(p.name());
        }
        return names;
    }

    /** The properties that point a network driver at the silent listener; none for the others. */
    private static Map<String, String> pointedAtTheSilentListener(String driver) {
        int port = silent.getLocalPort();
        return switch (driver) {
            case "ping" -> Map.of("ping.port", Integer.toString(port));
            case "http" -> Map.of("http.url", "http://127.0.0.1:" + port + "/");
            case "redis" -> Map.of("redis.uri", "redis://127.0.0.1:" + port, "redis.connect.timeout", "1s");
            case "memcached" -> Map.of("memcached.uri", "memcached://127.0.0.1:" + port,
                    "memcached.connect.timeout", "1s");
            default -> Map.of();
        };
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("drivers")
    void openWarmUpAndCloseEachEndWithinABoundAgainstATargetThatNeverAnswers(String name) throws Exception {
        DriverProvider provider = DriverRegistry.find(name);
        Map<String, String> given = pointedAtTheSilentListener(name);
        long startNs = System.nanoTime();
        Driver driver;
        try {
            driver = provider.open(DriverProperties.of(name, provider.properties(), given), new DriverContext(1, 1L));
        } catch (BadInputException refused) {
            long openMs = msSince(startNs);
            assertTrue(openMs < OPEN_BOUND_MS, name + " refused to open after " + openMs + " ms: " + refused.getMessage());
            return;
        }
        long openMs = msSince(startNs);
        assertTrue(openMs < OPEN_BOUND_MS, name + " opened after " + openMs + " ms");
        try {
            long warmStartNs = System.nanoTime();
            driver.warmUp(WARM_UP_BUDGET_NS);
            long warmMs = msSince(warmStartNs);
            assertTrue(warmMs < WARM_UP_BOUND_MS, name + " warmed up for " + warmMs + " ms of a 1 s budget");
        } finally {
            long closeStartNs = System.nanoTime();
            driver.close();
            long closeMs = msSince(closeStartNs);
            assertTrue(closeMs < CLOSE_BOUND_MS, name + " closed after " + closeMs + " ms");
        }
    }

    private static long msSince(long startNs) {
        return (System.nanoTime() - startNs) / 1_000_000;
    }
}
