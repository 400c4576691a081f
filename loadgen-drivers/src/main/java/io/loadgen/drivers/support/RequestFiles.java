package io.loadgen.drivers.support;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.loadgen.core.BadInputException;
import io.loadgen.core.ParseErrors;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Reads a driver's file of named requests ({@code http.requests}, {@code redis.requests}): YAML or JSON, as a tree
 * the driver then checks entry by entry. Stateless; called on the main thread.
 */
public final class RequestFiles {
    private RequestFiles() {
    }

    /**
     * The file's tree (null for an empty file).
     *
     * @param property   the property that named the file, for messages
     * @param missingFix what to give instead of a file that does not exist, e.g. "a YAML or JSON requests file"
     * @param form       what the file should hold, for a file that does not parse, e.g. "a YAML or JSON list of requests"
     * @throws BadInputException for a file that does not exist, cannot be read or does not parse, naming it
     */
    public static JsonNode read(Path file, String property, String missingFix, String form) {
        try {
            return new ObjectMapper(new YAMLFactory()).readTree(Files.readString(file, StandardCharsets.UTF_8));
        } catch (NoSuchFileException e) {
            throw new BadInputException("property " + property + ": " + file + " does not exist; give the path of "
                    + missingFix);
        } catch (JsonProcessingException e) {
            throw new BadInputException(property + " " + ParseErrors.at(file, e) + "; fix it: " + form, e);
        } catch (IOException e) {
            throw new BadInputException("property " + property + ": cannot read " + file + " (" + e.getMessage() + ")",
                    e);
        }
    }
}
