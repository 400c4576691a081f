package site.ycsb.db.loadgen;

import redis.clients.jedis.Jedis;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;

/**
 * A YCSB binding written for loadgen's tests, as a YCSB user's own binding would be: compiled at test time against
 * YCSB's core jar and Jedis only (loadgen-drivers/src/test/ycsb-binding is no Maven source folder), and run by the
 * ycsb driver from a jar in a "binding folder". It lays records out as YCSB's Redis binding and loadgen's redis
 * driver do (a hash per key, and a sorted set {@code _indices} scored by the key's hash for SCAN), so a run through
 * it compares with the redis driver's. One Jedis connection per DB instance, i.e. per thread. Properties:
 * {@code redis.host} (127.0.0.1), {@code redis.port} (6379).
 */
public class JedisHashClient extends DB {
    static final String INDEX_KEY = "_indices";

    private Jedis jedis;

    @Override
    public void init() throws DBException {
        Properties props = getProperties();
        String host = props.getProperty("redis.host", "127.0.0.1");
        int port = Integer.parseInt(props.getProperty("redis.port", "6379"));
        try {
            jedis = new Jedis(host, port);
            jedis.connect();
        } catch (RuntimeException e) {
            throw new DBException("cannot connect to Redis at " + host + ":" + port, e);
        }
    }

    @Override
    public void cleanup() throws DBException {
        if (jedis != null) {
            jedis.close();
        }
    }

    @Override
    public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
        if (fields == null) {
            Map<String, String> all = jedis.hgetAll(key);
            StringByteIterator.putAllAsByteIterators(result, all);
        } else {
            String[] names = fields.toArray(new String[0]);
            List<String> values = jedis.hmget(key, names);
            for (int i = 0; i < names.length; i++) {
                if (values.get(i) != null) {
                    result.put(names[i], new StringByteIterator(values.get(i)));
                }
            }
        }
        return result.isEmpty() ? Status.NOT_FOUND : Status.OK;
    }

    @Override
    public Status scan(String table, String startkey, int recordcount, Set<String> fields,
                       Vector<HashMap<String, ByteIterator>> result) {
        List<String> keys = jedis.zrangeByScore(INDEX_KEY, startkey.hashCode(), Double.POSITIVE_INFINITY, 0, recordcount);
        for (String key : keys) {
            HashMap<String, ByteIterator> values = new HashMap<>();
            read(table, key, fields, values);
            result.add(values);
        }
        return Status.OK;
    }

    @Override
    public Status update(String table, String key, Map<String, ByteIterator> values) {
        jedis.hset(key, StringByteIterator.getStringMap(values));
        return Status.OK;
    }

    @Override
    public Status insert(String table, String key, Map<String, ByteIterator> values) {
        jedis.hset(key, StringByteIterator.getStringMap(values));
        jedis.zadd(INDEX_KEY, key.hashCode(), key);
        return Status.OK;
    }

    @Override
    public Status delete(String table, String key) {
        long deleted = jedis.del(key);
        jedis.zrem(INDEX_KEY, key);
        return deleted == 0 ? Status.NOT_FOUND : Status.OK;
    }
}
