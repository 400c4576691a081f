package io.loadgen.core.findmax;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadgen.core.output.AtomicFile;
import io.loadgen.core.record.Histograms;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.Deflater;

/**
 * How the shards of a sharded findmax agree on each step: each writes its step's report (its counts and every
 * interval's judged histograms) atomically into a shared directory, {@code step-03-shard-1-of-2.json}, then waits,
 * bounded, for every other shard's report of the same step, reads them in shard order and hands them back, so every
 * shard judges the same merged step and moves to the same next rate. Main thread.
 */
public final class ShardSync {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final long POLL_MS = 20;

    private final Path dir;
    private final int index;
    private final int count;
    private final long waitMs;

    /**
     * One shard's step, as the others read it.
     *
     * @param shard     the shard's index
     * @param offered   the shard's part of the rate
     * @param threads   its threads
     * @param completed operations it completed after the warm-up
     * @param unissued  operations its schedule left unissued
     * @param inFlight  operations in flight at its end (async drivers)
     * @param runTimeNs its measured time
     * @param fault     the key of its diagnosis's primary cause when that blames the harness, else null
     * @param faultText that cause's sentence, else null
     * @param lengths   its measured intervals' lengths (s)
     * @param byTag     its intervals' judged histograms, by tag
     * @param watch     its harness's watch on itself over the step: its scheduler's lag and its machine's hiccups
     */
    public record Report(int shard, double offered, int threads, long completed, long unissued, long inFlight,
                         long runTimeNs, String fault, String faultText, List<Double> lengths,
                         Map<String, List<Histogram>> byTag, Watch watch) {
    }

    /**
     * A shard's harness watching itself over a step, so that the merged step shows every shard's lag and stalls and
     * a step that failed below capacity can be told from a machine that stalled. (Its JVM's GC pauses are in the
     * hiccups: the meter's thread stops at the same safepoints.)
     *
     * @param lag     its scheduler's lag (ns), or null when it did not measure one
     * @param hiccups its hiccup meter's stalls (ns, expected-interval corrected), or null
     */
    public record Watch(Histogram lag, Histogram hiccups) {
        /** A shard that reported no watch (its harness did not measure itself). */
        public static final Watch NONE = new Watch(null, null);
    }

    /**
     * @param waitMs how long to wait for the other shards' reports, at most
     */
    public ShardSync(Path dir, int index, int count, long waitMs) {
        this.dir = dir;
        this.index = index;
        this.count = count;
        this.waitMs = waitMs;
    }

    public int count() {
        return count;
    }

    public int index() {
        return index;
    }

    /** The report file of {@code shard}'s step {@code number}. */
    Path file(int number, int shard) {
        return dir.resolve(String.format(Locale.ROOT, "step-%02d-shard-%d-of-%d.json", number, shard, count));
    }

    /** Writes this shard's report of step {@code number}, atomically (a reader sees all of it or nothing). */
    public void publish(int number, Report r) throws IOException {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("shard", r.shard());
        n.put("offered", r.offered());
        n.put("threads", r.threads());
        n.put("completed", r.completed());
        n.put("unissued", r.unissued());
        n.put("in_flight", r.inFlight());
        n.put("run_time_ns", r.runTimeNs());
        n.put("fault", r.fault());
        n.put("fault_text", r.faultText());
        ArrayNode lengths = n.putArray("lengths");
        r.lengths().forEach(lengths::add);
        ObjectNode tags = n.putObject("intervals");
        for (Map.Entry<String, List<Histogram>> e : r.byTag().entrySet()) {
            ArrayNode list = tags.putArray(e.getKey());
            for (Histogram h : e.getValue()) {
                list.add(encode(h));
            }
        }
        ObjectNode watch = n.putObject("watch");
        watch.put("lag", r.watch().lag() == null ? null : encode(r.watch().lag()));
        watch.put("hiccups", r.watch().hiccups() == null ? null : encode(r.watch().hiccups()));
        AtomicFile.write(file(number, index), out -> MAPPER.writeValue(out, n));
    }

    /**
     * Every shard's report of step {@code number}, in shard order; null when some did not arrive within the wait
     * (then the shards can no longer agree, and the search stops).
     */
    public List<Report> awaitAll(int number) throws IOException, InterruptedException {
        long deadline = System.currentTimeMillis() + waitMs;
        while (true) {
            boolean all = true;
            for (int s = 0; s < count; s++) {
                all &= Files.exists(file(number, s));
            }
            if (all) {
                break;
            }
            if (System.currentTimeMillis() > deadline) {
                return null;
            }
            Thread.sleep(POLL_MS);
        }
        List<Report> reports = new ArrayList<>();
        for (int s = 0; s < count; s++) {
            reports.add(read(file(number, s)));
        }
        return reports;
    }

    private static Report read(Path file) throws IOException {
        JsonNode n = MAPPER.readTree(file.toFile());
        List<Double> lengths = new ArrayList<>();
        n.get("lengths").forEach(x -> lengths.add(x.asDouble()));
        Map<String, List<Histogram>> byTag = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : iterable(n.get("intervals"))) {
            List<Histogram> list = new ArrayList<>();
            for (JsonNode x : e.getValue()) {
                list.add(decode(file, x));
            }
            byTag.put(e.getKey(), list);
        }
        JsonNode w = n.path("watch");
        Watch watch = w.isObject() ? new Watch(decode(file, w.get("lag")), decode(file, w.get("hiccups"))) : Watch.NONE;
        return new Report(n.get("shard").asInt(), n.get("offered").asDouble(), n.get("threads").asInt(),
                n.get("completed").asLong(), n.get("unissued").asLong(), n.get("in_flight").asLong(),
                n.get("run_time_ns").asLong(), n.get("fault").isNull() ? null : n.get("fault").asText(),
                n.get("fault_text").isNull() ? null : n.get("fault_text").asText(), lengths, byTag, watch);
    }

    private static String encode(Histogram h) {
        ByteBuffer buf = ByteBuffer.allocate(h.getNeededByteBufferCapacity() + 64);
        int len = h.encodeIntoCompressedByteBuffer(buf, Deflater.BEST_SPEED);
        byte[] bytes = new byte[len];
        buf.flip();
        buf.get(bytes);
        return Base64.getEncoder().encodeToString(bytes);
    }

    /** A histogram {@link #encode} wrote, or null for a JSON null or a missing field. */
    private static Histogram decode(Path file, JsonNode x) throws IOException {
        if (x == null || x.isNull()) {
            return null;
        }
        try {
            return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(x.asText())),
                    Histograms.newHistogram().getHighestTrackableValue());
        } catch (java.util.zip.DataFormatException | IllegalArgumentException ex) {
            throw new IOException(file + ": a damaged histogram (" + ex.getMessage() + ")", ex);
        }
    }

    private static Iterable<Map.Entry<String, JsonNode>> iterable(JsonNode n) {
        return n::fields;
    }
}
