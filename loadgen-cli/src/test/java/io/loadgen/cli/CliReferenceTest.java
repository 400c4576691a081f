package io.loadgen.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * docs/reference/ is what {@link CliReference} generates from the commands' specs today, byte for byte, so the
 * reference cannot drift from {@code --help}: a changed option, description or default fails here, naming the
 * command that rewrites the pages.
 */
class CliReferenceTest {
    private static final Path DOCS = Path.of("..", "docs", "reference");

    @TempDir
    Path generated;

    @Test
    void docsReferenceIsWhatTheSpecsGenerate() throws IOException {
        CliReference.write(generated);
        Set<String> names = new TreeSet<>(markdown(generated));
        names.addAll(markdown(DOCS));
        List<String> stale = new ArrayList<>();
        for (String name : names) {
            Path doc = DOCS.resolve(name);
            Path fresh = generated.resolve(name);
            if (!Files.exists(fresh)) {
                stale.add("docs/reference/" + name + ": no such command any more");
            } else if (!Files.exists(doc)) {
                stale.add("docs/reference/" + name + ": missing");
            } else if (!Arrays.equals(Files.readAllBytes(doc), Files.readAllBytes(fresh))) {
                stale.add("docs/reference/" + name + ": " + firstDifference(Files.readString(doc), Files.readString(fresh)));
            }
        }
        assertTrue(stale.isEmpty(), "docs/reference/ differs from the commands' picocli specs:\n  "
                + String.join("\n  ", stale) + "\nRegenerate it with: " + CliReference.REGENERATE);
    }

    /**
     * The text depends on the specs alone: picocli's width and ANSI system properties (which a terminal's user may
     * set) change nothing, and no page names this machine's directories or this JVM's version.
     */
    @Test
    void pagesDoNotDependOnTheMachine() {
        Map<String, String> plain = CliReference.pages();
        String width = System.getProperty("picocli.usage.width");
        String ansi = System.getProperty("picocli.ansi");
        Map<String, String> wideAndColoured;
        try {
            System.setProperty("picocli.usage.width", "200");
            System.setProperty("picocli.ansi", "true");
            wideAndColoured = CliReference.pages();
        } finally {
            restore("picocli.usage.width", width);
            restore("picocli.ansi", ansi);
        }
        assertEquals(plain, wideAndColoured);
        for (Map.Entry<String, String> page : plain.entrySet()) {
            for (String local : List.of(System.getProperty("user.dir"), System.getProperty("user.home"),
                    Runtime.version().toString())) {
                assertTrue(!page.getValue().contains(local), page.getKey() + " names '" + local + "'");
            }
        }
    }

    /** Every visible option of every command has a row, and each declared default is in its row's Default cell. */
    @Test
    void everyOptionAndDeclaredDefaultIsListed() {
        Map<String, String> pages = CliReference.pages();
        PrintStream nowhere = new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8);
        List<CommandSpec> commands = new ArrayList<>();
        CommandLine root = Main.commandLine(nowhere, nowhere);
        commands.add(root.getCommandSpec());
        root.getSubcommands().values().forEach(c -> commands.add(c.getCommandSpec()));
        assertEquals(commands.size() + 1, pages.size(), "an index and a page per command: " + pages.keySet());
        for (CommandSpec spec : commands) {
            String page = pages.get(CliReference.fileName(spec));
            assertTrue(pages.get(CliReference.INDEX).contains("](" + CliReference.fileName(spec) + ")"),
                    "the index links " + spec.qualifiedName());
            for (OptionSpec option : spec.options()) {
                if (option.hidden()) {
                    continue;
                }
                Set<String> names = Set.of(option.names());
                String row = page.lines().filter(l -> l.startsWith("| `") && names.equals(rowNames(l)))
                        .findFirst().orElse(null);
                assertTrue(row != null, spec.qualifiedName() + " " + option.longestName() + " has no row");
                if (option.defaultValue() != null) {
                    assertTrue(row.contains(" | `" + option.defaultValue() + "` | "),
                            spec.qualifiedName() + " " + option.longestName() + ": " + row);
                }
            }
        }
    }

    /** Each page's usage and notes are what {@code --help} prints, verbatim (picocli's default width, no colours). */
    @Test
    void usageAndNotesBlocksAreWhatHelpPrints() {
        assumeTrue(System.getProperty("picocli.usage.width") == null, "--help's width is set by picocli.usage.width");
        Map<String, String> pages = CliReference.pages();
        int blocks = 0;
        for (Map.Entry<String, String> page : pages.entrySet()) {
            if (page.getKey().equals(CliReference.INDEX)) {
                continue;
            }
            List<String> command = new ArrayList<>(List.of(page.getKey().replaceFirst("\\.md$", "").split("-", 2)));
            command.remove(0); // loadgen
            command.add("--help");
            Cli help = Cli.run(command.toArray(String[]::new));
            assertEquals(0, help.exitCode, help.err);
            String printed = help.out.lines().map(String::stripTrailing).collect(Collectors.joining("\n"));
            Matcher block = Pattern.compile("```text\n(.*?)```\n", Pattern.DOTALL).matcher(page.getValue());
            while (block.find()) {
                assertTrue(printed.contains(block.group(1).strip()), page.getKey() + ": not in " + command + ":\n"
                        + block.group(1) + "\n--- it prints:\n" + printed);
                blocks++;
            }
        }
        assertTrue(blocks >= pages.size() - 1, "a usage block per command: " + blocks);
    }

    @Test
    void readmeLinksTheReference() throws IOException {
        assertTrue(Files.readString(Path.of("..", "README.md")).contains("(docs/reference/README.md)"));
    }

    /** The option names in a row's first cell: "| `-R, -target, --target=OPS` |" is -R, -target and --target. */
    private static Set<String> rowNames(String row) {
        String cell = row.substring(3, row.indexOf("` |"));
        return Arrays.stream(cell.split(", ")).map(n -> n.replaceAll("\\[?=.*$", "")).collect(Collectors.toSet());
    }

    private static List<String> markdown(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".md")).collect(Collectors.toList());
        }
    }

    /** The first line that differs, numbered from 1, as committed and as generated. */
    static String firstDifference(String doc, String fresh) {
        List<String> a = doc.lines().toList();
        List<String> b = fresh.lines().toList();
        int line = 0;
        while (line < a.size() && line < b.size() && a.get(line).equals(b.get(line))) {
            line++;
        }
        if (line == a.size() && line == b.size()) {
            return "line ends or the final newline differ";
        }
        return "line " + (line + 1) + "\n      committed: " + (line < a.size() ? a.get(line) : "(end of file)")
                + "\n      generated: " + (line < b.size() ? b.get(line) : "(end of file)");
    }

    private static void restore(String key, String value) {
        if (value == null) {
            System.clearProperty(key);
        } else {
            System.setProperty(key, value);
        }
    }
}
