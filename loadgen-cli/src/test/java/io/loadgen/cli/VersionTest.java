package io.loadgen.cli;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The version line names the commit the build was made from, or says it is unknown. */
class VersionTest {
    @Test
    void theVersionLineNamesTheCommitOrSaysItIsUnknown() {
        String line = new Version().getVersion()[0];
        assertTrue(line.matches("loadgen \\S+ \\(commit ([0-9a-f]{7,40}(-dirty)?, \\d{4}-\\d{2}-\\d{2}|unknown);"
                + " Java \\S+\\)"), line);
        assertTrue(line.endsWith("; Java " + Runtime.version() + ")"), line);
    }

    @Test
    void theBuildWroteTheCommitOfThisCheckout() {
        // From a git checkout (a clone, or a worktree with its .git file) the build found the commit; sources
        // without .git build too, and say "commit unknown" (above).
        Assumptions.assumeTrue(Files.exists(Path.of("..", ".git")), "no .git here: the build had no commit to read");
        Properties git = Version.gitProperties();
        assertTrue(git.getProperty("git.commit.id.abbrev", "").matches("[0-9a-f]{7,40}"), git.toString());
        assertTrue(git.getProperty("git.dirty", "").matches("true|false"), git.toString());
        assertTrue(Version.commit(git).startsWith("commit " + git.getProperty("git.commit.id.abbrev")), git.toString());
    }

    @Test
    void theCommitIsThisCheckoutsHeadInAWorktreeToo() throws Exception {
        // A linked worktree's .git is a file; the plugin's JGit would read the main repository's HEAD there
        // (loadgen-cli/pom.xml, profile git-worktree). The git command says which commit is checked out here.
        Assumptions.assumeTrue(Files.exists(Path.of("..", ".git")), "no .git here: the build had no commit to read");
        String head;
        try {
            Process git = new ProcessBuilder("git", "-C", "..", "rev-parse", "HEAD").redirectErrorStream(true).start();
            head = new String(git.getInputStream().readAllBytes()).strip();
            Assumptions.assumeTrue(git.waitFor() == 0, "git rev-parse HEAD: " + head);
        } catch (IOException e) {
            Assumptions.abort("no git command here: " + e.getMessage());
            return;
        }
        String id = Version.gitProperties().getProperty("git.commit.id.abbrev", "");
        assertTrue(id.length() >= 7 && head.startsWith(id), "the build's commit " + id + " is HEAD, " + head);
    }

    @Test
    void theCommitIsItsAbbreviatedIdDirtyWhenTheTreeHadChangesAndItsDate() {
        assertEquals("commit 9e2b8a1, 2026-11-27", Version.commit(git("9e2b8a1", "false", "2026-11-27T04:39:08Z")));
        assertEquals("commit 9e2b8a1-dirty, 2026-11-27", Version.commit(git("9e2b8a1", "true", "2026-11-27T04:39:08Z")));
        assertEquals("commit 9e2b8a1", Version.commit(git("9e2b8a1", "false", "")));
        assertEquals("loadgen 0.1.0 (commit 9e2b8a1, 2026-11-27; Java 17.0.15+6)",
                Version.line("0.1.0", git("9e2b8a1", "false", "2026-11-27T04:39:08Z"), "17.0.15+6"));
    }

    @Test
    void aBuildWithoutGitSaysTheCommitIsUnknown() {
        assertEquals("commit unknown", Version.commit(new Properties()));
        assertEquals("commit unknown", Version.commit(git("${git.commit.id.abbrev}", "false", "")));
        assertEquals("loadgen dev (commit unknown; Java 25+36)", Version.line("dev", new Properties(), "25+36"));
    }

    private static Properties git(String id, String dirty, String time) {
        Properties p = new Properties();
        p.setProperty("git.commit.id.abbrev", id);
        p.setProperty("git.dirty", dirty);
        p.setProperty("git.commit.time", time);
        return p;
    }
}
