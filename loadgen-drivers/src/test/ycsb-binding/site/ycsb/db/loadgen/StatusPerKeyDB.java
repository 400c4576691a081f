package site.ycsb.db.loadgen;

import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.Status;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.Vector;

/**
 * A binding for loadgen's tests whose every call answers the status {@link #BY_KEY} names for its key number
 * ({@code user<n>}: entry n mod 12): each of YCSB's own constants, one the binding made itself with a YCSB name,
 * one with a name YCSB does not have, and none (null).
 */
public class StatusPerKeyDB extends DB {
    static final Status[] BY_KEY = {Status.OK, Status.ERROR, Status.NOT_FOUND, Status.NOT_IMPLEMENTED,
        Status.UNEXPECTED_STATE, Status.BAD_REQUEST, Status.FORBIDDEN, Status.SERVICE_UNAVAILABLE, Status.BATCHED_OK,
        new Status("NOT_FOUND", "made by the binding"), new Status("WEIRD", "a name YCSB does not have"), null};

    private static Status of(String key) {
        return BY_KEY[(int) (Long.parseLong(key.substring("user".length())) % BY_KEY.length)];
    }

    @Override
    public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
        return of(key);
    }

    @Override
    public Status scan(String table, String startkey, int recordcount, Set<String> fields,
                       Vector<HashMap<String, ByteIterator>> result) {
        return of(startkey);
    }

    @Override
    public Status update(String table, String key, Map<String, ByteIterator> values) {
        return of(key);
    }

    @Override
    public Status insert(String table, String key, Map<String, ByteIterator> values) {
        return of(key);
    }

    @Override
    public Status delete(String table, String key) {
        return of(key);
    }
}
