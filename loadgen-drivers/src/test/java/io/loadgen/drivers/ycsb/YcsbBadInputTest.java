package io.loadgen.drivers.ycsb;

import io.loadgen.core.BadInputException;
import io.loadgen.core.driver.DriverContext;
import io.loadgen.core.driver.DriverProperties;
import io.loadgen.core.workload.WorkloadOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a user who points the ycsb driver at the wrong folder or class is told: one line naming it and the fix. */
class YcsbBadInputTest {
    private static final String EXAMPLE = "e.g. -p ycsb.classpath=ycsb-0.17.0/lib" + File.pathSeparator
            + "ycsb-0.17.0/redis-binding/lib -p ycsb.db=site.ycsb.db.RedisClient";
    private final YcsbDriverProvider provider = new YcsbDriverProvider();

    private String openFails(Map<String, String> given) {
        BadInputException e = assertThrows(BadInputException.class, () -> provider.open(
                DriverProperties.of(provider, given, WorkloadOptions::didYouMean), new DriverContext(1, 1L)).close());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
        return e.getMessage();
    }

    private String openFails(String classpath, String db) {
        Map<String, String> given = new HashMap<>();
        given.put("ycsb.classpath", classpath);
        if (db != null) {
            given.put("ycsb.db", db);
        }
        return openFails(given);
    }

    @Test
    void noClasspathSaysWhatToGive() {
        assertEquals("driver ycsb needs ycsb.classpath: the folders of YCSB's jars (its lib/, with core-*.jar) and of"
                + " the binding's, " + EXAMPLE, openFails(Map.of()));
    }

    @Test
    void aFolderThatIsNotThereIsNamed(@TempDir Path dir) {
        String missing = dir.resolve("ycsb-0.17.0").resolve("lib").toString();
        assertEquals("ycsb.classpath entry '" + missing + "' does not exist; give YCSB's lib folder and the binding's, "
                + EXAMPLE, openFails(missing, null));
    }

    @Test
    void aFolderWithoutJarsIsNamedAndItsLibFolderPointedAt(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("README.md"), "not a jar");
        assertEquals("ycsb.classpath entry '" + dir + "' is a folder without jars; give YCSB's lib folder and the"
                + " binding's, " + EXAMPLE, openFails(dir.toString(), null));
        Path release = dir.resolve("redis-binding");
        Files.createDirectories(release.resolve("lib"));
        Files.copy(YcsbFolder.lib().resolve("core-0.17.0.jar"), release.resolve("lib").resolve("core-0.17.0.jar"));
        assertEquals("ycsb.classpath entry '" + release + "' is a folder without jars; its jars are in "
                + release.resolve("lib") + ": give that folder", openFails(release.toString(), null));
    }

    @Test
    void aFileThatIsNotAJarIsNamed(@TempDir Path dir) throws Exception {
        Path text = Files.writeString(dir.resolve("workloada"), "recordcount=1");
        assertEquals("ycsb.classpath entry '" + text + "' is neither a folder of jars nor a jar; give YCSB's lib folder"
                + " and the binding's, " + EXAMPLE, openFails(text.toString(), null));
    }

    @Test
    void withoutCoresJarSiteYcsbDbIsMissingAndTheLibFolderIsAskedFor() {
        String message = openFails(YcsbFolder.classpath(YcsbFolder.redisBinding()), YcsbFolder.REDIS_BINDING_CLASS);
        assertEquals("site.ycsb.DB is not in ycsb.classpath (list YCSB's core jar too: the lib folder of the YCSB"
                + " release, with lib/core-*.jar), " + EXAMPLE, message);
    }

    @Test
    void aClassThatIsNotThereIsNamedWithTheOneMeant() {
        String lib = YcsbFolder.classpath(YcsbFolder.lib());
        assertEquals("class site.ycsb.NoSuchDB (ycsb.db) is not in ycsb.classpath; give the binding's DB class and"
                + " list its lib folder, " + EXAMPLE, openFails(lib, "site.ycsb.NoSuchDB"));
        assertEquals("class BasicDB (ycsb.db) is not in ycsb.classpath; did you mean site.ycsb.BasicDB? give the"
                + " binding's DB class and list its lib folder, " + EXAMPLE, openFails(lib, "BasicDB"));
        String cp = YcsbFolder.classpath(YcsbFolder.lib(), YcsbFolder.redisBinding());
        assertTrue(openFails(cp, "jedishash").contains("did you mean " + YcsbFolder.REDIS_BINDING_CLASS + "?"));
    }

    @Test
    void aClassThatIsNotADbOrIsAbstractIsRefused() {
        String lib = YcsbFolder.classpath(YcsbFolder.lib());
        assertEquals("class site.ycsb.Status (ycsb.db) is not a site.ycsb.DB; give the binding's DB class (the one"
                + " YCSB's bin/ycsb runs for it), e.g. -p ycsb.db=site.ycsb.db.RedisClient",
                openFails(lib, "site.ycsb.Status"));
        assertEquals("class site.ycsb.DB (ycsb.db) is abstract, so YCSB could not run it either; give the binding's"
                + " concrete DB class", openFails(lib, "site.ycsb.DB"));
        assertEquals("property ycsb.db: 'site.ycsb.db/RedisClient' is not a Java class name; give the binding's DB"
                + " class, e.g. -p ycsb.db=site.ycsb.db.RedisClient", openFails(lib, "site.ycsb.db/RedisClient"));
    }

    @Test
    void unknownKeysGoToTheBindingButTyposOfTheDriversOwnOrOfAWorkloadKeyAreRefused() {
        Map<String, String> given = Map.of("ycsb.classpath", "x", "mongodb.url", "mongodb://127.0.0.1:27017/ycsb",
                "basicdb.verbose", "false");
        DriverProperties kept = DriverProperties.of(provider, given, WorkloadOptions::didYouMean);
        assertEquals(given, kept.given());
        assertEquals("site.ycsb.BasicDB", kept.getString("ycsb.db"));

        BadInputException own = assertThrows(BadInputException.class, () -> DriverProperties.of(provider,
                Map.of("ycsb.classpth", "x"), WorkloadOptions::didYouMean));
        assertEquals("driver ycsb has no property 'ycsb.classpth'; it knows ycsb.classpath, ycsb.db, and hands other"
                + " keys (without its prefix) to what it runs", own.getMessage());
        BadInputException workload = assertThrows(BadInputException.class, () -> DriverProperties.of(provider,
                Map.of("recordcont", "10"), WorkloadOptions::didYouMean));
        assertTrue(workload.getMessage().endsWith("; did you mean the workload property 'recordcount'?"),
                workload.getMessage());
    }
}
