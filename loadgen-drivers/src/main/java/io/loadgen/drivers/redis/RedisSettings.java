package io.loadgen.drivers.redis;

import io.lettuce.core.RedisURI;
import io.loadgen.core.BadInputException;
import io.loadgen.core.Limits;
import io.loadgen.core.Secrets;
import io.loadgen.core.driver.DriverProperties;
import io.loadgen.core.driver.PropertySpec;

import java.time.Duration;
import java.util.List;

/**
 * The {@code redis} properties, declared, defaulted, parsed and checked in one place. Immutable;
 * built on the main thread when the driver opens.
 *
 * @param uri         the server, as Lettuce parses it (host, port, database, password)
 * @param uriText     the URI as the user gave it, for messages
 * @param timeoutNs   how long a command may take before its operation completes with {@code ERROR}
 * @param fieldCount  fields per record, {@code field0 .. field{n-1}}
 * @param fieldLength bytes per field value
 * @param scanLength  records a SCAN reads, from its start key on in index order
 * @param connections connections to open, or 0 for one per issuer thread
 * @param ioThreads   event loops (I/O threads) the connections share, or 0 for the default
 * @param connectTimeoutNs how long opening one connection may take, TCP connect and handshake together
 */
record RedisSettings(RedisURI uri, String uriText, long timeoutNs, int fieldCount, int fieldLength, int scanLength,
                     int connections, int ioThreads, long connectTimeoutNs) {
    static final String URI = "redis.uri";
    static final String TIMEOUT = "redis.timeout";
    static final String FIELD_COUNT = "redis.fieldcount";
    static final String FIELD_LENGTH = "redis.fieldlength";
    static final String SCAN_LENGTH = "redis.scanlength";
    static final String CONNECTIONS = "redis.connections";
    static final String IO_THREADS = "redis.iothreads";
    static final String CONNECT_TIMEOUT = "redis.connect.timeout";

    /** A record (fieldcount x fieldlength) larger than this is surely a typo; Redis itself allows 512 MB. */
    static final long MAX_RECORD_BYTES = 64L << 20;

    static final List<PropertySpec> SPECS = List.of(
            new PropertySpec(URI, "redis://127.0.0.1:6379", "the server, e.g. redis://HOST:PORT/DB or redis://:PASSWORD@HOST:PORT"),
            new PropertySpec(TIMEOUT, "1s", "command timeout; an operation still unanswered after it completes with TIMEOUT"),
            new PropertySpec(CONNECT_TIMEOUT, "5s", "how long opening each connection (TCP connect and handshake) may"
                    + " take before the run is refused: a server that accepts and never answers ends the run here"),
            new PropertySpec(FIELD_COUNT, "10", "fields per record (YCSB fieldcount)"),
            new PropertySpec(FIELD_LENGTH, "100", "bytes per field value (YCSB fieldlength)"),
            new PropertySpec(SCAN_LENGTH, "10", "records one SCAN reads (YCSB's scan length)"),
            new PropertySpec(CONNECTIONS, "0", "connections; 0 = one per thread (issuer i uses connection i mod N)"),
            new PropertySpec(IO_THREADS, "0", "event loops the connections share; 0 = as many as connections, at most"
                    + " one per core. Each issuer runs on its connection's loop"),
            new PropertySpec(DataTypeRequests.REQUESTS, "", "a YAML or JSON file of named commands on Redis's own data"
                    + " types instead of YCSB's operations: each 'name: GET_SESSION, command: GET|SET|INCR|LPUSH|RPUSH|"
                    + "LPOP|LRANGE|SADD|SREM|SMEMBERS|SISMEMBER|ZADD|ZRANGE|ZRANGEBYSCORE|ZINCRBY|HSET|HGET|HGETALL,"
                    + " key: {prefix, count, distribution: uniform|zipfian|sequential}, weight', with value: {size} or"
                    + " {min, max}, ttl, field, member ... as the command takes; each its own operation type and"
                    + " series, mixed by weight (docs/drivers/redis.md; a sample: workloads/redis-datatypes.yaml)"),
            new PropertySpec(DataTypeRequests.DATA_INTEGRITY, "false", "YCSB's dataintegrity for " + DataTypeRequests.REQUESTS
                    + ": values written carry their key and a version, and every value read (GET, HGET, HGETALL, LPOP,"
                    + " LRANGE) is checked; one the run did not write for its key completes as UNEXPECTED_STATE"),
            new PropertySpec(RedisCluster.PROPERTY, "false", "true: redis.uri names a node of a Redis Cluster; each"
                    + " command goes to the master serving its key's slot, following MOVED and ASK, each connection"
                    + " (redis.connections) being a connection to every master"));

    /**
     * Reads and checks the properties.
     *
     * @throws BadInputException naming the property and the fix
     */
    static RedisSettings from(DriverProperties properties) {
        String uriText = properties.getString(URI).trim();
        Duration timeout = properties.getDuration(TIMEOUT);
        if (timeout.isZero()) {
            throw new BadInputException("property " + TIMEOUT + " must be positive, e.g. 1s");
        }
        Duration connectTimeout = properties.getDuration(CONNECT_TIMEOUT);
        if (connectTimeout.isZero()) {
            throw new BadInputException("property " + CONNECT_TIMEOUT + " must be positive, e.g. 5s");
        }
        RedisSettings s = new RedisSettings(parseUri(uriText), uriText, timeout.toNanos(),
                positiveInt(properties, FIELD_COUNT), positiveInt(properties, FIELD_LENGTH),
                positiveInt(properties, SCAN_LENGTH), count(properties, CONNECTIONS), count(properties, IO_THREADS),
                connectTimeout.toNanos());
        if ((long) s.fieldCount * s.fieldLength > MAX_RECORD_BYTES) {
            throw new BadInputException(FIELD_COUNT + " x " + FIELD_LENGTH + " = " + (long) s.fieldCount * s.fieldLength
                    + " bytes per record, above " + MAX_RECORD_BYTES + "; use fewer or shorter fields");
        }
        return s;
    }

    private static RedisURI parseUri(String text) {
        checkQuery(text); // a BadInputException is an IllegalArgumentException too: not inside the try
        try {
            return RedisURI.create(text);
        } catch (IllegalArgumentException e) {
            throw new BadInputException("property " + URI + ": '" + Secrets.redact(Limits.quote(text))
                    + "' is not a Redis URI (" + Secrets.redact(Limits.quote(e.getMessage()))
                    + "); use e.g. redis://127.0.0.1:6379", e);
        }
    }

    /**
     * Checks the URI's query parameters, which Lettuce reads leniently: a value it cannot parse
     * ({@code ?timeout=banana}, {@code ?db=x}) or a name it does not know ({@code ?tiemout=}) is dropped without a
     * word, and the run would go on with something the user did not ask for. Lettuce's {@code timeout} is not
     * used at all (the driver times operations itself), so it is refused too, naming the properties that are.
     *
     * @throws BadInputException naming the parameter and the fix
     */
    private static void checkQuery(String text) {
        int q = text.indexOf('?');
        if (q < 0) {
            return;
        }
        int hash = text.indexOf('#', q);
        String query = text.substring(q + 1, hash < 0 ? text.length() : hash);
        for (String pair : query.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = eq < 0 ? pair : pair.substring(0, eq);
            String value = eq < 0 ? "" : pair.substring(eq + 1);
            String problem = switch (name.toLowerCase(java.util.Locale.ROOT)) {
                case "timeout" -> "is not used by loadgen, which times each operation itself; give -p " + TIMEOUT
                        + "=DURATION (per operation) or -p " + CONNECT_TIMEOUT + "=DURATION (opening) instead";
                case "database", "db" -> value.matches("[0-9]{1,9}") ? null
                        : "must be a database number from 0, e.g. ?db=1 (or redis://HOST:PORT/1)";
                case "verifypeer" -> value.matches("(?i)full|ca|none|true|false") ? null
                        : "must be FULL, CA or NONE (or true, false)";
                case "clientname", "libraryname", "libraryversion", "sentinelmasterid" -> value.isEmpty()
                        ? "needs a value" : null;
                default -> "is not a parameter a Redis URI has; it knows timeout, database (db), clientName,"
                        + " libraryName, libraryVersion, verifyPeer and sentinelMasterId";
            };
            if (problem != null) {
                throw new BadInputException("property " + URI + ": '" + Limits.quote(Secrets.redact(pair))
                        + "' in '" + Secrets.redact(Limits.quote(text)) + "' " + problem);
            }
        }
    }

    /** Connections for a run of {@code threads} issuers. */
    int connectionsFor(int threads) {
        return connections > 0 ? connections : threads;
    }

    /** Event loops for {@code connections} connections: never more than connections. */
    int ioThreadsFor(int connections) {
        int wanted = ioThreads > 0 ? ioThreads : Runtime.getRuntime().availableProcessors();
        return Math.max(1, Math.min(wanted, connections));
    }

    private static int count(DriverProperties properties, String key) {
        long v = properties.getLong(key);
        if (v < 0 || v > 4096) {
            throw new BadInputException("property " + key + " must be a whole number from 0 (the default) to 4096: " + v);
        }
        return (int) v;
    }

    private static int positiveInt(DriverProperties properties, String key) {
        long v = properties.getLong(key);
        if (v < 1 || v > Integer.MAX_VALUE) {
            throw new BadInputException("property " + key + " must be a positive whole number: " + v);
        }
        return (int) v;
    }
}
