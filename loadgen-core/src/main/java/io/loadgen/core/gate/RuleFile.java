package io.loadgen.core.gate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.loadgen.core.BadInputException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads gate rules from a file: one rule per line, {@code #} starting a comment, blank lines
 * ignored; or a YAML or JSON list of rule strings (also under a top-level {@code rules:} key); or k6's
 * {@code thresholds} object, as a k6 script's options hold it ({@link K6Thresholds}). Stateless; any thread.
 *
 * <pre>
 * # gates for the nightly run
 * READ.intended.p99 &lt; 5ms
 * READ.intended.p99 &lt; 20ms over 10s windows   # no bad 10 s
 * READ.errors &lt; 0.1%
 * </pre>
 */
public final class RuleFile {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private RuleFile() {
    }

    /**
     * @param option names the option in messages, e.g. {@code --rule-file}
     * @throws BadInputException for a missing file or a bad rule, naming the file and line
     */
    public static List<Rule> read(Path file, String option) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new BadInputException(option + " " + file + ": no such file; give a file with one rule per line");
        } catch (IOException e) {
            throw new BadInputException(option + " " + file + ": cannot read it (" + e.getMessage() + ")", e);
        }
        List<Rule> rules = isStructured(text) ? fromYaml(file, option, text) : fromLines(file, text);
        if (rules.isEmpty()) { // a gate of no rules would pass whatever ran
            throw new BadInputException(option + " " + file + ": holds no rule; write one rule per line, e.g."
                    + " READ.intended.p99 < 5ms");
        }
        return rules;
    }

    private static List<Rule> fromLines(Path file, String text) {
        List<Rule> rules = new ArrayList<>();
        String[] lines = text.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = stripComment(lines[i]).trim();
            if (line.isEmpty()) {
                continue;
            }
            try {
                rules.add(RuleParser.parse(line));
            } catch (BadInputException e) {
                throw new BadInputException(file + ":" + (i + 1) + ": " + e.getMessage(), e);
            }
        }
        return rules;
    }

    private static List<Rule> fromYaml(Path file, String option, String text) {
        JsonNode root;
        try {
            root = YAML.readTree(text);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new BadInputException(option + " " + io.loadgen.core.ParseErrors.at(file, e)
                    + "; fix it: a YAML or JSON list of rules, e.g. - 'READ.intended.p99 < 5ms'", e);
        } catch (IOException e) {
            throw new BadInputException(option + " " + file + ": cannot read it (" + e.getMessage() + ")", e);
        }
        if (root != null && root.isObject() && !root.has("rules")) {
            return K6Thresholds.read(file, root.has("thresholds") ? root.get("thresholds") : root);
        }
        JsonNode list = root != null && root.isObject() ? root.get("rules") : root;
        if (list == null || !list.isArray()) {
            throw new BadInputException(option + " " + file + ": expected a list of rules (or 'rules:' holding one),"
                    + " e.g. - 'READ.intended.p99 < 5ms'");
        }
        List<Rule> rules = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            JsonNode item = list.get(i);
            if (!item.isTextual()) {
                throw new BadInputException(file + ": rule " + (i + 1) + " is not a string; quote it, e.g."
                        + " - 'READ.intended.p99 < 5ms'");
            }
            try {
                rules.add(RuleParser.parse(item.asText()));
            } catch (BadInputException e) {
                throw new BadInputException(file + ": rule " + (i + 1) + ": " + e.getMessage(), e);
            }
        }
        return rules;
    }

    /** A YAML or JSON file starts, past comments and blank lines, with a list item, a list or an object. */
    private static boolean isStructured(String text) {
        for (String line : text.split("\r?\n")) {
            String t = stripComment(line).trim();
            if (!t.isEmpty()) {
                return t.startsWith("-") || t.startsWith("[") || t.startsWith("{") || t.startsWith("rules:")
                        || t.startsWith("thresholds:");
            }
        }
        return false;
    }

    private static String stripComment(String line) {
        int hash = line.indexOf('#');
        return hash < 0 ? line : line.substring(0, hash);
    }
}
