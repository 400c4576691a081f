package io.loadgen.core.log;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadgen.core.BadInputException;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which shards of one sharded run a set of logs holds, from each log's {@code #[shard: index=I count=N
 * start_at=EPOCH_MS]} header line ({@code start_at} is {@code -} when the run had none). The logs must be
 * all shards of one run (the same count and start) or none; a shard missing or given twice is a
 * {@link #problem()}, which the caller reports: merged silently, it would make a partial run look whole or
 * count one shard twice. Immutable.
 *
 * @param count      the shards of the run; 0 when the logs are not shard logs
 * @param startAtMs  the run's common start, epoch ms; null when it had none (or the logs are unsharded)
 * @param sources    for each shard index present, the logs that claim it, in order given
 */
public record ShardSet(int count, Long startAtMs, Map<Integer, List<String>> sources) {
    /** The header line's name. */
    public static final String HEADER = "shard";

    public ShardSet {
        sources = Map.copyOf(sources);
    }

    /**
     * The shard lines of {@code headers} (one per log), checked for belonging to one run.
     *
     * @throws BadInputException when sharded and unsharded logs are mixed, the logs come from runs of
     *                           different shard counts or starts, or a shard line cannot be read
     */
    public static ShardSet of(List<LogHeader> headers) {
        Map<Integer, List<String>> sources = new TreeMap<>();
        int count = 0;
        String startAt = null;
        String first = null;
        List<String> unsharded = new ArrayList<>();
        for (LogHeader h : headers) {
            String line = h.value(HEADER).orElse(null);
            if (line == null) {
                unsharded.add(h.source());
                continue;
            }
            Map<String, String> kv = LogHeader.keyValues(line);
            int index = number(kv.get("index"), h, line);
            int n = number(kv.get("count"), h, line);
            String at = kv.getOrDefault("start_at", "-");
            if (n < 1 || index >= n) {
                throw malformed(h, line);
            }
            if (first == null) {
                first = h.source();
                count = n;
                startAt = at;
            } else if (n != count || !at.equals(startAt)) {
                throw new BadInputException(h.source() + " is shard " + index + " of " + n + " starting at " + at
                        + ", but " + first + " is of " + count + " shards starting at " + startAt
                        + ": merge only the logs of one sharded run");
            }
            sources.computeIfAbsent(index, k -> new ArrayList<>()).add(h.source());
        }
        if (first == null) {
            return new ShardSet(0, null, Map.of());
        }
        if (!unsharded.isEmpty()) {
            throw new BadInputException(unsharded.get(0) + " is not a shard log but " + first + " is: merge the"
                    + " shard logs of one run alone (an unsharded run's log is a whole run of its own)");
        }
        return new ShardSet(count, startAt.equals("-") ? null : startAtMs(startAt, first), sources);
    }

    private static int number(String text, LogHeader h, String line) {
        try {
            return Integer.parseInt(text == null ? "" : text);
        } catch (NumberFormatException e) {
            throw malformed(h, line);
        }
    }

    private static long startAtMs(String text, String source) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new BadInputException(source + ": the shard line's start_at '" + text + "' is not epoch ms;"
                    + " give the logs as loadgen run --shard wrote them");
        }
    }

    private static BadInputException malformed(LogHeader h, String line) {
        return new BadInputException(h.source() + ": the shard line '" + line + "' is not 'index=I count=N"
                + " start_at=MS' with 0 <= I < N; give the logs as loadgen run --shard wrote them");
    }

    /** Whether the logs are shard logs. */
    public boolean sharded() {
        return count > 0;
    }

    /** The shard indexes no log holds, in order. */
    public List<Integer> missing() {
        List<Integer> missing = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            if (!sources.containsKey(i)) {
                missing.add(i);
            }
        }
        return missing;
    }

    /**
     * What makes the merge not the whole run, one line: shards missing, shards given more than once (and by
     * which logs); empty when every shard is there once, or the logs are unsharded.
     */
    public String problem() {
        List<String> parts = new ArrayList<>();
        List<Integer> missing = missing();
        if (!missing.isEmpty()) {
            parts.add((missing.size() == 1 ? "shard " : "shards ") + ranges(missing) + " of " + count + " missing");
        }
        new TreeMap<>(sources).forEach((index, logs) -> {
            if (logs.size() > 1) {
                parts.add("shard " + index + " given " + logs.size() + " times (" + String.join(", ", logs) + ")");
            }
        });
        return String.join("; ", parts);
    }

    /** What was merged, for people: {@code 4 shard logs (0-3 of 4)}; empty for unsharded logs. */
    public String describe() {
        if (!sharded()) {
            return "";
        }
        int logs = sources.values().stream().mapToInt(List::size).sum();
        return logs + " shard log" + (logs == 1 ? "" : "s") + " (" + ranges(new ArrayList<>(new TreeMap<>(sources)
                .keySet())) + " of " + count + ")";
    }

    /**
     * What was merged, for the JSON summary: {@code {"count": N, "start_at": ISO or null, "merged": [...],
     * "missing": [...]}}.
     */
    public ObjectNode toJson() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("count", count);
        if (startAtMs == null) {
            node.putNull("start_at");
        } else {
            node.put("start_at", Instant.ofEpochMilli(startAtMs).toString());
        }
        new TreeMap<>(sources).keySet().forEach(node.putArray("merged")::add);
        missing().forEach(node.putArray("missing")::add);
        return node;
    }

    /** Indexes as runs: {@code 0-3}, {@code 0-1, 3}. */
    private static String ranges(List<Integer> sorted) {
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < sorted.size(); ) {
            int j = i;
            while (j + 1 < sorted.size() && sorted.get(j + 1) == sorted.get(j) + 1) {
                j++;
            }
            parts.add(j == i ? String.valueOf(sorted.get(i)) : sorted.get(i) + "-" + sorted.get(j));
            i = j + 1;
        }
        return String.join(", ", parts);
    }
}
