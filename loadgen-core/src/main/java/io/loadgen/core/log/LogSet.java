package io.loadgen.core.log;

import io.loadgen.core.BadInputException;
import io.loadgen.core.DamagedInputException;
import io.loadgen.core.output.OutputPaths;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.function.Consumer;

/**
 * One or more interval logs read as one, merged on absolute time: each log's own StartTime and
 * BaseTime place its lines on the epoch time line, and lines are handed out in order of absolute start
 * (a log's own lines keep their order). Logs from several processes or machines therefore combine
 * exactly: every histogram is passed through untouched, nothing is re-binned. One log is read exactly
 * as HdrHistogram's {@code HistogramLogReader} reads it. Streams: memory holds one line per log.
 * Confined to one thread.
 */
public final class LogSet implements AutoCloseable {
    private record Head(LogInterval interval, int file, long sequence) {
    }

    private static final Comparator<Head> ORDER = Comparator.comparingDouble((Head h) -> h.interval.absoluteStartSec())
            .thenComparingInt(Head::file)
            .thenComparingLong(Head::sequence);

    private final List<LogFile> files;
    private final int repeatedFiles;
    private final String repeated;
    private final PriorityQueue<Head> heads = new PriorityQueue<>(ORDER);
    private final double startTimeSec;
    private final ShardSet shards;
    private long sequence;

    private LogSet(List<LogFile> files, int repeatedFiles, String repeated) throws IOException {
        this.files = files;
        this.repeatedFiles = repeatedFiles;
        this.repeated = repeated;
        double start = Double.NaN;
        for (int i = 0; i < files.size(); i++) {
            LogFile f = files.get(i);
            f.readHeader();
            push(i);
            if (f.observedStartTime()) {
                start = Double.isNaN(start) ? f.startTimeSec() : Math.min(start, f.startTimeSec());
            }
        }
        this.startTimeSec = Double.isNaN(start) ? 0.0 : start;
        this.shards = ShardSet.of(headers());
    }

    /**
     * Opens the logs ({@code "-"} is standard input); gzip-compressed logs are recognised by content.
     * Problems that leave the rest readable (a corrupt line, a truncated last line) go to
     * {@code warnings}, one line each, naming the file and line.
     *
     * @throws BadInputException when a file is missing, unreadable, or not an interval log, or when the logs
     *                           mix shards of different runs with each other or with unsharded logs
     *                           ({@link ShardSet#of})
     */
    public static LogSet open(List<Path> paths, Consumer<String> warnings) throws IOException {
        return open(paths, warnings, false);
    }

    /**
     * {@link #open(List, Consumer)}, and when {@code allowMixed} is false, refuses logs of different runs: two
     * logs whose {@code #[run_id: ...]} lines differ ({@link io.loadgen.core.record.RunId}). Logs without one
     * (older, or another tool's) are of an unknown run and are merged with any.
     *
     * @throws DamagedInputException when the logs name different runs and {@code allowMixed} is false
     */
    public static LogSet open(List<Path> paths, Consumer<String> warnings, boolean allowMixed) throws IOException {
        if (paths.isEmpty()) {
            throw new BadInputException("no interval log given; name one or more logs written by 'loadgen run --hlog FILE'");
        }
        List<LogFile> files = new ArrayList<>();
        Repeats repeats = repeats(paths);
        try {
            for (Path p : paths) {
                files.add(LogFile.open(p, warnings));
            }
            LogSet set = new LogSet(files, repeats.count(), repeats.first());
            if (!allowMixed) {
                set.checkOneRun();
            }
            return set;
        } catch (IOException | RuntimeException e) {
            for (LogFile f : files) {
                f.close();
            }
            throw e;
        }
    }

    /**
     * The first of {@code paths} given twice, the same file or the same intervals under another name, as one
     * line naming both; empty when each is given once. For a tool that reads several logs without merging them.
     */
    public static String repeatedAmong(List<Path> paths) {
        return repeats(paths).first();
    }

    /** How many logs were given again, and the first as one line (empty when none). */
    private record Repeats(int count, String first) {
    }

    /**
     * The logs given more than once: the same file under two paths, or two files holding the same intervals (a
     * log and its gzip copy, a copy under another name). The caller reports them ({@link #repeated()}).
     */
    private static Repeats repeats(List<Path> paths) {
        String first = "";
        int count = 0;
        List<byte[]> digests = new ArrayList<>();
        for (int i = 0; i < paths.size(); i++) {
            Path p = paths.get(i);
            boolean stdin = p.toString().equals("-");
            byte[] digest = stdin || paths.size() < 2 || !Files.isRegularFile(p) ? null
                    : LogFile.intervalDigest(p);
            digests.add(digest);
            for (int j = 0; j < i; j++) {
                boolean sameFile = !stdin && OutputPaths.sameFile(p, paths.get(j));
                if (sameFile || (digest != null && digests.get(j) != null
                        && MessageDigest.isEqual(digest, digests.get(j)))) {
                    count++;
                    String line = p + (sameFile ? " is given twice (as " + paths.get(j) + ")"
                            : " holds the same intervals as " + paths.get(j) + " (one log under two names)")
                            + "; its intervals would count twice: give each log once";
                    first = first.isEmpty() ? line : first;
                    break;
                }
            }
        }
        return new Repeats(count, first);
    }

    /** @throws DamagedInputException naming two logs of different runs */
    private void checkOneRun() {
        String firstId = null;
        String firstName = null;
        for (LogFile f : files) {
            String id = f.runId();
            if (id == null) {
                continue;
            }
            if (firstId == null) {
                firstId = id;
                firstName = f.name();
            } else if (!id.equals(firstId)) {
                throw new DamagedInputException(f.name() + " is of run " + id + " but " + firstName + " of run "
                        + firstId + ": logs of different runs do not merge into one run's numbers; give one run's"
                        + " logs, or --allow-mixed to merge them anyway");
            }
        }
    }

    /**
     * The first log given twice, as one line naming both ({@code b.hlog.gz holds the same intervals as
     * a.hlog ...}); empty when each log is given once. Merged, its intervals would count twice.
     */
    public String repeated() {
        return repeated;
    }

    /**
     * The StartTime of the set, seconds since the epoch: the earliest StartTime among the logs (for one
     * log, its StartTime, or its first interval's timestamp when it states none). Times "relative to
     * the log's start" are relative to this.
     */
    public double startTimeSec() {
        return startTimeSec;
    }

    /**
     * The StartTime (epoch seconds) that {@code interval}'s time is relative to where {@code report
     * --start/--end} select lines: for one log, the StartTime that log had stated when the line was read
     * (HistogramLogProcessor's rule); for several, {@link #startTimeSec()}. A line's time in the range is
     * {@code interval.absoluteStartSec() - relativeToSec(interval)}.
     */
    public double relativeToSec(LogInterval interval) {
        return files.size() == 1 ? interval.fileStartTimeSec() : startTimeSec;
    }

    /**
     * The run's warm-up, ms after the StartTime, as the logs' run headers name it ({@link LogInterval#warmup()};
     * the longest, for several); 0 when none does.
     */
    public long warmupMs() {
        long most = 0;
        for (LogFile f : files) {
            most = Math.max(most, f.warmupMs());
        }
        return most;
    }

    /** How many logs are merged. */
    public int size() {
        return files.size();
    }

    /** The logs' names, in the order given. */
    public List<String> names() {
        List<String> names = new ArrayList<>(files.size());
        for (LogFile f : files) {
            names.add(f.name());
        }
        return names;
    }

    /** The comment lines of every log (without the leading {@code #}), read so far, log by log. */
    public List<String> comments() {
        List<String> all = new ArrayList<>();
        for (LogFile f : files) {
            all.addAll(f.comments());
        }
        return all;
    }

    /**
     * What was found wrong with the logs so far: complete once every line has been read with {@link #next()}
     * (and, for corrupt histograms, decoded).
     */
    public LogIntegrity integrity() {
        long corrupt = 0;
        long overlaps = 0;
        boolean torn = false;
        boolean cut = false;
        double held = 0.0;
        double planned = Double.NaN;
        double leastShare = Double.MAX_VALUE;
        for (LogFile f : files) {
            corrupt += f.corruptLines();
            overlaps += f.overlaps();
            torn |= f.tornTail();
            // A loadgen log that names its run ends with a closing line; one read to its end without it was cut.
            if (f.atEnd() && f.runId() != null && !f.ended()) {
                double share = Double.isNaN(f.plannedSec()) ? 0.0 : f.heldSec() / f.plannedSec();
                if (!cut || share < leastShare) {
                    held = f.heldSec();
                    planned = f.plannedSec();
                    leastShare = share;
                }
                cut = true;
            }
        }
        return new LogIntegrity(corrupt, overlaps, repeatedFiles, torn, cut, held, planned);
    }

    /**
     * The {@code #[event: ...]} lines of every log read so far (all of them once {@link #next} has returned
     * null), on the epoch time line, in order of start.
     */
    public List<LogEvent> events() {
        List<LogEvent> all = new ArrayList<>();
        for (LogFile f : files) {
            all.addAll(f.events());
        }
        all.sort(Comparator.comparingDouble(LogEvent::absoluteStartSec));
        return all;
    }

    /** Each log's {@code #[name: text]} header comments read so far (all of them once the set is open), log by log. */
    public List<LogHeader> headers() {
        List<LogHeader> headers = new ArrayList<>(files.size());
        for (LogFile f : files) {
            headers.add(LogHeader.of(f.name(), f.comments()));
        }
        return headers;
    }

    /**
     * The shards of a sharded run these logs are ({@link ShardSet#sharded()} false for unsharded logs); a
     * shard missing or given twice is its {@link ShardSet#problem()}, for the caller to report.
     */
    public ShardSet shards() {
        return shards;
    }

    /** The next interval line of any log and any tag, in absolute start order; null at the end. Not yet decoded. */
    public LogInterval next() throws IOException {
        Head head = heads.poll();
        if (head == null) {
            return null;
        }
        push(head.file);
        return head.interval;
    }

    private void push(int file) throws IOException {
        LogInterval next = files.get(file).next();
        if (next != null) {
            heads.add(new Head(next, file, sequence++));
        }
    }

    @Override
    public void close() {
        IOException first = null;
        for (LogFile f : files) {
            try {
                f.close();
            } catch (IOException e) {
                first = first == null ? e : first;
            }
        }
        if (first != null) {
            throw new UncheckedIOException(first);
        }
    }
}
