package io.loadgen.cli;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The README stays a page a newcomer reads in five minutes, and the docs stay findable: the README is at most 300
 * lines and links every page under {@code docs/}; every relative link in the README, the workloads' README, the
 * changelog and the docs names a file that exists and, with a {@code #fragment}, a heading that file has (GitHub's
 * anchors); every hand-written page opens with a title and then says what it is for, before its first section.
 */
class DocsTest {
    private static final Path ROOT = Path.of("..");
    /** A Markdown link or image outside code: {@code [text](target)}, the target up to the first space or ')'. */
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final Pattern FENCE = Pattern.compile("^\\s*```");
    private static final Pattern HEADING = Pattern.compile("^(#{1,6})\\s+(.*?)\\s*#*\\s*$");

    @Test
    void theReadmeIsAtMost300Lines() throws IOException {
        int lines = Files.readAllLines(ROOT.resolve("README.md"), StandardCharsets.UTF_8).size();
        assertTrue(lines <= 300, "README.md has " + lines + " lines; move detail to a docs/ page");
    }

    @Test
    void theReadmeLinksEveryDocsPage() throws IOException {
        String readme = Files.readString(ROOT.resolve("README.md"));
        List<String> missing = new ArrayList<>();
        for (Path page : handWrittenPages()) {
            String rel = ROOT.relativize(page).toString().replace('\\', '/');
            if (!readme.contains("](" + rel + ")") && !readme.contains("](" + rel + "#")) {
                missing.add(rel);
            }
        }
        assertEquals(List.of(), missing, "README.md's table of contents of docs/ leaves these out");
    }

    @Test
    void everyRelativeLinkResolves() throws IOException {
        List<String> broken = new ArrayList<>();
        List<Path> pages = new ArrayList<>(ReadmeExamplesTest.docs());
        pages.add(ROOT.resolve("CHANGELOG.md"));
        for (Path page : pages) {
            List<String> lines = Files.readAllLines(page, StandardCharsets.UTF_8);
            boolean inBlock = false;
            for (int i = 0; i < lines.size(); i++) {
                if (FENCE.matcher(lines.get(i)).find()) {
                    inBlock = !inBlock;
                    continue;
                }
                if (inBlock) {
                    continue;
                }
                Matcher m = LINK.matcher(lines.get(i).replaceAll("`[^`]*`", "``"));
                while (m.find()) {
                    String problem = problem(page, m.group(1));
                    if (problem != null) {
                        broken.add(ROOT.relativize(page) + ":" + (i + 1) + ": " + m.group(1) + ": " + problem);
                    }
                }
            }
        }
        assertEquals(List.of(), broken, String.join("\n", broken));
    }

    @Test
    void everyPageSaysWhatItIsForBeforeItsFirstSection() throws IOException {
        List<String> bad = new ArrayList<>();
        for (Path page : handWrittenPages()) {
            List<String> lines = Files.readAllLines(page, StandardCharsets.UTF_8);
            int i = 0;
            if (lines.isEmpty() || !lines.get(0).startsWith("# ")) {
                bad.add(ROOT.relativize(page) + ": does not open with a '# Title' line");
                continue;
            }
            i++;
            while (i < lines.size() && lines.get(i).isBlank()) {
                i++;
            }
            if (i >= lines.size() || lines.get(i).startsWith("#") || lines.get(i).startsWith("```")
                    || lines.get(i).startsWith("|")) {
                bad.add(ROOT.relativize(page) + ": the title is not followed by a paragraph saying what the page is for");
            }
        }
        assertEquals(List.of(), bad, String.join("\n", bad));
    }

    /** Null when {@code target}, a link on {@code page}, resolves; else what is wrong. */
    private static String problem(Path page, String target) throws IOException {
        if (target.matches("^[a-z][a-z0-9+.-]*:.*")) {
            return null; // http:, https:, mailto: - not checked here
        }
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
        if (!Files.exists(resolved)) {
            return "no such file " + resolved;
        }
        if (hash < 0 || !resolved.toString().endsWith(".md")) {
            return null;
        }
        String anchor = target.substring(hash + 1);
        return anchors(resolved).contains(anchor) ? null : "no heading in " + resolved + " has the anchor #" + anchor;
    }

    /** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered -1, -2, .... */
    static Set<String> anchors(Path page) throws IOException {
        Set<String> anchors = new HashSet<>();
        boolean inBlock = false;
        for (String line : Files.readAllLines(page, StandardCharsets.UTF_8)) {
            if (FENCE.matcher(line).find()) {
                inBlock = !inBlock;
                continue;
            }
            Matcher m = HEADING.matcher(line);
            if (inBlock || !m.matches()) {
                continue;
            }
            String slug = m.group(2).toLowerCase(Locale.ROOT)
                    .replaceAll("\\[([^]]*)]\\([^)]*\\)", "$1")
                    .replaceAll("[^\\p{L}\\p{N} _-]", "")
                    .replace(' ', '-');
            String unique = slug;
            for (int n = 1; !anchors.add(unique); n++) {
                unique = slug + "-" + n;
            }
        }
        return anchors;
    }

    /** The docs pages people write (the generated reference is checked by {@link CliReferenceTest}). */
    private static List<Path> handWrittenPages() throws IOException {
        List<Path> pages = new ArrayList<>();
        for (Path p : ReadmeExamplesTest.docs()) {
            String rel = ROOT.relativize(p).toString().replace('\\', '/');
            if (rel.startsWith("docs/") && !rel.startsWith("docs/reference/")) {
                pages.add(p);
            }
        }
        return pages;
    }
}
