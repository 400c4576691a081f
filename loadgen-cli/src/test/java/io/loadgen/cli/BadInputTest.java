package io.loadgen.cli;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bad input gets one line on stderr that names the problem and the fix, exit code 2, and no stack trace. */
class BadInputTest {
    @TempDir
    static Path dir;

    static Stream<Arguments> badRuns() {
        return Stream.of(
                Arguments.of("unknown driver", new String[]{"run", "--driver", "nosuch"},
                        "unknown driver 'nosuch'; choose one of: http, memcached, mockdb, noop, "),
                Arguments.of("unknown option", new String[]{"run", "--driver", "noop", "--tagret", "5"},
                        "Unknown options: '--tagret', '5'; did you mean --target?"),
                Arguments.of("unknown property", new String[]{"run", "--driver", "mockdb", "-p", "mockdb.dealy=4ms"},
                        "driver mockdb has no property 'mockdb.dealy'; it knows mockdb.capacity, mockdb.delay"),
                Arguments.of("zero threads", new String[]{"run", "--driver", "noop", "--threads", "0"},
                        "--threads must be at least 1 (got 0)"),
                Arguments.of("zero rate", new String[]{"run", "--driver", "noop", "--target", "0"},
                        "--target must be a positive rate"),
                Arguments.of("negative rate", new String[]{"run", "--driver", "noop", "--target", "-100"},
                        "--target must be a positive rate"),
                Arguments.of("zero duration", new String[]{"run", "--driver", "noop", "--duration", "0s"},
                        "--duration must be positive"),
                Arguments.of("duration without unit", new String[]{"run", "--driver", "noop", "--duration", "60"},
                        "'60' is not a duration; write a number with a unit"),
                Arguments.of("property without unit", new String[]{"run", "--driver", "mockdb", "-p", "mockdb.delay=4"},
                        "property mockdb.delay: '4' is not a duration"),
                Arguments.of("bad wait strategy", new String[]{"run", "--driver", "noop", "--wait", "nap"},
                        "Invalid value for option '--wait'"),
                Arguments.of("unwritable interval log", new String[]{"run", "--driver", "noop", "--hlog",
                        dir.resolve("missing/dir/run.hlog").toString()},
                        "missing/dir does not exist; create it or choose another path"),
                Arguments.of("unwritable json", new String[]{"run", "--driver", "noop", "--json",
                        dir.resolve("missing/run.json").toString()}, "does not exist; create it or choose another path"),
                Arguments.of("missing properties file", new String[]{"run", "--driver", "noop", "-P",
                        dir.resolve("nope.properties").toString()}, "no such file"),
                Arguments.of("missing driver", new String[]{"run"}, "Missing required option: '--driver=NAME'"),
                Arguments.of("sweep: bad SLA", new String[]{"sweep", "--driver", "noop", "--rates", "100",
                        "--sla", "p99>10ms"}, "--sla 'p99>10ms' is not an objective; write PERCENTILE<LIMIT"),
                Arguments.of("sweep: zero rate", new String[]{"sweep", "--driver", "noop", "--rates", "100,0"},
                        "--rates: every rate must be a positive number"),
                Arguments.of("sweep: from above to", new String[]{"sweep", "--driver", "noop", "--from", "2000",
                        "--to", "1000", "--steps", "3"}, "--from (2000) must be lower than --to (1000)"),
                Arguments.of("sweep: one step", new String[]{"sweep", "--driver", "noop", "--from", "1000",
                        "--to", "2000", "--steps", "1"}, "--steps must be at least 2"),
                Arguments.of("sweep: both plans", new String[]{"sweep", "--driver", "noop", "--rates", "100",
                        "--from", "100"}, "give either --rates or --from/--to/--steps, not both"),
                Arguments.of("sweep: no rates", new String[]{"sweep", "--driver", "noop"}, "give the rates: --rates"),
                Arguments.of("sweep: missing --steps", new String[]{"sweep", "--driver", "noop", "--from", "100",
                        "--to", "200"}, "--from, --to and --steps go together; missing --steps"),
                Arguments.of("sweep: unknown property", new String[]{"sweep", "--driver", "mockdb", "--rates", "100",
                        "-p", "mockdb.dealy=4ms"}, "driver mockdb has no property 'mockdb.dealy'"),
                Arguments.of("misspelt driver", new String[]{"run", "--driver", "mockbd"},
                        "unknown driver 'mockbd'; did you mean mockdb? choose one of: http, memcached, mockdb, noop, "),
                Arguments.of("misspelt subcommand", new String[]{"rnu"},
                        "'rnu'; did you mean run?"),
                Arguments.of("-c on a driver without connections", new String[]{"run", "--driver", "mockdb", "-c", "8"},
                        "-c: driver mockdb has no connection count (no property mockdb.connections); leave out -c"
                                + " and give --threads N"),
                Arguments.of("lower-case m rate", new String[]{"run", "--driver", "noop", "-R", "2m"},
                        "'2m' is not a rate; write a number of operations per second, e.g. 2500, 10k, 1.5k or 2M"),
                Arguments.of("duration parts out of order", new String[]{"run", "--driver", "noop", "-d", "30s1m"},
                        "'30s1m' is not a duration"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badRuns")
    void badInputIsOneLineNamingTheFixWithExitCodeTwo(String what, String[] args, String expected) {
        Cli cli = Cli.run(args);
        assertEquals(2, cli.exitCode, what + ": " + cli.err);
        String[] lines = cli.err.strip().split("\n");
        assertEquals(1, lines.length, "one line on stderr, got: " + cli.err);
        assertTrue(lines[0].startsWith("loadgen: "), lines[0]);
        assertTrue(lines[0].contains(expected), "expected '" + expected + "' in: " + lines[0]);
        assertFalse(cli.err.contains("\tat "), "no stack trace without -v");
        assertEquals("", cli.out, "nothing on stdout");
    }

    @org.junit.jupiter.api.Test
    void aMetricsPortInUseIsOneLineNamingTheFix() throws Exception {
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            String address = "127.0.0.1:" + taken.getLocalPort();
            Cli cli = Cli.run("run", "--driver", "noop", "-d", "1s", "--metrics", address);
            assertEquals(2, cli.exitCode, cli.err);
            assertEquals("loadgen: --metrics " + address + ": the port is in use; choose another port (0 takes a free"
                    + " one)", cli.err.strip());
            assertEquals("", cli.out);
        }
    }

    @org.junit.jupiter.api.Test
    void verboseAddsTheStackTrace() {
        Cli cli = Cli.run("run", "-v", "--driver", "mockdb", "-p", "mockdb.dealy=4ms");
        assertEquals(2, cli.exitCode);
        assertTrue(cli.err.contains("\tat "), cli.err);
    }
}
