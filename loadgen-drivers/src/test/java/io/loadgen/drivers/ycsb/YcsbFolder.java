package io.loadgen.drivers.ycsb;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The tests' "YCSB release", laid out as one: {@code target/ycsb/lib} holds YCSB 0.17.0's core and the libraries
 * its pom names, {@code target/ycsb/redis-binding/lib} holds Jedis and its libraries (both copied there by the
 * maven-dependency-plugin at generate-test-resources, and on no classpath of the tests), and {@link #redisBinding}
 * adds the bindings of {@code src/test/ycsb-binding} (a Jedis one, and one that answers every status), compiled
 * here against core's jar and Jedis, as a jar of their own.
 * Tests run in the module's folder. Any test thread; the binding is built once per JVM.
 */
final class YcsbFolder {
    static final Path ROOT = Path.of("target", "ycsb");
    static final String REDIS_BINDING_CLASS = "site.ycsb.db.loadgen.JedisHashClient";
    private static final Path BINDING_SOURCES = Path.of("src", "test", "ycsb-binding");
    private static Path redisBinding;

    private YcsbFolder() {
    }

    /** YCSB's {@code lib/}: its core jar and core's libraries. */
    static Path lib() {
        return existing(ROOT.resolve("lib"));
    }

    /** The Redis binding's {@code lib/}: Jedis, its libraries and the test's binding jar, built on first use. */
    static synchronized Path redisBinding() {
        if (redisBinding == null) {
            redisBinding = build(existing(ROOT.resolve("redis-binding").resolve("lib")));
        }
        return redisBinding;
    }

    /** {@code entries} joined with the path separator, as {@code -p ycsb.classpath=} takes them. */
    static String classpath(Path... entries) {
        return Arrays.stream(entries).map(Path::toString).collect(Collectors.joining(File.pathSeparator));
    }

    private static Path existing(Path folder) {
        if (!Files.isDirectory(folder)) {
            throw new AssertionError(folder.toAbsolutePath() + " is missing: maven-dependency-plugin makes it at"
                    + " generate-test-resources (run the tests through Maven)");
        }
        return folder;
    }

    private static Path build(Path lib) {
        try {
            Path classes = Files.createDirectories(ROOT.resolve("redis-binding").resolve("classes"));
            List<String> args = new ArrayList<>(List.of("--release", "17", "-nowarn", "-proc:none", "-cp",
                    jars(lib()) + File.pathSeparator + jars(lib), "-d", classes.toString()));
            try (Stream<Path> sources = Files.walk(BINDING_SOURCES)) {
                sources.filter(p -> p.toString().endsWith(".java")).forEach(p -> args.add(p.toString()));
            }
            JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
            ByteArrayOutputStream errors = new ByteArrayOutputStream();
            int rc = javac.run(null, null, new PrintStream(errors, true, StandardCharsets.UTF_8), args.toArray(new String[0]));
            if (rc != 0) {
                throw new AssertionError("the test binding does not compile against YCSB's core and Jedis: "
                        + errors.toString(StandardCharsets.UTF_8));
            }
            Path jar = lib.resolve("loadgen-test-redis-binding.jar");
            try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
                 Stream<Path> files = Files.walk(classes)) {
                for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
                    out.putNextEntry(new JarEntry(classes.relativize(file).toString().replace(File.separatorChar, '/')));
                    out.write(Files.readAllBytes(file));
                    out.closeEntry();
                }
            }
            return lib;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String jars(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            return files.filter(p -> p.toString().endsWith(".jar")).map(Path::toString)
                    .collect(Collectors.joining(File.pathSeparator));
        }
    }
}
