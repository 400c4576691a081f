package io.loadgen.cli;

import io.loadgen.core.BadInputException;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Expands quoted glob patterns among input files ({@code 'logs/shard-*.hlog'}), as {@code report},
 * {@code gate} and {@code plot} read them: a Kubernetes Job's command has no shell to expand them. A
 * pattern is an input with {@code * ? [ {} in it that names no existing file (an existing file is read as
 * named, whatever its name); it matches with the JDK's glob syntax, from its last directory without
 * pattern characters, and expands to the matching regular files in sorted order. Stateless.
 */
final class InputGlobs {
    private static final String META = "*?[{";

    private InputGlobs() {
    }

    /**
     * {@code inputs} with each pattern replaced by its matches, in the order given.
     *
     * @throws BadInputException when a pattern matches no file
     */
    static List<Path> expand(List<Path> inputs) throws IOException {
        List<Path> expanded = new ArrayList<>();
        for (Path input : inputs) {
            if (!isPattern(input) || Files.exists(input)) {
                expanded.add(input);
                continue;
            }
            List<Path> matches = matches(input);
            if (matches.isEmpty()) {
                throw new BadInputException("no file matches '" + input + "'; check the pattern and the directory"
                        + " (the logs of every shard must be written there first)");
            }
            expanded.addAll(matches);
        }
        return expanded;
    }

    private static boolean isPattern(Path input) {
        return input.toString().chars().anyMatch(c -> META.indexOf(c) >= 0);
    }

    private static List<Path> matches(Path pattern) throws IOException {
        Path root = pattern.isAbsolute() ? pattern.getRoot() : null;
        int literal = 0;
        while (literal < pattern.getNameCount() - 1 && !isPattern(pattern.getName(literal))) {
            root = root == null ? pattern.getName(literal) : root.resolve(pattern.getName(literal));
            literal++;
        }
        Path here = Path.of(".");
        Path start = root == null ? here : root;
        if (!Files.isDirectory(start)) {
            return List.of();
        }
        PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + pattern);
        boolean relative = root == null;
        try (Stream<Path> walk = Files.walk(start, pattern.getNameCount() - literal)) {
            return walk.map(p -> relative ? here.relativize(p) : p)
                    .filter(p -> matcher.matches(p) && Files.isRegularFile(p))
                    .sorted()
                    .toList();
        }
    }
}
