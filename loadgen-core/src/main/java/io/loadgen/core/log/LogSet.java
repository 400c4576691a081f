package io.loadgen.core.log;

import io.loadgen.core.BadInputException;
import io.loadgen.core.output.OutputPaths;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
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
    private final PriorityQueue<Head> heads = new PriorityQueue<>(ORDER);
    private final double startTimeSec;
    private final ShardSet shards;
    private long sequence;

    private LogSet(List<LogFile> files, int repeatedFiles) throws IOException {
        this.files = files;
        this.repeatedFiles = repeatedFiles;
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
        if (paths.isEmpty()) {
            throw new BadInputException("no interval log given; name one or more logs written by 'loadgen run --hlog FILE'");
        }
        List<LogFile> files = new ArrayList<>();
        int repeated = 0;
        for (int i = 0; i < paths.size(); i++) {
            for (int j = 0; j < i; j++) {
                if (!paths.get(i).toString().equals("-") && OutputPaths.sameFile(paths.get(i), paths.get(j))) {
                    repeated++;
                    warnings.accept(paths.get(i) + " is given twice (as " + paths.get(j) + "); its intervals would"
                            + " count twice: give each log once");
                    break;
                }
            }
        }
        try {
            for (Path p : paths) {
                files.add(LogFile.open(p, warnings));
            }
            return new LogSet(files, repeated);
        } catch (IOException | RuntimeException e) {
            for (LogFile f : files) {
                f.close();
            }
            throw e;
        }
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
        for (LogFile f : files) {
            corrupt += f.corruptLines();
            overlaps += f.overlaps();
            torn |= f.tornTail();
        }
        return new LogIntegrity(corrupt, overlaps, repeatedFiles, torn);
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
