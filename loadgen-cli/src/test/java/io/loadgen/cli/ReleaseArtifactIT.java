package io.loadgen.cli;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD;

/**
 * The release artifacts work as docs/install.md says, checked by {@code ./mvnw verify} after {@code package} has
 * made them (Maven's failsafe runs {@code *IT} classes then): the jar runs with {@code java -jar}, the versioned jar
 * is the same jar, the tar.gz unpacks to a {@code bin/loadgen} that runs its {@code lib/} jar without building, and
 * where a Docker daemon answers, the image the Dockerfile builds from the sources runs too. Without a daemon (or
 * without the {@code docker} command, or without a registry to pull the base image from) the image is skipped, not
 * failed: the machine decides, not the code.
 */
class ReleaseArtifactIT {
    private static final Path JAR = Path.of("target", "loadgen.jar");
    /** The project's version (failsafe's system property, loadgen-cli/pom.xml). */
    private static final String VERSION = System.getProperty("loadgen.version", "");
    /** The version line names the commit: always when built from a git checkout, else "commit unknown". */
    private static final String COMMIT = Files.exists(Path.of("..", ".git"))
            ? "commit [0-9a-f]{7,40}(-dirty)?, \\d{4}-\\d{2}-\\d{2}" : "commit unknown";

    @Test
    @Timeout(value = 120, threadMode = SEPARATE_THREAD)
    void theJarRunsWithJavaJar() throws Exception {
        assertTrue(Files.isRegularFile(JAR), "package leaves " + JAR);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Result version = run(60, java, "-jar", JAR.toString(), "--version");
        assertEquals(0, version.code, version.output);
        assertTrue(version.output.strip().matches("loadgen " + Pattern.quote(VERSION) + " \\(" + COMMIT + "; Java .+\\)"),
                version.output);
        Result run = run(60, java, "-jar", JAR.toString(), "run", "--driver", "noop", "--target", "1000",
                "--duration", "1s", "-q", "--json", "-");
        assertEquals(0, run.code, run.output);
        assertTrue(run.output.contains("\"schema_version\""), "the JSON summary on stdout: " + run.output);
    }

    @Test
    void theVersionedJarIsTheSameJar() throws Exception {
        assertTrue(VERSION.matches("\\d+\\.\\d+.*"), "failsafe passes the version: " + VERSION);
        Path versioned = Path.of("target", "loadgen-" + VERSION + ".jar");
        assertTrue(Files.isRegularFile(versioned), "package leaves " + versioned);
        assertEquals(-1, Files.mismatch(JAR, versioned), versioned + " differs from " + JAR);
    }

    /** The tar.gz unpacks to loadgen-VERSION/, whose bin/loadgen runs lib/loadgen-VERSION.jar and builds nothing. */
    @Test
    @Timeout(value = 180, threadMode = SEPARATE_THREAD)
    void theTarballUnpacksToALauncherThatRunsItsJar(@TempDir Path dir) throws Exception {
        Path tarball = Path.of("target", "loadgen-" + VERSION + ".tar.gz");
        assertTrue(Files.isRegularFile(tarball), "package leaves " + tarball);
        Result untar = run(60, "tar", "xzf", tarball.toAbsolutePath().toString(), "-C", dir.toString());
        assertEquals(0, untar.code, untar.output);
        try (Stream<Path> top = Files.list(dir)) {
            assertEquals(List.of(dir.resolve("loadgen-" + VERSION)), top.toList(), "one top directory");
        }
        Path home = dir.resolve("loadgen-" + VERSION);
        Path launcher = home.resolve("bin/loadgen");
        assertTrue(Files.isExecutable(launcher), launcher + " is executable");
        assertEquals(-1, Files.mismatch(Path.of("..", "loadgen"), launcher), "bin/loadgen is the launcher");
        assertEquals(-1, Files.mismatch(JAR, home.resolve("lib/loadgen-" + VERSION + ".jar")), "lib/ has the jar");
        for (String file : List.of("workloads/workloadc", "workloads/README.md", "README.md")) {
            assertTrue(Files.isRegularFile(home.resolve(file)), file + " is in the tar.gz");
        }
        assertFalse(Files.exists(home.resolve("pom.xml")), "no sources, so nothing to build");

        // bin/loadgen with JAVA=this JVM's java, from another directory: it finds its lib/ from its own path.
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Map<String, String> env = Map.of("JAVA", java);
        Result version = launch(dir, env, launcher, "--version");
        assertEquals(0, version.code, version.output);
        assertTrue(version.output.strip().matches("loadgen " + Pattern.quote(VERSION) + " \\(" + COMMIT + "; Java .+\\)"),
                version.output);

        Result command = launch(dir, Map.of("JAVA", java, "LOADGEN_PRINT_COMMAND", "1"), launcher, "run", "--driver", "noop");
        assertEquals(0, command.code, command.output);
        List<String> line = command.output.lines().toList();
        assertEquals(home.resolve("lib/loadgen-" + VERSION + ".jar") + ":" + home.resolve("lib/*"),
                line.get(line.indexOf("-cp") + 1), "the release's jar, then the drivers in its lib/: " + line);

        Result run = launch(dir, env, launcher, "run", "-P", home.resolve("workloads/workloadc").toString(),
                "--driver", "mockdb", "--duration", "1s", "-q");
        assertEquals(0, run.code, run.output);
        assertFalse(run.output.contains("building"), "the release builds nothing: " + run.output);
    }

    /** The launcher run in {@code dir} with {@code env} added (and the caller's own loadgen settings removed). */
    private static Result launch(Path dir, Map<String, String> env, Path launcher, String... args)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(launcher.toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().keySet().removeIf(k -> k.startsWith("LOADGEN_"));
        pb.environment().putAll(env);
        return finish(pb, 60);
    }

    @Test
    @Timeout(value = 900, threadMode = SEPARATE_THREAD)
    void theImageBuildsAndRunsWhereADockerDaemonAnswers() throws Exception {
        Result info = runOrNull(30, "docker", "info");
        Assumptions.assumeTrue(info != null && info.code == 0, "no Docker daemon here: the image is not built");
        Result build = run(600, "docker", "build", "-t", "loadgen:verify", "..");
        Assumptions.assumeFalse(build.code != 0 && pullFailed(build.output),
                "the base image or the build's dependencies could not be downloaded here: " + lastLine(build.output));
        assertEquals(0, build.code, build.output);
        Result run = run(120, "docker", "run", "--rm", "loadgen:verify", "run", "--driver", "noop", "--target",
                "1000", "--duration", "1s", "-q", "--json", "-");
        assertEquals(0, run.code, run.output);
        assertTrue(run.output.contains("\"schema_version\""), run.output);
    }

    /** The base image could not be pulled, or the build stage could not download Maven or the dependencies. */
    private static boolean pullFailed(String output) {
        String o = output.toLowerCase(java.util.Locale.ROOT);
        return o.contains("pull") || o.contains("dial tcp") || o.contains("registry") || o.contains("resolve")
                || o.contains("failed to fetch") || o.contains("could not transfer") || o.contains("unknown host");
    }

    private static String lastLine(String s) {
        String t = s.strip();
        return t.substring(t.lastIndexOf('\n') + 1);
    }

    private record Result(int code, String output) {
    }

    private static Result runOrNull(int seconds, String... command) throws InterruptedException {
        try {
            return run(seconds, command);
        } catch (IOException e) {
            return null; // no such command
        }
    }

    private static Result run(int seconds, String... command) throws IOException, InterruptedException {
        return finish(new ProcessBuilder(command).redirectErrorStream(true), seconds);
    }

    private static Result finish(ProcessBuilder pb, int seconds) throws IOException, InterruptedException {
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException(String.join(" ", pb.command()) + " did not end within " + seconds + " s");
        }
        return new Result(p.exitValue(), new String(out));
    }
}
