package io.loadgen.drivers.ycsb;

import io.loadgen.core.BadInputException;
import io.loadgen.core.Limits;
import io.loadgen.core.driver.DriverContext;
import io.loadgen.core.driver.DriverProperties;
import io.loadgen.core.driver.PropertySpec;
import io.loadgen.drivers.redis.FieldLengths;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The {@code ycsb} driver's settings: which DB class to run, the jars to load it from, the properties the DB is
 * given, and the records its operations carry (the workload's shape, else YCSB's defaults). Immutable but for the
 * {@link Properties}, which only the DBs read; built on the main thread when the driver opens.
 *
 * @param dbClass     {@code ycsb.db}, else the workload's {@code db}, else YCSB's default {@code site.ycsb.BasicDB}
 * @param jars        every jar {@code ycsb.classpath} names, in its order (a folder's jars by name)
 * @param table       the workload's {@code table}, as YCSB's CoreWorkload passes it to every operation
 * @param fieldCount  fields per record ({@code fieldcount})
 * @param lengths     each field value's length ({@code fieldlength}, {@code minfieldlength},
 *                    {@code fieldlengthdistribution})
 * @param fieldNamePrefix field i is named prefix + i ({@code fieldnameprefix})
 * @param zeroPadding key numbers are zero-padded to this many digits ({@code zeropadding})
 * @param readAllFields  a READ-MODIFY-WRITE reads every field ({@code readallfields}), else one
 * @param writeAllFields a READ-MODIFY-WRITE writes every field ({@code writeallfields}), else one
 * @param dbProperties every property of the run and of the driver, as YCSB's client gives them to each DB
 */
record YcsbSettings(String dbClass, List<Path> jars, String table, int fieldCount, FieldLengths lengths,
                    String fieldNamePrefix, int zeroPadding, boolean readAllFields, boolean writeAllFields,
                    Properties dbProperties) {
    static final String DB = "ycsb.db";
    static final String CLASSPATH = "ycsb.classpath";
    /** YCSB's own default DB: prints each operation and returns OK. */
    static final String DEFAULT_DB = "site.ycsb.BasicDB";
    /** How a user points the driver at an unpacked YCSB release, for messages. */
    static final String EXAMPLE = "-p " + CLASSPATH + "=ycsb-0.17.0/lib" + File.pathSeparator
            + "ycsb-0.17.0/redis-binding/lib -p " + DB + "=site.ycsb.db.RedisClient";

    static final List<PropertySpec> SPECS = List.of(
            new PropertySpec(CLASSPATH, "",
                    "where the YCSB binding's jars are: folders of jars or jars, separated by '" + File.pathSeparator
                            + "', YCSB's lib/ (its core jar) and the binding's lib/, e.g. ycsb-0.17.0/lib"
                            + File.pathSeparator + "ycsb-0.17.0/mongodb-binding/lib"),
            new PropertySpec(DB, DEFAULT_DB,
                    "the binding's site.ycsb.DB class, e.g. site.ycsb.db.RedisClient (default: the workload's db,"
                            + " else YCSB's BasicDB)"));

    private static final Pattern CLASS_NAME =
            Pattern.compile("\\p{javaJavaIdentifierStart}\\p{javaJavaIdentifierPart}*(\\.\\p{javaJavaIdentifierStart}\\p{javaJavaIdentifierPart}*)*");

    /**
     * Reads and checks the properties and lists the jars.
     *
     * @throws BadInputException naming the property or folder and the fix
     */
    static YcsbSettings from(DriverProperties properties, DriverContext context) {
        Map<String, String> run = context.runProperties();
        String db = properties.isSet(DB) || !run.containsKey("db") ? properties.getString(DB).trim() : run.get("db").trim();
        if (!CLASS_NAME.matcher(db).matches()) {
            throw new BadInputException("property " + DB + ": '" + Limits.quote(db) + "' is not a Java class name; give"
                    + " the binding's DB class, e.g. -p " + DB + "=site.ycsb.db.RedisClient");
        }
        List<Path> jars = jars(properties.getString(CLASSPATH));
        DriverContext.RecordShape shape = context.recordShape();
        FieldLengths lengths = shape == null ? FieldLengths.constant(100)
                : new FieldLengths(shape.minFieldLength(), shape.fieldLength(), shape.fieldLengthDistribution());
        Properties dbProperties = new Properties();
        dbProperties.putAll(run);
        dbProperties.putAll(properties.given());
        dbProperties.setProperty("threadcount", Integer.toString(context.threads())); // as YCSB's -threads sets it
        return new YcsbSettings(db, jars, run.getOrDefault("table", "usertable"),
                shape == null ? 10 : shape.fieldCount(), lengths, shape == null ? "field" : shape.fieldNamePrefix(),
                shape == null ? 1 : shape.zeroPadding(), flag(run, "readallfields", true),
                flag(run, "writeallfields", false), dbProperties);
    }

    private static boolean flag(Map<String, String> run, String key, boolean byDefault) {
        String v = run.get(key);
        return v == null ? byDefault : Boolean.parseBoolean(v.trim());
    }

    /**
     * The jars of {@code classpath}: each entry a folder (its {@code *.jar}, by name; {@code DIR/*} means DIR) or a
     * jar, entries separated by {@link File#pathSeparator}.
     *
     * @throws BadInputException for an empty classpath, a missing entry, a folder without jars, or another file
     */
    static List<Path> jars(String classpath) {
        List<Path> jars = new ArrayList<>();
        for (String entry : classpath.split(Pattern.quote(File.pathSeparator))) {
            String trimmed = entry.trim();
            if (!trimmed.isEmpty()) {
                jars.addAll(jarsOf(trimmed));
            }
        }
        if (jars.isEmpty()) {
            throw new BadInputException("driver ycsb needs " + CLASSPATH + ": the folders of YCSB's jars (its lib/,"
                    + " with core-*.jar) and of the binding's, e.g. " + EXAMPLE);
        }
        return jars;
    }

    private static List<Path> jarsOf(String entry) {
        String folder = entry.endsWith(File.separator + "*") ? entry.substring(0, entry.length() - 2) : entry;
        Path path = Path.of(folder);
        String quoted = "'" + Limits.quote(entry) + "'";
        if (Files.isDirectory(path)) {
            List<Path> jars = jarFiles(path);
            if (jars.isEmpty()) {
                boolean hasLib = !jarFiles(path.resolve("lib")).isEmpty();
                throw new BadInputException(CLASSPATH + " entry " + quoted + " is a folder without jars; "
                        + (hasLib ? "its jars are in " + path.resolve("lib") + ": give that folder"
                        : "give YCSB's lib folder and the binding's, e.g. " + EXAMPLE));
            }
            return jars;
        }
        if (Files.isRegularFile(path) && folder.endsWith(".jar")) {
            return List.of(path);
        }
        throw new BadInputException(CLASSPATH + " entry " + quoted + (Files.exists(path) ? " is neither a folder of"
                + " jars nor a jar" : " does not exist") + "; give YCSB's lib folder and the binding's, e.g. " + EXAMPLE);
    }

    /** The {@code *.jar} files in {@code folder}, by name; none when it is not a folder. */
    private static List<Path> jarFiles(Path folder) {
        if (!Files.isDirectory(folder)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(folder)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".jar") && Files.isRegularFile(f)).sorted()
                    .toList();
        } catch (IOException e) {
            throw new BadInputException(CLASSPATH + ": cannot list " + folder + " (" + e.getMessage() + "); give a"
                    + " folder loadgen can read", e);
        }
    }
}
