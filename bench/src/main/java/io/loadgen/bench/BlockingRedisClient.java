package io.loadgen.bench;

import org.HdrHistogram.Histogram;
import redis.clients.jedis.Jedis;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;

/**
 * A blocking Redis client, as YCSB's redis binding is: one thread per client, each with its own Jedis
 * connection, sending HGETALL of one key and waiting for the reply before it sends the next. Each call's
 * time (send to reply decoded, as YCSB measures) goes into the thread's HdrHistogram. This is the
 * "blocking client" that {@code bench/redis-vs-benchmark.sh} holds loadgen's service p99 against: the
 * latency a synchronous caller sees, with the same connection count and the same command.
 *
 * <p>All threads connect, run {@code warmup} seconds unrecorded, meet at a barrier and then record for
 * {@code seconds}. Prints one line: {@code ops_per_sec p50_us p99_us} (throughput over the recorded window,
 * percentiles of all threads' calls together).
 *
 * <p>Run: {@code java -cp bench/target/benchmarks.jar io.loadgen.bench.BlockingRedisClient HOST PORT KEY CLIENTS SECONDS WARMUP}.
 */
public final class BlockingRedisClient {
    private static final long HIGHEST_NS = 60_000_000_000L;

    private BlockingRedisClient() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 6) {
            System.err.println("usage: BlockingRedisClient HOST PORT KEY CLIENTS SECONDS WARMUP_SECONDS");
            System.exit(2);
        }
        String host = args[0];
        int port = Integer.parseInt(args[1]);
        String key = args[2];
        int clients = Integer.parseInt(args[3]);
        long measureNs = (long) (Double.parseDouble(args[4]) * 1e9);
        long warmupNs = (long) (Double.parseDouble(args[5]) * 1e9);

        CyclicBarrier connected = new CyclicBarrier(clients);
        CyclicBarrier warmed = new CyclicBarrier(clients);
        long[] counts = new long[clients];
        Histogram[] histograms = new Histogram[clients];
        List<Thread> threads = new ArrayList<>();
        Throwable[] failure = new Throwable[1];
        for (int i = 0; i < clients; i++) {
            int id = i;
            histograms[i] = new Histogram(HIGHEST_NS, 3);
            Thread t = new Thread(() -> {
                try (Jedis jedis = new Jedis(host, port)) {
                    jedis.ping();
                    connected.await();
                    long warmEnd = System.nanoTime() + warmupNs;
                    while (System.nanoTime() < warmEnd) {
                        jedis.hgetAll(key);
                    }
                    warmed.await();
                    Histogram h = histograms[id];
                    long end = System.nanoTime() + measureNs;
                    long n = 0;
                    long start;
                    while ((start = System.nanoTime()) < end) {
                        jedis.hgetAll(key);
                        h.recordValue(System.nanoTime() - start);
                        n++;
                    }
                    counts[id] = n;
                } catch (Throwable e) {
                    synchronized (failure) {
                        failure[0] = e;
                    }
                    connected.reset();
                    warmed.reset();
                }
            }, "blocking-client-" + i);
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        if (failure[0] != null) {
            System.err.println("BlockingRedisClient: " + failure[0]);
            System.exit(1);
        }
        Histogram all = new Histogram(HIGHEST_NS, 3);
        long total = 0;
        for (int i = 0; i < clients; i++) {
            all.add(histograms[i]);
            total += counts[i];
        }
        if (all.getTotalCount() != total) {
            throw new IllegalStateException("recorded " + all.getTotalCount() + " of " + total + " calls");
        }
        System.out.printf("%.0f %.0f %.0f%n", total / (measureNs / 1e9),
                all.getValueAtPercentile(50) / 1e3, all.getValueAtPercentile(99) / 1e3);
    }
}
