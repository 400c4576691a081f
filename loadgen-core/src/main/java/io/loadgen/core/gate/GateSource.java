package io.loadgen.core.gate;

import io.loadgen.core.BadInputException;
import io.loadgen.core.log.LogIntegrity;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.zip.GZIPInputStream;

/**
 * What a gate reads: one JSON summary, or one or more interval logs merged on time; told apart by
 * content (plain or gzip-compressed). Each checks, before reading, that it can judge a rule, and
 * judges them all in one read. One thread.
 */
abstract class GateSource {
    /** The outcome of judging the rules on a source, and the measurements of its whole (range). */
    record Evaluation(List<Verdict> verdicts, Measurements whole) {
    }

    /** Names the source in messages: the file, or the files joined with {@code +}. */
    abstract String name();

    /** @throws BadInputException naming the rule, when this kind of source cannot judge it */
    abstract void check(Rule rule);

    /** Judges the rules (after {@link #check}ing each). */
    abstract Evaluation evaluate(List<Rule> rules) throws IOException;

    /**
     * Opens the files as a JSON summary or as interval logs.
     *
     * @throws BadInputException for a missing file, a file of neither kind, a mix of kinds, several
     *                           JSON summaries, or a time range on a JSON summary
     */
    static GateSource open(List<Path> files, TimeRange range, Consumer<String> warnings) {
        return open(files, range, warnings, InputPolicy.STRICT);
    }

    /** {@link #open(List, TimeRange, Consumer)} under {@code policy}. */
    static GateSource open(List<Path> files, TimeRange range, Consumer<String> warnings, InputPolicy policy) {
        if (files.isEmpty()) {
            throw new BadInputException("no file to gate; give a JSON summary (loadgen run --json FILE) or"
                    + " interval logs (loadgen run --hlog FILE)");
        }
        List<Path> json = new ArrayList<>();
        List<Path> logs = new ArrayList<>();
        for (Path f : files) {
            (isJson(f) ? json : logs).add(f);
        }
        if (!json.isEmpty() && !logs.isEmpty()) {
            throw new BadInputException(json.get(0) + " is a JSON summary and " + logs.get(0) + " an interval log;"
                    + " gate on one kind at a time");
        }
        if (json.size() > 1) {
            throw new BadInputException("give one JSON summary (got " + json.size() + "); to judge several runs"
                    + " together, gate on their interval logs, which merge");
        }
        if (!json.isEmpty()) {
            if (!range.isAll()) {
                throw new BadInputException("--start and --end select a time range of an interval log; "
                        + json.get(0) + " is a JSON summary of the whole run");
            }
            return JsonSource.read(json.get(0), policy);
        }
        return new LogSource(logs, range, warnings, policy);
    }

    /**
     * The verdicts of {@code rule} on data that holds only part of the run ({@code integrity} cut): a rule on
     * the whole run's count or throughput fails, saying how much the data holds, unless {@code allowPartial};
     * latency rules and windowed rules (each window is whole) judge what is there.
     */
    static List<Verdict> onPartial(Rule rule, List<Verdict> verdicts, LogIntegrity integrity,
                                   boolean allowPartial) {
        if (integrity == null || !integrity.cut() || allowPartial || rule.windowed() || !countsTheRun(rule)) {
            return verdicts;
        }
        List<Verdict> failed = new ArrayList<>();
        for (Verdict v : verdicts) {
            failed.add(new Verdict(v.rule(), v.observed() + " but partial: " + integrity.describePartial(),
                    v.limit() + " of the whole run (--allow-partial: of what it holds)", false));
        }
        return failed;
    }

    /** Whether a rule judges an amount that grows with the run's length: a count, a throughput, errors counted. */
    private static boolean countsTheRun(Rule rule) {
        Metric m = rule.metric();
        return m.kind() == Metric.Kind.THROUGHPUT
                || (m.kind() == Metric.Kind.LATENCY && m.stat() != null && m.stat().kind() == Stat.Kind.COUNT)
                || (m.kind() == Metric.Kind.ERRORS && rule.limit().unit() == Limit.Unit.COUNT);
    }

    /**
     * A JSON summary starts with {@code &#123;}; an interval log with a comment, the legend, a tag or a
     * timestamp. Anything else is neither.
     */
    static boolean isJson(Path file) {
        int c = firstCharacter(file);
        if (c == '{') {
            return true;
        }
        if (c == '#' || c == '"' || c == 'T' || (c >= '0' && c <= '9')) {
            return false;
        }
        throw new BadInputException(file + " is neither a JSON summary (loadgen run --json FILE) nor an interval"
                + " log (loadgen run --hlog FILE)" + (c < 0 ? ": it is empty" : ""));
    }

    /** The first character past whitespace and a byte-order mark, reading through gzip; -1 when empty. */
    private static int firstCharacter(Path file) {
        try (InputStream in = open(file)) {
            int c;
            do {
                c = in.read();
            } while (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == 0xEF || c == 0xBB || c == 0xBF);
            return c;
        } catch (NoSuchFileException e) {
            throw new BadInputException(file + ": no such file; give a JSON summary (loadgen run --json FILE)"
                    + " or an interval log (loadgen run --hlog FILE)");
        } catch (IOException e) {
            throw new BadInputException("cannot read " + file + " (" + e.getMessage() + ")", e);
        }
    }

    /** The file's content, decompressed when it is gzip (magic 1f 8b). */
    static InputStream open(Path file) throws IOException {
        BufferedInputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16);
        in.mark(2);
        int b0 = in.read();
        int b1 = in.read();
        in.reset();
        return b0 == 0x1f && b1 == 0x8b ? new GZIPInputStream(in, 1 << 16) : in;
    }
}
