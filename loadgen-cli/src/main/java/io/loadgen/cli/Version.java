package io.loadgen.cli;

import io.loadgen.core.summary.RunInfo;
import picocli.CommandLine.IVersionProvider;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import java.util.regex.Pattern;

/**
 * The version line: the version from the jar's manifest ("dev" when run from classes), the one JSON summaries
 * state, the commit the build was made from, and the Java it runs on:
 * {@code loadgen 0.1.0-SNAPSHOT (commit 9e2b8a1, 2026-11-27; Java 17.0.15+6-LTS)}. The commit comes from
 * {@code io/loadgen/cli/git.properties}, which the build writes (git-commit-id-maven-plugin, loadgen-cli/pom.xml):
 * its abbreviated id, with {@code -dirty} when the tree had uncommitted changes, and the commit's date (UTC). A
 * build from sources without {@code .git} has none: "commit unknown".
 */
final class Version implements IVersionProvider {
    static final String GIT_PROPERTIES = "git.properties";
    private static final Pattern COMMIT_ID = Pattern.compile("[0-9a-f]{4,40}");
    private static final Pattern DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");

    @Override
    public String[] getVersion() {
        return new String[]{line(RunInfo.loadgenVersion(), gitProperties(), Runtime.version().toString())};
    }

    static String line(String version, Properties git, String java) {
        return "loadgen " + version + " (" + commit(git) + "; Java " + java + ")";
    }

    /** {@code commit 9e2b8a1}, {@code commit 9e2b8a1-dirty, 2026-11-27}, or {@code commit unknown}. */
    static String commit(Properties git) {
        String id = git.getProperty("git.commit.id.abbrev", "").strip();
        if (!COMMIT_ID.matcher(id).matches()) {
            return "commit unknown";
        }
        StringBuilder s = new StringBuilder("commit ").append(id);
        if (Boolean.parseBoolean(git.getProperty("git.dirty", "false").strip())) {
            s.append("-dirty");
        }
        String time = git.getProperty("git.commit.time", "").strip();
        if (time.length() >= 10 && DATE.matcher(time.substring(0, 10)).matches()) {
            s.append(", ").append(time, 0, 10);
        }
        return s.toString();
    }

    /** The build's git.properties, or none (empty) when the build had no .git to read. */
    static Properties gitProperties() {
        Properties p = new Properties();
        try (InputStream in = Version.class.getResourceAsStream(GIT_PROPERTIES)) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException | IllegalArgumentException e) {
            return new Properties(); // unreadable: the version line says "commit unknown" rather than fail
        }
        return p;
    }
}
