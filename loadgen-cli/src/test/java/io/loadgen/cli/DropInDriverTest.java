package io.loadgen.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.File;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A user's own driver, compiled here into a separate jar with its ServiceLoader entry, is found when
 * the jar is on the class path (the launcher adds lib/*.jar and LOADGEN_CLASSPATH): listed by
 * {@code loadgen drivers} and runnable by {@code loadgen run}, in a real child JVM.
 */
class DropInDriverTest {
    @TempDir
    Path dir;

    private static final String SOURCE = """
            package example;
            import io.loadgen.core.driver.*;
            import java.util.List;
            public final class EchoProvider implements DriverProvider {
                public String name() { return "my-echo"; }
                public String description() { return "a user's own driver"; }
                public List<PropertySpec> properties() { return List.of(new PropertySpec("my-echo.x", "1", "a knob")); }
                public List<String> operations() { return List.of("ECHO"); }
                public Driver open(DriverProperties p, DriverContext c) { return op -> Status.OK; }
            }
            """;

    @Test
    void aDriverJarOnTheClassPathIsListedAndRuns() throws Exception {
        Path jar = buildDriverJar();
        String cp = ChildProcess.testClasspath() + File.pathSeparator + jar;

        ChildProcess list = ChildProcess.java(cp, Main.class.getName(), "drivers");
        assertEquals(0, list.awaitExit(60), list.err());
        assertTrue(list.out().contains("my-echo - a user's own driver"), list.out());
        assertTrue(list.out().contains("-p my-echo.x=1"), list.out());

        ChildProcess run = ChildProcess.java(cp, Main.class.getName(), "run", "--driver", "my-echo", "--operations",
                "100", "-q");
        assertEquals(0, run.awaitExit(60), run.err());
        assertTrue(run.out().contains("[ECHO], Operations, 100"), run.out());
    }

    private Path buildDriverJar() throws Exception {
        Path src = dir.resolve("src/example/EchoProvider.java");
        Files.createDirectories(src.getParent());
        Files.writeString(src, SOURCE);
        Path classes = Files.createDirectories(dir.resolve("classes"));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int rc = javac.run(null, null, null, "--release", "17", "-cp", ChildProcess.testClasspath(),
                "-d", classes.toString(), src.toString());
        assertEquals(0, rc, "the example driver compiles against the SPI");
        Path jar = dir.resolve("my-echo.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            put(out, "example/EchoProvider.class", Files.readAllBytes(classes.resolve("example/EchoProvider.class")));
            put(out, "META-INF/services/io.loadgen.core.driver.DriverProvider",
                    "example.EchoProvider\n".getBytes(StandardCharsets.UTF_8));
        }
        return jar;
    }

    private static void put(JarOutputStream out, String name, byte[] bytes) throws Exception {
        out.putNextEntry(new JarEntry(name));
        ((OutputStream) out).write(bytes);
        out.closeEntry();
    }
}
