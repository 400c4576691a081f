package io.loadgen.cli;

import io.loadgen.drivers.redis.RedisServerProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code redis.requests} from the command line: the sample file runs as the docs show, a bad file is exit 2. */
class RedisDataTypesCliTest {
    private static final String SAMPLE = Path.of("..", "workloads", "redis-datatypes.yaml").toString();

    @Test
    void aMistakeInTheFileIsOneLineNamingTheCommandAndTheFieldWithExitCodeTwo(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("bad.yaml");
        Files.writeString(f, "- {name: GET_SESSION, command: GET, key: {prefix: 's:', count: 10}}\n"
                + "- {name: SET_SESSION, command: SET, key: {prefix: 's:', count: 10}, weight: 0}\n");
        Cli cli = Cli.run("run", "--driver", "redis", "-p", "redis.uri=redis://127.0.0.1:1", "-p",
                "redis.requests=" + f, "--operations", "10");
        assertEquals(2, cli.exitCode, cli.err);
        assertEquals("loadgen: " + f + ": command 2 (SET_SESSION): weight '0' must be a number above 0 (how often the"
                + " command is sent relative to the others); remove the command to send it never", cli.err.strip());
    }

    /**
     * The sample file, every value checked, on a fresh server: each command its own line in the summary, no value
     * read back wrong and no WRONGTYPE (each key prefix holds one type). Misses (GET of a session never set, LPOP
     * of an empty feed) are NOT_FOUND, failures in the summary, so the error-rate gate is off here.
     */
    @Test
    void theSampleFileRunsWithEveryValueChecked() throws Exception {
        try (RedisServerProcess server = RedisServerProcess.start()) {
            Cli cli = Cli.run("run", "--driver", "redis", "-p", "redis.uri=" + server.uri(), "-p",
                    "redis.requests=" + SAMPLE, "-p", "redis.dataintegrity=true", "--operations", "3000", "--target",
                    "3000", "--threads", "2", "--max-error-rate", "1", "-q");
            assertEquals(0, cli.exitCode, cli.err + cli.out);
            for (String op : new String[] {"GET_SESSION", "SET_SESSION", "COUNT_HIT", "READ_FEED", "SCORE_BAND",
                    "GET_PROFILE"}) {
                assertTrue(cli.out.contains(op), op + " in:\n" + cli.out);
            }
            assertTrue(cli.out.contains("[DRIVER], integrity_failures, 0"), cli.out);
            assertTrue(cli.out.contains("[DRIVER], wrongtype_errors, 0"), cli.out);
            assertTrue(cli.out.contains("[DRIVER], server_errors, 0"), cli.out);
            assertFalse(cli.out.contains("UNEXPECTED_STATE"), cli.out);
        }
    }
}
