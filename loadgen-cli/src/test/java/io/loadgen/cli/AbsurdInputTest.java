package io.loadgen.cli;

import io.loadgen.core.Limits;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Values that cannot be meant or held, damaged or empty logs, secrets and huge values (issue 12, items 6
 * to 11): each is bad input, refused in one line that names the limit or the problem and the fix, with exit
 * code 2, no stack trace, nothing on stdout, no output file written, and no secret echoed. As
 * {@link BadInputTest}, for the inputs behind those items.
 */
class AbsurdInputTest {
    /** A password that must never appear in any output. */
    private static final String SECRET = "hunter2";
    private static final String HUGE = "x".repeat(5_000_000);

    @TempDir
    static Path dir;

    /** Logs and files the cases read: a real log, empty, header-only, a gzip cut short, a Latin-1 workload. */
    @BeforeAll
    static void inputs() throws IOException {
        Path log = dir.resolve("run.hlog");
        Cli run = Cli.run("run", "--driver", "noop", "--target", "1000", "--duration", "1s", "-q", "--hlog", log.toString());
        assertEquals(0, run.exitCode, run.err);
        Files.createDirectories(dir.resolve("out"));
        Files.createFile(dir.resolve("empty.hlog"));
        List<String> header = headerLines(log);
        Files.write(dir.resolve("header-only.hlog"), header);
        byte[] whole;
        try (var bytes = new java.io.ByteArrayOutputStream(); OutputStream gz = new GZIPOutputStream(bytes)) {
            gz.write(String.join("\n", header).getBytes(StandardCharsets.UTF_8));
            gz.write('\n');
            gz.flush();
            gz.close();
            whole = bytes.toByteArray();
        }
        Files.write(dir.resolve("cut.hlog.gz"), Arrays.copyOf(whole, whole.length - 12)); // no trailer: cut short
        Files.write(dir.resolve("latin1.properties"),
                "recordcount=zehn\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));
    }

    /** An interval log's header: its comment lines and the column legend, without any interval. */
    static List<String> headerLines(Path log) throws IOException {
        List<String> header = new ArrayList<>();
        for (String line : Files.readAllLines(log)) {
            if (line.startsWith("#") || line.startsWith("\"")) {
                header.add(line);
            }
        }
        return header;
    }

    private static Path out(String name) {
        return dir.resolve("out").resolve(name);
    }

    private static String[] run(String... args) {
        List<String> a = new ArrayList<>(List.of("run", "-q", "--hlog", out("x.hlog").toString(),
                "--json", out("x.json").toString()));
        a.addAll(List.of(args));
        return a.toArray(new String[0]);
    }

    private static String[] report(String log, String... args) {
        List<String> a = new ArrayList<>(List.of("report", "-i", dir.resolve(log).toString(), "-o", out("r").toString()));
        a.addAll(List.of(args));
        return a.toArray(new String[0]);
    }

    static Stream<Arguments> absurdInputs() {
        return Stream.of(
                // 6: hangs and overflows
                Arguments.of("a rate above one op per ns", run("--driver", "noop", "--target", "1e12", "--duration", "1s"),
                        "--target 1000000000000 is above the limit of 1e9 ops/s"),
                Arguments.of("a duration that overflows the clock", run("--driver", "noop", "--duration", "2562047h"),
                        "--duration 2562047h is above the limit of 366 days"),
                Arguments.of("operations beyond 2^53", run("--driver", "noop", "--operations", "9007199254740993"),
                        "--operations 9007199254740993 is above the limit of 9007199254740992"),
                Arguments.of("a negative duration", run("--driver", "noop", "--duration", "-1s"), "'-1s' must be positive"),
                // 7: memory
                Arguments.of("threads beyond the heap", run("--driver", "noop", "--threads", "100000"),
                        "100000 threads need about"),
                Arguments.of("a workload's threadcount beyond the heap",
                        run("--driver", "noop", "-p", "recordcount=10", "-p", "threadcount=100000"), "threads fit"),
                Arguments.of("a field too long for the heap",
                        run("--driver", "noop", "-p", "recordcount=10", "-p", "fieldlength=2000000000"),
                        "a record of fieldcount=10 x fieldlength=2000000000 bytes"),
                Arguments.of("too many fields for the heap",
                        run("--driver", "noop", "-p", "recordcount=10", "-p", "fieldcount=2000000000", "-p", "fieldlength=1"),
                        "a record of fieldcount=2000000000"),
                Arguments.of("a scan longer than any range",
                        run("--driver", "noop", "-p", "recordcount=10", "-p", "maxscanlength=2000000000"),
                        "above the limit of 10000000 records per scan"),
                Arguments.of("an in-flight window beyond any pipeline",
                        run("--driver", "noop", "--max-in-flight", "2000000000"), "above the limit of 1048576"),
                // 8: values that cannot be meant
                Arguments.of("a nanosecond interval", run("--driver", "noop", "--interval", "1ns"),
                        "--interval 1ns is below the minimum of 10ms"),
                Arguments.of("report: 10^8 ticks per half", report("run.hlog", "-percentilesOutputTicksPerHalf", "100000000"),
                        "-percentilesOutputTicksPerHalf must be from 1 to 1000"),
                Arguments.of("report: a moving window longer than a year", report("run.hlog", "-mwpl", "99999999999999"),
                        "-mwpl must be a positive length in milliseconds, at most"),
                // 9: secrets stay out of messages
                Arguments.of("a password in an unreachable redis.uri",
                        new String[]{"run", "--driver", "redis", "-p", "redis.uri=redis://:" + SECRET + "@127.0.0.1:1",
                                "--operations", "1"}, "cannot connect to Redis at redis://:***@127.0.0.1:1"),
                Arguments.of("a password in a malformed redis.uri",
                        new String[]{"run", "--driver", "redis", "-p", "redis.uri=redis://default:" + SECRET + "@",
                                "--operations", "1"}, "redis://default:***@"),
                // 11: clear messages
                Arguments.of("report: an empty log", report("empty.hlog"), "holds no interval"),
                Arguments.of("report: a header-only log", report("header-only.hlog"), "holds no interval"),
                Arguments.of("report: a gzip log cut short", report("cut.hlog.gz"), "holds no interval"),
                Arguments.of("a Latin-1 properties file, named in the error",
                        run("--driver", "noop", "-P", dir.resolve("latin1.properties").toString()),
                        "-P " + dir.resolve("latin1.properties") + ": property recordcount: 'zehn\u00e9' is not a whole number"),
                Arguments.of("a 5 MB property name", run("--driver", "mockdb", "-p", HUGE + "=1"),
                        "has no property '" + "x".repeat(80) + "… (5000000 chars)'"),
                Arguments.of("a 5 MB duration", run("--driver", "mockdb", "-p", "mockdb.delay=" + HUGE),
                        "… (5000000 chars)"),
                Arguments.of("a 5 MB workload value", run("--driver", "noop", "-p", "recordcount=" + HUGE),
                        "property recordcount: '" + "x".repeat(80) + "… (5000000 chars)' is not a whole number"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("absurdInputs")
    void refusedInOneLineNamingTheLimitWithNothingWritten(String what, String[] args, String expected) throws IOException {
        Cli cli = Cli.run(args);
        assertEquals(2, cli.exitCode, what + ": " + cli.err);
        String[] lines = cli.err.strip().split("\n");
        if (lines.length == 2 && lines[0].startsWith("warning: " + dir.resolve("cut.hlog.gz"))) {
            lines = new String[]{lines[1]}; // the reader's own warning that the gzip stream ends early, then the error
        }
        assertEquals(1, lines.length, "one line on stderr, got: " + Limits.quote(cli.err));
        assertTrue(lines[0].startsWith("loadgen: "), lines[0]);
        assertTrue(lines[0].contains(expected), "expected '" + expected + "' in: " + Limits.quote(lines[0]));
        assertTrue(lines[0].length() < 1000, "a long value is not echoed whole: " + lines[0].length() + " chars");
        assertFalse(cli.err.contains("\tat "), "no stack trace without -v");
        assertFalse(cli.err.contains(SECRET), "the password is redacted");
        assertEquals("", cli.out, "nothing on stdout");
        Path outputs = dir.resolve("out");
        if (Files.isDirectory(outputs)) {
            try (Stream<Path> written = Files.list(outputs)) {
                assertEquals(List.of(), written.toList(), "no output file written");
            }
        }
    }
}
