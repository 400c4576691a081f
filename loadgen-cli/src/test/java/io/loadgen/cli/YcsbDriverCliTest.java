package io.loadgen.cli;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The ycsb driver from the command line, with YCSB's BasicDB from the YCSB folder loadgen-drivers' build lays out
 * ({@code loadgen-drivers/target/ycsb/lib}): what a YCSB user types reaches the binding as YCSB's client would give
 * it. The Redis binding's {@code redis.host}, {@code redis.port} and {@code redis.cluster}, which loadgen translates
 * for its own redis driver, reach the binding untouched, next to the workload's properties.
 */
class YcsbDriverCliTest {
    private static final Path YCSB_LIB = Path.of("..", "loadgen-drivers", "target", "ycsb", "lib");

    @Test
    void everyPropertyReachesBasicDbAsGivenAndTheRunCountsItsOperations() {
        assertTrue(Files.isDirectory(YCSB_LIB), YCSB_LIB.toAbsolutePath() + " is made by loadgen-drivers'"
                + " generate-test-resources: run with -am");
        PrintStream stdout = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        Cli cli;
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            cli = Cli.run("run", "-P", "../workloads/workloada", "--driver", "ycsb", "-p",
                    "ycsb.classpath=" + YCSB_LIB, "-p", "redis.host=10.1.2.3", "-p", "redis.port=7000", "-p",
                    "redis.cluster=true", "-p", "recordcount=100", "--threads", "2", "--operations", "50", "-q");
        } finally {
            System.setOut(stdout);
        }
        assertEquals(0, cli.exitCode, cli.err);
        String basicDb = printed.toString(StandardCharsets.UTF_8);
        for (String property : new String[] {"\"redis.host\"=\"10.1.2.3\"", "\"redis.port\"=\"7000\"",
                "\"redis.cluster\"=\"true\"", "\"recordcount\"=\"100\"", "\"readproportion\"=\"0.5\"",
                "\"threadcount\"=\"2\""}) {
            assertTrue(basicDb.contains(property), property + " reached BasicDB: " + basicDb.lines().limit(40).toList());
        }
        long calls = basicDb.lines().filter(l -> l.matches("(READ|UPDATE) usertable user\\d+ .*")).count();
        assertEquals(50, calls, "BasicDB printed each of the 50 operations");
        assertTrue(cli.out.contains("[DRIVER], db_instances, 2"), cli.out);
    }

    @Test
    void aClassThatIsNotThereIsOneLineAndExitCode2() {
        Cli cli = Cli.run("run", "--driver", "ycsb", "-p", "ycsb.classpath=" + YCSB_LIB, "-p", "ycsb.db=RedisClient",
                "--operations", "1");
        assertEquals(2, cli.exitCode, cli.err);
        assertEquals("loadgen: class RedisClient (ycsb.db) is not in ycsb.classpath; give the binding's DB class and"
                + " list its lib folder, e.g. -p ycsb.classpath=ycsb-0.17.0/lib" + java.io.File.pathSeparator
                + "ycsb-0.17.0/redis-binding/lib -p ycsb.db=site.ycsb.db.RedisClient", cli.err.strip());
    }
}
