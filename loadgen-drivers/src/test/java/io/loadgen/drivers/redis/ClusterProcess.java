package io.loadgen.drivers.redis;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * A real Redis Cluster for tests: {@code redis-server} processes with {@code --cluster-enabled yes} on free
 * loopback ports (client and bus port), persistence off, joined by {@code redis-cli --cluster create}, with a
 * replica per master when asked. Never the machine's shared server. Used from one test thread; {@link #close}
 * stops every process and removes their directory.
 */
final class ClusterProcess implements AutoCloseable {
    private static final Path SERVER = Path.of("/usr/bin/redis-server");
    private static final Path CLI = Path.of("/usr/bin/redis-cli");
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(20);

    private final Path dir;
    /** Client port to process, in start order. */
    private final Map<Integer, Process> processes = new LinkedHashMap<>();
    /** For the test's own look at the nodes: one client, a connection per look. */
    private final RedisClient client = RedisClient.create();

    private ClusterProcess(Path dir) {
        this.dir = dir;
    }

    static boolean installed() {
        return Files.isExecutable(SERVER) && Files.isExecutable(CLI);
    }

    /**
     * Starts {@code masters} x (1 + {@code replicas}) nodes, creates the cluster and waits until every node says
     * {@code cluster_state:ok} and every replica has synced.
     *
     * @param nodeTimeoutMs {@code cluster-node-timeout}: how long a silent master has before a failover starts
     */
    static ClusterProcess start(int masters, int replicas, int nodeTimeoutMs) throws IOException, InterruptedException {
        if (!installed()) {
            throw new AssertionError(SERVER + " or " + CLI + " not found; the cluster tests need a real server:"
                    + " apt-get install redis-server redis-tools");
        }
        ClusterProcess cluster = new ClusterProcess(Files.createTempDirectory("loadgen-redis-cluster"));
        try {
            int nodes = masters * (1 + replicas);
            Set<Integer> taken = new HashSet<>();
            for (int i = 0; i < nodes; i++) {
                cluster.startNode(freePort(taken), freePort(taken), nodeTimeoutMs);
            }
            for (int port : cluster.processes.keySet()) {
                cluster.awaitPong(port);
            }
            List<String> create = new ArrayList<>(List.of(CLI.toString(), "--cluster", "create"));
            cluster.processes.keySet().forEach(port -> create.add("127.0.0.1:" + port));
            create.addAll(List.of("--cluster-replicas", Integer.toString(replicas), "--cluster-yes"));
            Process cli = new ProcessBuilder(create).redirectErrorStream(true).start();
            String output = new String(cli.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!cli.waitFor(READY_TIMEOUT.toSeconds(), TimeUnit.SECONDS) || cli.exitValue() != 0) {
                throw new AssertionError("redis-cli --cluster create failed: " + output);
            }
            cluster.awaitReady(nodes, masters);
            return cluster;
        } catch (IOException | InterruptedException | RuntimeException | AssertionError e) {
            cluster.close();
            throw e;
        }
    }

    /** A loopback port nothing listens on now, not among {@code taken}. */
    private static int freePort(Set<Integer> taken) throws IOException {
        while (true) {
            int port = RedisServerProcess.freePort();
            if (taken.add(port)) {
                return port;
            }
        }
    }

    private void startNode(int port, int busPort, int nodeTimeoutMs) throws IOException {
        Path nodeDir = Files.createDirectories(dir.resolve(Integer.toString(port)));
        File log = nodeDir.resolve("redis.log").toFile();
        Process process = new ProcessBuilder(List.of(SERVER.toString(), "--port", Integer.toString(port),
                "--cluster-port", Integer.toString(busPort), "--bind", "127.0.0.1", "--cluster-enabled", "yes",
                "--cluster-config-file", nodeDir.resolve("nodes.conf").toString(),
                "--cluster-node-timeout", Integer.toString(nodeTimeoutMs),
                "--cluster-replica-validity-factor", "0", "--repl-diskless-sync-delay", "0",
                "--save", "", "--appendonly", "no", "--dir", nodeDir.toString(), "--loglevel", "warning"))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log))
                .start();
        processes.put(port, process);
    }

    private void awaitPong(int port) throws InterruptedException {
        long deadlineNs = System.nanoTime() + READY_TIMEOUT.toNanos();
        RuntimeException last = null;
        while (System.nanoTime() - deadlineNs < 0) {
            if (!processes.get(port).isAlive()) {
                throw new AssertionError("redis-server on port " + port + " exited with " + processes.get(port).exitValue());
            }
            try {
                if ("PONG".equals(on(port, RedisCommands::ping))) {
                    return;
                }
            } catch (RuntimeException e) {
                last = e;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("redis-server on port " + port + " did not answer PING within " + READY_TIMEOUT, last);
    }

    /** Every node answers, agrees the cluster is ok with all nodes known, and every replica is in sync. */
    private void awaitReady(int nodes, int masters) throws InterruptedException {
        long deadlineNs = System.nanoTime() + READY_TIMEOUT.toNanos();
        String last = "";
        while (System.nanoTime() - deadlineNs < 0) {
            last = notReady(nodes, masters);
            if (last == null) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the cluster did not become ready within " + READY_TIMEOUT + ": " + last);
    }

    private String notReady(int nodes, int masters) {
        for (int port : processes.keySet()) {
            try {
                String why = on(port, redis -> {
                    String info = redis.clusterInfo();
                    if (!info.contains("cluster_state:ok") || !info.contains("cluster_known_nodes:" + nodes)
                            || !info.contains("cluster_size:" + masters)) {
                        return info;
                    }
                    String replication = redis.info("replication");
                    if (replication.contains("role:slave") && !replication.contains("master_link_status:up")) {
                        return replication;
                    }
                    return null;
                });
                if (why != null) {
                    return port + ": " + why.replaceAll("\\s+", " ");
                }
            } catch (RuntimeException e) {
                return port + ": " + e;
            }
        }
        return null;
    }

    /** Runs {@code action} on a fresh synchronous String connection to the node at {@code port}. */
    <T> T on(int port, Function<RedisCommands<String, String>, T> action) {
        try (StatefulRedisConnection<String, String> connection = client.connect(RedisURI.create("127.0.0.1", port))) {
            return action.apply(connection.sync());
        }
    }

    /** The seed to give the driver: the first node. */
    String uri() {
        return "redis://127.0.0.1:" + processes.keySet().iterator().next();
    }

    /** The masters now (as the first live node sees them): port to node id, ordered by port. */
    Map<Integer, String> masters() {
        int asked = processes.entrySet().stream().filter(e -> e.getValue().isAlive()).findFirst().orElseThrow().getKey();
        Map<Integer, String> masters = new LinkedHashMap<>();
        on(asked, redis -> redis.clusterNodes()).lines()
                .map(line -> line.split(" "))
                .filter(f -> f[2].contains("master") && !f[2].contains("fail"))
                .sorted(Comparator.comparingInt(f -> port(f[1])))
                .forEach(f -> masters.put(port(f[1]), f[0]));
        return masters;
    }

    /** The port of the master serving {@code slot} now. */
    int masterOf(int slot) {
        int asked = processes.entrySet().stream().filter(e -> e.getValue().isAlive()).findFirst().orElseThrow().getKey();
        for (String line : on(asked, redis -> redis.clusterNodes()).split("\n")) {
            String[] f = line.split(" ");
            if (!f[2].contains("master") || f[2].contains("fail")) {
                continue;
            }
            for (int i = 8; i < f.length; i++) {
                if (f[i].startsWith("[")) {
                    continue;
                }
                String[] range = f[i].split("-");
                int from = Integer.parseInt(range[0].trim());
                int to = range.length > 1 ? Integer.parseInt(range[1].trim()) : from;
                if (slot >= from && slot <= to) {
                    return port(f[1]);
                }
            }
        }
        throw new AssertionError("no master serves slot " + slot);
    }

    /** The port of the replica of the master at {@code masterPort}. */
    int replicaOf(int masterPort) {
        String id = masters().get(masterPort);
        return on(masterPort, redis -> redis.clusterNodes()).lines().map(line -> line.split(" "))
                .filter(f -> f[3].equals(id)).map(f -> port(f[1])).findFirst()
                .orElseThrow(() -> new AssertionError("master " + masterPort + " has no replica"));
    }

    private static int port(String address) {
        String hostPort = address.contains("@") ? address.substring(0, address.indexOf('@')) : address;
        return Integer.parseInt(hostPort.substring(hostPort.lastIndexOf(':') + 1));
    }

    /** Kills the node at {@code port} at once (SIGKILL), as a crash would, and waits for it to be gone. */
    void kill(int port) throws InterruptedException {
        Process process = processes.get(port);
        process.destroyForcibly();
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
            throw new AssertionError("redis-server on port " + port + " did not die");
        }
    }

    /** Stops every node (SIGTERM, then SIGKILL after 5 s) and removes the directory. */
    @Override
    public void close() {
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        for (Process process : processes.values()) {
            process.destroy();
        }
        for (Process process : processes.values()) {
            try {
                if (!process.waitFor(5, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temp dir left behind is harmless
        }
    }
}
