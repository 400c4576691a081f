package io.loadgen.plot.html;

import org.junit.jupiter.api.Assumptions;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Debian's {@code chromium}, run headless for one page at a time: {@code --dump-dom} after a virtual-time
 * budget (the DOM once the page's scripts have run, and what the page wrote to the console, which
 * {@code --enable-logging=stderr} turns into {@code CONSOLE} lines), or {@code --screenshot}. Each run
 * gets a fresh profile directory and no network, and is killed after {@link #TIMEOUT_SEC}. Installed with
 * apt-get when missing; a test is skipped, saying why, only when that is impossible. Test thread.
 */
final class HeadlessChromium {
    static final long TIMEOUT_SEC = 90;
    private static final long INSTALL_TIMEOUT_SEC = 900;

    /** What one page load left: the serialized DOM, and chromium's stderr. */
    record Load(String dom, String stderr) {
        /** The lines where the page wrote to the console (log, warning or error alike). */
        List<String> consoleLines() {
            return stderr.lines().filter(l -> l.contains(":CONSOLE")).toList();
        }
    }

    private final String executable;
    private final Path work;

    private HeadlessChromium(String executable, Path work) {
        this.executable = executable;
        this.work = work;
    }

    /** Chromium, installed first if missing; skips the calling test when it cannot be had. */
    static HeadlessChromium require(Path work) throws IOException, InterruptedException {
        String exe = onPath();
        if (exe == null) {
            String why = install(work);
            exe = onPath();
            Assumptions.assumeTrue(exe != null, "chromium is not installed and could not be installed (" + why
                    + "); install Debian's chromium (apt-get install -y chromium) to run the HTML explorer's browser test");
        }
        return new HeadlessChromium(exe, work);
    }

    private static String onPath() {
        for (String name : new String[]{"chromium", "chromium-browser"}) {
            for (String d : System.getenv().getOrDefault("PATH", "/usr/bin").split(File.pathSeparator)) {
                Path p = Path.of(d, name);
                if (Files.isExecutable(p)) {
                    return p.toString();
                }
            }
        }
        return null;
    }

    /** Runs apt-get; returns what went wrong, or "installed". */
    private static String install(Path work) throws IOException, InterruptedException {
        if (!Files.isExecutable(Path.of("/usr/bin/apt-get"))) {
            return "no apt-get on this machine";
        }
        Path out = work.resolve("apt-get.log");
        Process p = new ProcessBuilder("sh", "-c",
                "apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium")
                .redirectErrorStream(true).redirectOutput(out.toFile()).start();
        if (!p.waitFor(INSTALL_TIMEOUT_SEC, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return "apt-get took longer than " + INSTALL_TIMEOUT_SEC + " s";
        }
        if (p.exitValue() != 0) {
            List<String> lines = Files.readAllLines(out);
            return "apt-get exited with " + p.exitValue() + ": " + (lines.isEmpty() ? "" : lines.get(lines.size() - 1));
        }
        return "installed";
    }

    /** Loads {@code page} and returns its DOM once its scripts have run. */
    Load dumpDom(URI page) throws IOException, InterruptedException {
        return run(page, List.of("--virtual-time-budget=10000", "--dump-dom"));
    }

    /** Loads {@code page} in a window of the given size and writes a PNG of it to {@code png}. */
    Load screenshot(URI page, Path png, int width, int height) throws IOException, InterruptedException {
        return run(page, List.of("--virtual-time-budget=10000", "--hide-scrollbars",
                "--window-size=" + width + "," + height, "--screenshot=" + png.toAbsolutePath()));
    }

    private Load run(URI page, List<String> what) throws IOException, InterruptedException {
        Path profile = Files.createTempDirectory(work, "chromium-profile");
        Path out = Files.createTempFile(work, "chromium", ".out");
        Path err = Files.createTempFile(work, "chromium", ".err");
        List<String> command = new ArrayList<>(List.of(executable, "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--user-data-dir=" + profile, "--enable-logging=stderr", "--v=0"));
        command.addAll(what);
        command.add(page.toString());
        Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(TIMEOUT_SEC, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new AssertionError("chromium did not finish " + page + " within " + TIMEOUT_SEC + " s");
        }
        String stderr = Files.readString(err, StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            throw new AssertionError("chromium exited with " + p.exitValue() + " on " + page + ":\n" + stderr);
        }
        return new Load(Files.readString(out, StandardCharsets.UTF_8), stderr);
    }
}
