package io.loadgen.core;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The packages of loadgen-core depend on each other one way (docs/ARCHITECTURE.md, "Layers of loadgen-core"):
 * no package reaches, directly or through others, back to itself. Reads the main sources, takes each file's
 * dependencies on other {@code io.loadgen.core} packages from its imports (static and wildcard ones too) and
 * from fully-qualified names in its code (comments and string literals aside), and fails on any cycle between
 * packages, naming it and the files that make each of its edges.
 *
 * <p>A name is read by Java's conventions: lower-case segments are packages, the first capitalised one is a
 * class ({@code io.loadgen.core.record.StatusTags.legend()} is a use of {@code io.loadgen.core.record}).
 */
class LayeringTest {
    private static final String ROOT = "io.loadgen.core";
    private static final Pattern PACKAGE = Pattern.compile("^\\s*package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);
    /** {@code io.loadgen.core[.sub...].Class} or {@code .*}, with any white space around the dots. */
    private static final Pattern REFERENCE = Pattern.compile(
            "\\bio\\s*\\.\\s*loadgen\\s*\\.\\s*core((?:\\s*\\.\\s*[a-z_][a-z0-9_]*)*)\\s*\\.\\s*(?:[A-Z]|\\*)");

    @Test
    void corePackagesHaveNoCycle() throws IOException {
        Map<String, Map<String, Set<String>>> graph = dependencies(mainSources());
        assertTrue(graph.size() >= 10, "too few packages found, is the source root right? " + graph.keySet());
        assertTrue(graph.get(ROOT + ".run").containsKey(ROOT + ".driver"), "run uses the driver SPI: " + graph);

        List<String> cycles = cycles(graph);
        if (!cycles.isEmpty()) {
            fail("loadgen-core's packages must depend on each other one way (docs/ARCHITECTURE.md, "
                    + "\"Layers of loadgen-core\"); move the class or member that closes the circle:\n"
                    + String.join("\n", cycles));
        }
    }

    // The checks below feed the scanner known sources, so the layering test above cannot pass by reading nothing.

    @Test
    void importsStaticImportsWildcardsAndQualifiedNamesAreDependencies() {
        Map<String, Map<String, Set<String>>> graph = dependencies(Map.of(
                "a/A.java", """
                        package io.loadgen.core.a;
                        import io.loadgen.core.b.B;
                        import static io.loadgen.core.c.C.CONSTANT;
                        import io.loadgen.core.d.*;
                        import io.loadgen.core.Limits;
                        class A {
                            int x = io.loadgen.core.e.sub.E.legend();
                            Object y = io.loadgen.core
                                    .f.F.NONE;
                            Object z = io.loadgen.core.a.Same.X; // the package itself is no dependency
                        }
                        """));
        assertEquals(Set.of(ROOT + ".b", ROOT + ".c", ROOT + ".d", ROOT, ROOT + ".e.sub", ROOT + ".f"),
                graph.get(ROOT + ".a").keySet());
    }

    @Test
    void commentsAndStringsAreNotDependencies() {
        String tq = "\"\"\""; // a text block's quotes
        Map<String, Map<String, Set<String>>> graph = dependencies(Map.of(
                "a/A.java", String.join("\n",
                        "package io.loadgen.core.a;",
                        "/** Like {@link io.loadgen.core.b.B}, but \"quoted\" and 'x'. */",
                        "class A {",
                        "    // io.loadgen.core.c.C.call();",
                        "    String s = \"io.loadgen.core.d.D\";",
                        "    String t = " + tq,
                        "            io.loadgen.core.e.E \\" + tq + " still text",
                        "            " + tq + ";",
                        "    char q = '\"';",
                        "    String u = \"\\\" io.loadgen.core.f.F\";",
                        "    /* io.loadgen.core.g.G */ Object v = io.loadgen.core.h.H.NONE;",
                        "}")));
        assertEquals(Set.of(ROOT + ".h"), graph.get(ROOT + ".a").keySet());
    }

    @Test
    void aCycleIsFoundAndNamedWithItsFiles() {
        Map<String, Map<String, Set<String>>> graph = dependencies(Map.of(
                "a/A.java", "package io.loadgen.core.a;\nimport io.loadgen.core.b.B;\nclass A {}\n",
                "b/B.java", "package io.loadgen.core.b;\nclass B { Object c = io.loadgen.core.c.C.NONE; }\n",
                "c/C.java", "package io.loadgen.core.c;\nimport static io.loadgen.core.a.A.X;\nclass C {}\n",
                "d/D.java", "package io.loadgen.core.d;\nimport io.loadgen.core.a.A;\nclass D {}\n"));
        List<String> cycles = cycles(graph);
        assertEquals(1, cycles.size(), cycles.toString());
        assertEquals("a -> b -> c -> a  (a -> b: a/A.java; b -> c: b/B.java; c -> a: c/C.java)", cycles.get(0));

        graph.get(ROOT + ".d").clear();
        graph.get(ROOT + ".c").clear();
        assertTrue(cycles(graph).isEmpty(), "a chain is no cycle");
    }

    @Test
    void twoPackagesUsingEachOtherAreACycle() {
        Map<String, Map<String, Set<String>>> graph = dependencies(Map.of(
                "x/X.java", "package io.loadgen.core.x;\nimport io.loadgen.core.Y;\nclass X {}\n",
                "Y.java", "package io.loadgen.core;\nclass Y { int n = io.loadgen.core.x.X.N; }\n"));
        List<String> cycles = cycles(graph);
        assertFalse(cycles.isEmpty());
        assertEquals("(root) -> x -> (root)  ((root) -> x: Y.java; x -> (root): x/X.java)", cycles.get(0));
    }

    /** Each main source file of loadgen-core, by its path under the source root, and its text. */
    private static Map<String, String> mainSources() throws IOException {
        Path root = Stream.of(Path.of("src/main/java"), Path.of("loadgen-core/src/main/java"))
                .filter(p -> Files.isDirectory(p.resolve("io/loadgen/core")))
                .findFirst().orElseThrow(() -> new AssertionError("loadgen-core's src/main/java not found from "
                        + Path.of("").toAbsolutePath()));
        try (Stream<Path> files = Files.walk(root)) {
            Map<String, String> sources = new TreeMap<>();
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                try {
                    sources.put(root.relativize(f).toString().replace('\\', '/'),
                            Files.readString(f, StandardCharsets.UTF_8));
                } catch (IOException e) {
                    throw new UncheckedIOException(f.toString(), e);
                }
            }
            return sources;
        }
    }

    /**
     * Package → the other io.loadgen.core packages it uses → the files (as keyed in {@code sources}) that use
     * them. Every package with a source file is a key, even one that uses none.
     */
    static Map<String, Map<String, Set<String>>> dependencies(Map<String, String> sources) {
        Map<String, Map<String, Set<String>>> graph = new TreeMap<>();
        for (Map.Entry<String, String> file : new TreeMap<>(sources).entrySet()) {
            String code = code(file.getValue());
            Matcher p = PACKAGE.matcher(code);
            if (!p.find()) {
                continue; // the default package: nothing in it can be used
            }
            String pkg = p.group(1);
            Map<String, Set<String>> uses = graph.computeIfAbsent(pkg, k -> new TreeMap<>());
            Matcher m = REFERENCE.matcher(code);
            while (m.find()) {
                String used = ROOT + m.group(1).replaceAll("\\s", "");
                if (!used.equals(pkg)) {
                    uses.computeIfAbsent(used, k -> new TreeSet<>()).add(file.getKey());
                }
            }
        }
        return graph;
    }

    /** {@code source} with comments, string and character literals and text blocks blanked out. */
    static String code(String source) {
        StringBuilder out = new StringBuilder(source.length());
        int i = 0;
        int n = source.length();
        while (i < n) {
            char c = source.charAt(i);
            if (source.startsWith("//", i)) {
                int end = source.indexOf('\n', i);
                i = end < 0 ? n : end;
            } else if (source.startsWith("/*", i)) {
                int end = source.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
                out.append(' ');
            } else if (source.startsWith("\"\"\"", i)) {
                i = skipQuoted(source, i + 3, "\"\"\"");
                out.append("\"\"");
            } else if (c == '"' || c == '\'') {
                i = skipQuoted(source, i + 1, String.valueOf(c));
                out.append(c).append(c);
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    /** The index just past the {@code close} that ends a literal whose text starts at {@code i}, escapes skipped. */
    private static int skipQuoted(String source, int i, String close) {
        while (i < source.length()) {
            if (source.charAt(i) == '\\') {
                i += 2;
            } else if (source.startsWith(close, i)) {
                return i + close.length();
            } else {
                i++;
            }
        }
        return source.length();
    }

    /**
     * One line per group of packages that reach each other (a strongly connected component of more than one
     * package), showing one cycle through it and the files behind each of its edges; empty when there is none.
     */
    static List<String> cycles(Map<String, Map<String, Set<String>>> graph) {
        List<String> found = new ArrayList<>();
        for (Set<String> component : components(graph)) {
            if (component.size() < 2) {
                continue;
            }
            List<String> cycle = cycleWithin(graph, component);
            StringBuilder line = new StringBuilder(cycle.stream().map(LayeringTest::shortName)
                    .collect(Collectors.joining(" -> ")));
            List<String> edges = new ArrayList<>();
            for (int k = 0; k + 1 < cycle.size(); k++) {
                String from = cycle.get(k);
                String to = cycle.get(k + 1);
                edges.add(shortName(from) + " -> " + shortName(to) + ": "
                        + String.join(", ", graph.get(from).get(to)));
            }
            line.append("  (").append(String.join("; ", edges)).append(')');
            if (component.size() > cycle.size() - 1) {
                line.append("; all of ").append(component.stream().map(LayeringTest::shortName)
                        .collect(Collectors.joining(", "))).append(" reach each other");
            }
            found.add(line.toString());
        }
        return found;
    }

    /** Tarjan's strongly connected components, each sorted; packages in name order, so the report is stable. */
    private static List<Set<String>> components(Map<String, Map<String, Set<String>>> graph) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new TreeSet<>();
        List<Set<String>> components = new ArrayList<>();
        for (String start : graph.keySet()) {
            if (!index.containsKey(start)) {
                strongConnect(start, graph, index, low, stack, onStack, components);
            }
        }
        components.sort((x, y) -> x.iterator().next().compareTo(y.iterator().next()));
        return components;
    }

    private static void strongConnect(String v, Map<String, Map<String, Set<String>>> graph, Map<String, Integer> index,
                                      Map<String, Integer> low, Deque<String> stack, Set<String> onStack,
                                      List<Set<String>> components) {
        index.put(v, index.size());
        low.put(v, index.get(v));
        stack.push(v);
        onStack.add(v);
        for (String w : graph.getOrDefault(v, Map.of()).keySet()) {
            if (!index.containsKey(w)) {
                strongConnect(w, graph, index, low, stack, onStack, components);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (onStack.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v).equals(index.get(v))) {
            Set<String> component = new TreeSet<>();
            String w;
            do {
                w = stack.pop();
                onStack.remove(w);
                component.add(w);
            } while (!w.equals(v));
            components.add(component);
        }
    }

    /**
     * A shortest cycle from the component's first package back to itself, through the component only (breadth
     * first), as the list of packages with the first repeated at the end.
     */
    private static List<String> cycleWithin(Map<String, Map<String, Set<String>>> graph, Set<String> component) {
        String start = component.iterator().next();
        Map<String, String> cameFrom = new LinkedHashMap<>();
        Deque<String> queue = new ArrayDeque<>();
        queue.add(start);
        while (!queue.isEmpty()) {
            String v = queue.poll();
            for (String w : graph.getOrDefault(v, Map.of()).keySet()) {
                if (w.equals(start)) {
                    List<String> cycle = new ArrayList<>();
                    cycle.add(start);
                    for (String u = v; !u.equals(start); u = cameFrom.get(u)) {
                        cycle.add(1, u);
                    }
                    cycle.add(start);
                    return cycle;
                }
                if (component.contains(w) && !cameFrom.containsKey(w)) {
                    cameFrom.put(w, v);
                    queue.add(w);
                }
            }
        }
        throw new AssertionError("no cycle through " + start + " in " + component);
    }

    /** {@code run} for {@code io.loadgen.core.run}; {@code (root)} for {@code io.loadgen.core} itself. */
    private static String shortName(String pkg) {
        return pkg.equals(ROOT) ? "(root)" : pkg.startsWith(ROOT + ".") ? pkg.substring(ROOT.length() + 1) : pkg;
    }
}
