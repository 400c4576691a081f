package io.loadgen.core;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A YAML or JSON file that does not parse is said in one line, {@code FILE:LINE:COLUMN: PROBLEM} (issue 24 item 6:
 * a YAML error was 7 lines of SnakeYAML's text, its context, marks and carets).
 */
class ParseErrorsTest {
    private static final Path FILE = Path.of("rules.yaml");

    private static JsonProcessingException yamlError(String text) {
        JsonProcessingException e = assertThrows(JsonProcessingException.class,
                () -> new ObjectMapper(new YAMLFactory()).readTree(text));
        assertTrue(e.getOriginalMessage().lines().count() > 3, "SnakeYAML's own text is several lines: " + e.getOriginalMessage());
        return e;
    }

    @Test
    void anUnclosedQuoteIsOneLineWithWhereTheParserStopped() {
        String line = ParseErrors.at(FILE, yamlError("rules:\n  - \"a < 1\n  - b\n"));
        assertEquals("rules.yaml:4:1: found unexpected end of stream", line);
    }

    @Test
    void aBadIndentNamesItsLineAndColumn() {
        String line = ParseErrors.at(FILE, yamlError("- name: a\n  url: http://127.0.0.1:1/\n   method: GET\n"));
        assertEquals("rules.yaml:3:10: mapping values are not allowed here", line);
    }

    @Test
    void jsonLosesItsSourceTrailerAndKeepsItsPlace() {
        JsonProcessingException e = assertThrows(JsonProcessingException.class,
                () -> new ObjectMapper().readTree("{\n  \"a\": 1,\n  }\n"));
        String line = ParseErrors.at(Path.of("run.json"), e);
        assertTrue(line.startsWith("run.json:3:3: Unexpected character ('}' (code 125))"), line);
        assertTrue(!line.contains("\n") && !line.contains("[Source"), line);
    }
}
