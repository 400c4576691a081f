package io.loadgen.core.gate;

import io.loadgen.core.BadInputException;
import io.loadgen.core.log.LogReport;
import io.loadgen.core.log.LogReportOptions;
import io.loadgen.core.log.LogSet;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.SplittableRandom;
import java.util.zip.DataFormatException;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Damaged interval logs, made by seeded random mutations of a good one: {@code report} and {@code gate} never
 * hang and never throw anything but a one-line {@link BadInputException}; every warning names its file and
 * line; and {@code gate} never passes the damage it promises to see. Those are: a flipped character in a
 * compressed histogram that changes it (HdrHistogram's payload is zlib data; a flip the decoder never reads,
 * in the checksum trailer, leaves the data as it was and may pass), an interval written twice or two swapped,
 * a huge or garbled line in the middle. Cutting the log short (what a killed run does) only
 * warns. A flipped digit in a timestamp or a tag cannot be told from real data by any reader of this format
 * and is not part of the promise.
 */
class LogFuzzTest {
    private static final int CASES = 300;
    private static final List<Rule> RULES = List.of(RuleParser.parse("READ.intended.p99 < 5ms"));

    @TempDir
    Path dir;

    private enum Mutation { FLIP_PAYLOAD, DUPLICATE, SWAP, HUGE_LINE, GARBAGE_LINE, TRUNCATE }

    @Test
    void damagedLogsNeverHangThrowOrPass() throws IOException {
        Path good = new TestLogs().seconds(0, 20, "READ.intended", 100, TestLogs.MS)
                .seconds(0, 20, "READ.service", 100, TestLogs.MS / 2).write(dir.resolve("good.hlog"));
        List<String> lines = Files.readAllLines(good);
        int firstInterval = (int) lines.stream().takeWhile(l -> !l.startsWith("Tag=")).count();
        SplittableRandom random = new SplittableRandom(20261123);
        for (int c = 0; c < CASES; c++) {
            Mutation m = Mutation.values()[c % Mutation.values().length];
            List<String> damaged = mutate(new ArrayList<>(lines), m, firstInterval, random);
            Path name = dir.resolve("case-" + c + ".hlog");
            Path file = m == Mutation.TRUNCATE
                    ? Files.writeString(name, damaged.get(0)) // cut: no line break after the last, torn line
                    : Files.write(name, damaged);
            String what = "case " + c + " (" + m + ")";
            List<String> warnings = new ArrayList<>();
            List<Verdict> verdicts = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> gate(file, warnings),
                    what + " hung");
            assertTimeoutPreemptively(Duration.ofSeconds(20), () -> report(file), what + " hung in report");
            for (String w : warnings) {
                assertTrue(w.startsWith(file + ":") || w.startsWith(file.toString()), what + ": " + w);
            }
            if (verdicts == null) {
                continue; // refused as bad input, with one line
            }
            if (m == Mutation.TRUNCATE) {
                assertFalse(Gate.inputDamaged(verdicts), what + ": a cut log is judged on what is left");
            } else if (m == Mutation.FLIP_PAYLOAD && !Gate.inputDamaged(verdicts)) {
                // HdrHistogram stops inflating once it has every count, so a flip in the zlib trailer (or in
                // length bytes it does not need) goes unseen: then the data must be exactly the original's.
                assertTrue(decodesTheSame(lines, damaged), what + " changed the data unseen: " + verdicts);
            } else {
                assertTrue(Gate.inputDamaged(verdicts), what + " passed as intact: " + verdicts + " " + warnings);
            }
        }
    }

    /** Whether every interval line of {@code damaged} decodes to the histogram of the same line of {@code original}. */
    private static boolean decodesTheSame(List<String> original, List<String> damaged) {
        for (int i = 0; i < original.size(); i++) {
            if (!original.get(i).equals(damaged.get(i))) {
                return decode(original.get(i)).equals(decode(damaged.get(i)));
            }
        }
        return true;
    }

    private static Histogram decode(String line) {
        byte[] bytes = Base64.getDecoder().decode(line.substring(line.lastIndexOf(',') + 1));
        try {
            return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(bytes), 0);
        } catch (DataFormatException e) {
            throw new AssertionError(e);
        }
    }

    private static List<Verdict> gate(Path file, List<String> warnings) throws IOException {
        try {
            return Gate.evaluate(List.of(file), TimeRange.ALL, RULES, null, null, warnings::add);
        } catch (BadInputException e) {
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
            return null;
        }
    }

    private static void report(Path file) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (LogSet set = LogSet.open(List.of(file), w -> { })) {
            new LogReport(new LogReportOptions(), new PrintStream(out), null).run(set);
        } catch (BadInputException e) {
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
        } catch (RuntimeException e) {
            fail("report threw " + e);
        }
    }

    /** One mutation of a line between the first interval line and the last one (the last line's damage is a cut). */
    private static List<String> mutate(List<String> lines, Mutation m, int first, SplittableRandom random) {
        int last = lines.size() - 1;
        int at = first + random.nextInt(last - first - 1); // never the last line
        switch (m) {
            case FLIP_PAYLOAD -> {
                String line = lines.get(at);
                int payload = line.lastIndexOf(',') + 1;
                int i = payload + random.nextInt(line.length() - payload);
                String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
                char c;
                do {
                    c = alphabet.charAt(random.nextInt(alphabet.length()));
                } while (c == line.charAt(i));
                lines.set(at, line.substring(0, i) + c + line.substring(i + 1));
            }
            case DUPLICATE -> lines.add(at + 1, lines.get(at));
            case SWAP -> {
                int other = at + 2; // the next interval of the same tag (two tags, alternating)
                if (other > last) {
                    other = at - 2;
                }
                String a = lines.get(at);
                lines.set(at, lines.get(other));
                lines.set(other, a);
            }
            case HUGE_LINE -> lines.add(at, "Tag=READ.intended,1.000,1.000,0.5," + "A".repeat(2_000_000));
            case GARBAGE_LINE -> lines.add(at, "this is not, an interval");
            case TRUNCATE -> {
                String text = String.join("\n", lines);
                int cut = text.length() - 1 - random.nextInt(lines.get(last).length() - 1);
                return List.of(text.substring(0, cut));
            }
        }
        return lines;
    }
}
