package io.loadgen.cli;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD;

/**
 * The release artifacts work as the README says, checked by {@code ./mvnw verify} after {@code package} has
 * shaded the jar (Maven's failsafe runs {@code *IT} classes then): the jar runs with {@code java -jar}, and where a
 * Docker daemon answers, the image the Dockerfile builds from it runs too. Without a daemon (or without the
 * {@code docker} command, or without a registry to pull the base image from) the image is skipped, not failed:
 * the machine decides, not the code.
 */
class ReleaseArtifactIT {
    private static final Path JAR = Path.of("target", "loadgen.jar");

    @Test
    @Timeout(value = 120, threadMode = SEPARATE_THREAD)
    void theJarRunsWithJavaJar() throws Exception {
        assertTrue(Files.isRegularFile(JAR), "package leaves " + JAR);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Result version = run(60, java, "-jar", JAR.toString(), "--version");
        assertEquals(0, version.code, version.output);
        assertTrue(version.output.startsWith("loadgen "), version.output);
        Result run = run(60, java, "-jar", JAR.toString(), "run", "--driver", "noop", "--target", "1000",
                "--duration", "1s", "-q", "--json", "-");
        assertEquals(0, run.code, run.output);
        assertTrue(run.output.contains("\"schema_version\""), "the JSON summary on stdout: " + run.output);
    }

    @Test
    @Timeout(value = 900, threadMode = SEPARATE_THREAD)
    void theImageBuildsAndRunsWhereADockerDaemonAnswers() throws Exception {
        Result info = runOrNull(30, "docker", "info");
        Assumptions.assumeTrue(info != null && info.code == 0, "no Docker daemon here: the image is not built");
        Result build = run(600, "docker", "build", "-t", "loadgen:verify", "..");
        Assumptions.assumeFalse(build.code != 0 && pullFailed(build.output),
                "the base image could not be pulled here: " + lastLine(build.output));
        assertEquals(0, build.code, build.output);
        Result run = run(120, "docker", "run", "--rm", "loadgen:verify", "run", "--driver", "noop", "--target",
                "1000", "--duration", "1s", "-q", "--json", "-");
        assertEquals(0, run.code, run.output);
        assertTrue(run.output.contains("\"schema_version\""), run.output);
    }

    private static boolean pullFailed(String output) {
        String o = output.toLowerCase(java.util.Locale.ROOT);
        return o.contains("pull") || o.contains("dial tcp") || o.contains("registry") || o.contains("resolve");
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
        List<String> cmd = new ArrayList<>(List.of(command));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException(String.join(" ", cmd) + " did not end within " + seconds + " s");
        }
        return new Result(p.exitValue(), new String(out));
    }
}
