package io.loadgen.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every loadgen command line the README and the {@code docs/} pages show parses with the real commands' specs, so no example drifts from the
 * options: an option renamed or removed fails here, not for a user. The command lines are those in code blocks
 * (with or without a {@code $ } prompt, {@code \} continuations joined, a GitHub Actions {@code run:} step's
 * folded lines joined) and in inline code, that start with {@code ./loadgen} or {@code java -jar
 * loadgen-cli/target/loadgen.jar}. Parsing runs the options' converters (durations, rates, enums) as a run would,
 * but runs nothing: examples that need Redis on a port, minutes of time or files written by the example before
 * them are parsed all the same. A few cheap ones also run, below.
 */
class ReadmeExamplesTest {
    /** The README, the workloads' README, and every page under {@code docs/} (the generated reference too). */
    private static final List<Path> DOCS = docs();
    private static final Pattern FENCE = Pattern.compile("^\\s*```");
    private static final Pattern INLINE = Pattern.compile("`((?:\\./loadgen|java -jar loadgen-cli/target/loadgen\\.jar) [^`]+)`");
    private static final Pattern LAUNCHER = Pattern.compile(
            "^(?:\\$ )?(?:[A-Z_]+=\\S+ )*(?:\\./loadgen|java -jar loadgen-cli/target/loadgen\\.jar)(?: |$)(.*)");
    /** A GitHub Actions step's {@code run:}, one line or folded ({@code run: >}) over the more indented lines after it. */
    private static final Pattern YAML_RUN = Pattern.compile("^(\\s*)(?:- )?run: ?(>)?(.*)$");

    /**
     * Examples that elide on purpose ({@code ./loadgen report ...}) are not command lines; the reason for each.
     * Everything else must parse.
     */
    private static final Map<String, String> NOT_COMMANDS = Map.of(
            "...", "an elided command (the text says what goes there)",
            "\u2026", "an elided command (the text says what goes there)");

    @Test
    void everyExampleCommandLineParsesWithTheRealOptions() throws IOException {
        List<String> failures = new ArrayList<>();
        int parsed = 0;
        for (Path doc : DOCS) {
            for (Example e : examples(doc)) {
                if (NOT_COMMANDS.keySet().stream().anyMatch(e.line::contains)) {
                    continue;
                }
                String problem = parse(ShellWords.split(e.line));
                if (problem != null) {
                    failures.add(doc + ":" + e.lineNumber + ": " + e.line + "\n    " + problem);
                }
                parsed++;
            }
        }
        assertEquals(List.of(), failures, String.join("\n", failures));
        assertTrue(parsed >= 80, "the docs' examples were found: " + parsed);
    }

    /**
     * The docs' examples that need nothing but this JVM and write no file run for real, their {@code --duration}
     * cut to 200 ms, and succeed; the bad-input example prints the line the docs show.
     */
    @Test
    void cheapExamplesRunAsPrinted() throws IOException {
        List<String> all = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        for (Path doc : DOCS) {
            for (Example e : examples(doc)) {
                all.add(e.line);
            }
            text.append(Files.readString(doc)).append('\n');
        }
        for (String example : List.of("drivers", "run --help", "run --driver noop --duration 5s -q",
                "run --driver noop --threads 2 --duration 5s -q",
                "run --driver noop --target 100000 --wait park --duration 5s -q")) {
            assertTrue(all.contains(example), "a README example: " + example);
            List<String> args = new ArrayList<>(ShellWords.split(example));
            int duration = args.indexOf("--duration");
            if (duration >= 0) {
                args.set(duration + 1, "200ms");
            }
            Cli cli = Cli.run(args.toArray(new String[0]));
            assertEquals(0, cli.exitCode, example + ": " + cli.err);
        }
        String bad = "run --driver mockdb -p mockdb.dealy=4ms";
        assertTrue(all.contains(bad), bad);
        Cli cli = Cli.run(ShellWords.split(bad).toArray(new String[0]));
        assertEquals(2, cli.exitCode, cli.err);
        assertTrue(text.toString().contains("$ ./loadgen " + bad + "\n  " + cli.err.strip() + "\n"),
                "the docs show what it prints: " + cli.err);
    }

    /** Every Markdown page the tests read for examples, in a stable order. */
    static List<Path> docs() {
        List<Path> docs = new ArrayList<>(List.of(Path.of("../README.md"), Path.of("../workloads/README.md")));
        try (Stream<Path> pages = Files.walk(Path.of("../docs"))) {
            pages.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return List.copyOf(docs);
    }

    /** Null when {@code args} parse with the real command spec, else picocli's message. */
    static String parse(List<String> args) {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        PrintStream quiet = new PrintStream(sink, true, StandardCharsets.UTF_8);
        try {
            Main.commandLine(quiet, quiet).parseArgs(Main.ycsbPhase(args.toArray(new String[0])));
            return null;
        } catch (CommandLine.ParameterException e) {
            return e.getMessage();
        } catch (RuntimeException e) {
            return String.valueOf(e);
        }
    }

    private record Example(int lineNumber, String line) {
    }

    /** Every loadgen command line of {@code doc}: its arguments after the launcher, with its line number. */
    static List<Example> examples(Path doc) throws IOException {
        List<String> lines = Files.readAllLines(doc, StandardCharsets.UTF_8);
        List<Example> found = new ArrayList<>();
        boolean inBlock = false;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (FENCE.matcher(line).find()) {
                inBlock = !inBlock;
                continue;
            }
            if (!inBlock) {
                Matcher m = INLINE.matcher(line);
                while (m.find()) {
                    addIfCommand(found, i + 1, m.group(1));
                }
                continue;
            }
            int first = i;
            StringBuilder logical = new StringBuilder(line.strip());
            Matcher yaml = YAML_RUN.matcher(line);
            if (yaml.matches() && yaml.group(2) != null) { // run: > followed by indented lines, folded into one
                logical.setLength(0);
                String indent = yaml.group(1);
                while (i + 1 < lines.size() && lines.get(i + 1).startsWith(indent + "  ")) {
                    logical.append(' ').append(lines.get(++i).strip());
                }
            } else if (yaml.matches()) {
                logical = new StringBuilder(yaml.group(3).strip());
            }
            while (logical.toString().endsWith("\\") && i + 1 < lines.size()) {
                logical.setLength(logical.length() - 1);
                logical.append(' ').append(lines.get(++i).strip());
            }
            addIfCommand(found, first + 1, logical.toString().strip());
        }
        return found;
    }

    private static void addIfCommand(List<Example> found, int lineNumber, String text) {
        Matcher m = LAUNCHER.matcher(text);
        if (m.matches()) {
            found.add(new Example(lineNumber, m.group(1).strip()));
        }
    }

    /** A shell's word splitting, enough for the READMEs: quotes, backslashes, and a stop at comments and operators. */
    static final class ShellWords {
        private ShellWords() {
        }

        static List<String> split(String line) {
            List<String> words = new ArrayList<>();
            StringBuilder word = null;
            char quote = 0;
            for (int i = 0; i < line.length(); i++) {
                char c = line.charAt(i);
                if (quote != 0) {
                    if (c == quote) {
                        quote = 0;
                    } else {
                        word.append(c);
                    }
                } else if (c == '\'' || c == '"') {
                    quote = c;
                    word = word == null ? new StringBuilder() : word;
                } else if (c == '\\' && i + 1 < line.length()) {
                    word = word == null ? new StringBuilder() : word;
                    word.append(line.charAt(++i));
                } else if (Character.isWhitespace(c)) {
                    if (word != null) {
                        words.add(word.toString());
                        word = null;
                    }
                } else if (word == null && (c == '#' || c == '|' || c == '&' || c == ';' || c == '>')) {
                    break; // a comment, a pipe, a background or a redirection: the command ends here
                } else {
                    word = word == null ? new StringBuilder() : word;
                    word.append(c);
                }
            }
            if (word != null) {
                words.add(word.toString());
            }
            return words;
        }
    }
}
