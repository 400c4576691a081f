package io.loadgen.cli;

import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Help.Ansi.Text;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The CLI reference, docs/reference/: one Markdown page per command (loadgen.md, loadgen-run.md, ...) and an index
 * (README.md), rendered from the commands' picocli specs as {@link Main} builds them, so the pages say what
 * {@code --help} says. picocli renders every piece (synopsis, descriptions with {@code ${DEFAULT-VALUE}} resolved,
 * option names and labels, the option order, footers): this class only lays the pieces out as Markdown.
 * {@link CliReferenceTest} checks docs/reference/ against it byte for byte.
 *
 * <p>Deterministic: no colours, the width fixed at {@link #WIDTH} (what {@code --help} uses without
 * {@code picocli.usage.width}), no version, date or path in the text, "\n" line ends.
 *
 * <p>Run {@link #main} to regenerate ({@link #REGENERATE}).
 */
public final class CliReference {
    /** The one-liner that rewrites docs/reference/, as the pages and the test's failure message name it. */
    static final String REGENERATE = "./mvnw -q -B -o -pl loadgen-cli -am process-test-classes -Preference";
    /** picocli's default usage width, fixed so that COLUMNS or picocli.usage.width cannot change the text. */
    static final int WIDTH = 80;
    static final String INDEX = "README.md";
    private static final String USAGE_WIDTH = "picocli.usage.width";

    private static final String GENERATED = "<!-- Generated from the commands' picocli specs by"
            + " loadgen-cli/src/test/java/io/loadgen/cli/CliReference.java; do not edit. Regenerate with: "
            + REGENERATE + " -->";

    private CliReference() {
    }

    /** Writes the reference into {@code args[0]} (default docs/reference), removing pages of commands that are gone. */
    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args.length > 0 ? args[0] : "docs/reference");
        write(dir);
        System.out.println("loadgen: wrote the CLI reference into " + dir.toAbsolutePath().normalize());
    }

    /** Writes every page into {@code dir} and deletes the other .md files there. */
    static void write(Path dir) throws IOException {
        Map<String, String> pages = pages();
        Files.createDirectories(dir);
        try (Stream<Path> old = Files.list(dir)) {
            for (Path p : old.filter(p -> p.getFileName().toString().endsWith(".md")).toList()) {
                if (!pages.containsKey(p.getFileName().toString())) {
                    Files.delete(p);
                }
            }
        }
        for (Map.Entry<String, String> page : pages.entrySet()) {
            Files.writeString(dir.resolve(page.getKey()), page.getValue(), StandardCharsets.UTF_8);
        }
    }

    /**
     * File name to content: the index first, then one page per command in the order {@code loadgen --help} lists them.
     * picocli's {@code picocli.usage.width} system property overrides any width a spec sets, so it is cleared while
     * the pages are rendered (and restored after).
     */
    static synchronized Map<String, String> pages() {
        String width = System.clearProperty(USAGE_WIDTH);
        try {
            return render();
        } finally {
            if (width != null) {
                System.setProperty(USAGE_WIDTH, width);
            }
        }
    }

    private static Map<String, String> render() {
        PrintStream nowhere = new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8);
        CommandLine root = Main.commandLine(nowhere, nowhere);
        List<CommandSpec> commands = new ArrayList<>();
        collect(root.getCommandSpec(), commands);
        Map<String, String> pages = new LinkedHashMap<>();
        pages.put(INDEX, index(commands));
        for (CommandSpec spec : commands) {
            pages.put(fileName(spec), page(spec));
        }
        return pages;
    }

    private static void collect(CommandSpec spec, List<CommandSpec> into) {
        into.add(spec);
        for (CommandLine sub : new LinkedHashMap<>(spec.subcommands()).values().stream().distinct().toList()) {
            if (!sub.getCommandSpec().usageMessage().hidden()) {
                collect(sub.getCommandSpec(), into);
            }
        }
    }

    static String fileName(CommandSpec spec) {
        return spec.qualifiedName("-") + ".md";
    }

    private static Help help(CommandSpec spec) {
        spec.usageMessage().width(WIDTH).autoWidth(false);
        return new Help(spec, Help.defaultColorScheme(Help.Ansi.OFF));
    }

    private static String index(List<CommandSpec> commands) {
        StringBuilder md = new StringBuilder();
        md.append("# loadgen CLI reference\n\n").append(GENERATED).append("\n\n");
        md.append("Every command's usage, options (with their declared defaults) and exit codes, generated from the"
                + " same picocli specs that print `--help`, so the two agree; `CliReferenceTest` fails when these"
                + " pages differ from the code.\n\n");
        md.append("A Default is the value picocli applies when the option is absent; where the default depends on"
                + " other input (the workload, the driver, another option) the column is blank and the description"
                + " says what it is.\n\n");
        md.append("Regenerate with: `").append(REGENERATE).append("`\n\n");
        md.append("| Command | Description |\n|---|---|\n");
        for (CommandSpec spec : commands) {
            md.append("| [").append(spec.qualifiedName()).append("](").append(fileName(spec)).append(") | ")
                    .append(cell(oneLine(spec))).append(" |\n");
        }
        return md.toString();
    }

    /** The line {@code loadgen --help} lists a command with: picocli's choice, the header, else the first description line. */
    private static String oneLine(CommandSpec spec) {
        String[] header = spec.usageMessage().header();
        String[] lines = header.length > 0 ? header : spec.usageMessage().description();
        return lines.length == 0 ? "" : formatted(lines[0]);
    }

    private static String page(CommandSpec spec) {
        Help help = help(spec);
        StringBuilder md = new StringBuilder();
        md.append("# ").append(spec.qualifiedName()).append("\n\n").append(GENERATED).append("\n\n");
        for (String paragraph : spec.usageMessage().description()) {
            md.append(text(formatted(paragraph))).append("\n\n");
        }
        md.append("## Usage\n\n```text\n")
                .append(block(help.synopsisHeading() + help.synopsis(help.synopsisHeadingLength()))).append("```\n\n");
        options(spec, help, md);
        positionals(spec, help, md);
        subcommands(spec, md);
        footer(spec, help, md);
        return md.toString();
    }

    private static void options(CommandSpec spec, Help help, StringBuilder md) {
        List<OptionSpec> options = spec.options().stream().filter(o -> !o.hidden()).collect(Collectors.toList());
        if (options.isEmpty()) {
            return;
        }
        Comparator<OptionSpec> order = help.createDefaultOptionSort();
        if (order != null) {
            options.sort(order);
        }
        Help.IOptionRenderer renderer = help.createDefaultOptionRenderer();
        Help.IParamLabelRenderer labels = help.createDefaultParamLabelRenderer();
        md.append("## Options\n\n| Option | Default | Description |\n|---|---|---|\n");
        for (OptionSpec option : options) {
            Text[][] rows = renderer.render(option, labels, help.colorScheme());
            String names = names(rows);
            md.append("| ").append(code(names)).append(" | ")
                    .append(option.defaultValue() == null ? "" : code(option.defaultValue())).append(" | ")
                    .append(description(rows)).append(" |\n");
        }
        md.append('\n');
    }

    private static void positionals(CommandSpec spec, Help help, StringBuilder md) {
        List<PositionalParamSpec> params = spec.positionalParameters().stream().filter(p -> !p.hidden()).toList();
        if (params.isEmpty()) {
            return;
        }
        Help.IParameterRenderer renderer = help.createDefaultParameterRenderer();
        Help.IParamLabelRenderer labels = help.createDefaultParamLabelRenderer();
        md.append("## Arguments\n\n| Argument | Default | Description |\n|---|---|---|\n");
        for (PositionalParamSpec param : params) {
            Text[][] rows = renderer.render(param, labels, help.colorScheme());
            md.append("| ").append(code(names(rows))).append(" | ")
                    .append(param.defaultValue() == null ? "" : code(param.defaultValue())).append(" | ")
                    .append(description(rows)).append(" |\n");
        }
        md.append('\n');
    }

    /** The names column of picocli's rendered rows, as --help shows it: "-R, -target, --target=OPS". */
    private static String names(Text[][] rows) {
        String separator = rows[0][2].toString(); // "," between names, "=" before a short option's label
        return (rows[0][1] + separator + (separator.equals(",") ? " " : "") + rows[0][3]).strip();
    }

    /** The description column of picocli's rendered rows: one row per description line (not wrapped yet). */
    private static String description(Text[][] rows) {
        return Arrays.stream(rows).map(row -> row[4].toString().strip()).filter(s -> !s.isEmpty())
                .map(CliReference::cell).collect(Collectors.joining("<br>"));
    }

    private static void subcommands(CommandSpec spec, StringBuilder md) {
        List<CommandSpec> subs = spec.subcommands().values().stream().distinct().map(CommandLine::getCommandSpec)
                .filter(s -> !s.usageMessage().hidden()).toList();
        if (subs.isEmpty()) {
            return;
        }
        md.append("## Commands\n\n| Command | Description |\n|---|---|\n");
        for (CommandSpec sub : subs) {
            md.append("| [").append(sub.name()).append("](").append(fileName(sub)).append(") | ")
                    .append(cell(oneLine(sub))).append(" |\n");
        }
        md.append('\n');
    }

    /**
     * The footer as {@code --help} prints it, except its exit-code paragraph, which gets its own section; a command
     * whose footer names none exits as the launcher's footer ({@code loadgen --help}) says.
     */
    private static void footer(CommandSpec spec, Help help, StringBuilder md) {
        String[] footer = spec.usageMessage().footer();
        List<String> exitCodes = Arrays.stream(footer).filter(CliReference::isExitCodes).toList();
        String[] rest = Arrays.stream(footer).filter(l -> !isExitCodes(l)).toArray(String[]::new);
        if (Arrays.stream(rest).anyMatch(l -> !l.isBlank())) {
            spec.usageMessage().footer(rest);
            md.append("## Notes\n\n```text\n").append(block(help.footer())).append("```\n\n");
            spec.usageMessage().footer(footer);
        }
        md.append("## Exit codes\n\n");
        if (exitCodes.isEmpty()) {
            md.append("This command's help lists none; the launcher's, as `loadgen --help` lists them:\n\n")
                    .append(text(formatted(Main.EXIT_CODES))).append('\n');
        } else {
            md.append(exitCodes.stream().map(l -> text(formatted(l))).collect(Collectors.joining("\n\n"))).append('\n');
        }
    }

    private static boolean isExitCodes(String footerLine) {
        return footerLine.startsWith("Exit codes:");
    }

    /** A description or footer line as picocli prints it: a format string ({@code %%}, {@code %n}), no ANSI. */
    private static String formatted(String line) {
        return Help.Ansi.OFF.string(String.format(line)).strip();
    }

    /** Text for a preformatted block: blank lines at the ends dropped, trailing spaces trimmed, "\n" line ends. */
    private static String block(String text) {
        String trimmed = text.lines().map(String::stripTrailing).collect(Collectors.joining("\n")).strip();
        return trimmed + "\n";
    }

    /** Markdown text: characters Markdown would read as markup are escaped. */
    static String text(String s) {
        StringBuilder out = new StringBuilder(s.length() + 16);
        for (char c : s.toCharArray()) {
            if ("\\`*_[]<>|#".indexOf(c) >= 0) {
                out.append('\\');
            }
            out.append(c);
        }
        return out.toString();
    }

    /** Text in a table cell: escaped, and one line ({@code <br>} between lines). */
    private static String cell(String s) {
        return s.lines().map(String::strip).map(CliReference::text).collect(Collectors.joining("<br>"));
    }

    /** A code span in a table cell: backticks around, {@code |} escaped (GitHub splits cells on it even there). */
    private static String code(String s) {
        String fence = s.contains("`") ? "`` " : "`";
        return fence + s.replace("|", "\\|") + new StringBuilder(fence).reverse();
    }
}
