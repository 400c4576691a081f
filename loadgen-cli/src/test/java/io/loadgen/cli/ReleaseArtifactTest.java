package io.loadgen.cli;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The release artifacts point at what the build makes: the shaded jar's name and main class in this module's pom,
 * the Dockerfile's two stages (the first builds the jar from the sources with the Maven wrapper, the second copies
 * that jar and runs it with {@code java -jar}), and docs/install.md's {@code java -jar} line all name the same jar.
 * The jar and the tar.gz are built after the tests run, so {@link ReleaseArtifactIT} runs them (and builds the
 * image where a Docker daemon runs) in {@code verify}.
 */
class ReleaseArtifactTest {
    private static final String JAR_IN_IMAGE = "/opt/loadgen/loadgen.jar";

    @Test
    void theDockerfileBuildsTheShadedJarFromTheSourcesAndRunsItWithJavaJar() throws Exception {
        String pom = Files.readString(Path.of("pom.xml"));
        String jar = "loadgen-cli/target/" + only(pom, "<artifactId>maven-shade-plugin</artifactId>.*?"
                + "<finalName>([^<]+)</finalName>") + ".jar";
        assertEquals("loadgen-cli/target/loadgen.jar", jar);
        assertEquals(Main.class.getName(), only(pom, "ManifestResourceTransformer\">\\s*<mainClass>([^<]+)</mainClass>"),
                "java -jar runs Main (the shaded jar's manifest; the reference profile's exec:java names another class)");

        List<List<String>> stages = stages(Files.readAllLines(Path.of("../Dockerfile")));
        assertEquals(2, stages.size(), "a build stage and the image's: " + stages);
        List<String> build = stages.get(0);
        List<String> image = stages.get(1);

        assertEquals("FROM eclipse-temurin:17-jdk AS build", build.get(0));
        String src = only(String.join("\n", build), "(?m)^WORKDIR (\\S+)$");
        assertTrue(build.contains("COPY . ."), "the build stage gets the sources: " + build);
        assertTrue(build.stream().anyMatch(l -> l.matches("RUN \\./mvnw -B -DskipTests package( .*)?")),
                "the build stage packages with the Maven wrapper: " + build);

        assertEquals("FROM eclipse-temurin:17-jre", image.get(0));
        assertTrue(image.contains("COPY --from=build " + src + "/" + jar + " " + JAR_IN_IMAGE),
                "the image gets the jar the build stage made: " + image);
        assertTrue(image.contains("COPY --from=build " + src + "/workloads /opt/loadgen/workloads"), image.toString());
        assertTrue(image.contains("WORKDIR /work"), image.toString());
        assertEquals("ENTRYPOINT [\"java\", \"-jar\", \"" + JAR_IN_IMAGE + "\"]", image.get(image.size() - 1));

        // The context has the sources and .git (the commit the version line names), not the local build's outputs.
        List<String> ignored = Files.readAllLines(Path.of("../.dockerignore")).stream()
                .map(String::strip).filter(l -> !l.startsWith("#") && !l.isEmpty()).toList();
        assertTrue(ignored.contains("**/target"), "a local build's outputs stay out of the context: " + ignored);
        for (String keep : List.of(".git", ".git/", "*", "**", "**/*", "src", "**/src", "workloads", "mvnw", ".mvn")) {
            assertFalse(ignored.contains(keep), "the build stage needs " + keep + ": " + ignored);
        }

        String install = Files.readString(Path.of("../docs/install.md"));
        assertTrue(install.contains("java -jar " + jar + " run "), "docs/install.md shows the jar run with java -jar");
    }

    /** The Dockerfile's instructions, comments and blank lines left out, one list a stage (from its FROM). */
    private static List<List<String>> stages(List<String> dockerfile) {
        List<List<String>> stages = new ArrayList<>();
        for (String line : dockerfile) {
            String l = line.strip();
            if (l.startsWith("#") || l.isEmpty()) {
                continue;
            }
            if (l.startsWith("FROM ")) {
                stages.add(new ArrayList<>());
            }
            assertFalse(stages.isEmpty(), "the Dockerfile starts with FROM: " + l);
            stages.get(stages.size() - 1).add(l);
        }
        return stages;
    }

    private static String only(String text, String regex) {
        Matcher m = Pattern.compile(regex, Pattern.DOTALL).matcher(text);
        assertTrue(m.find(), regex);
        String found = m.group(1);
        assertTrue(!m.find(), "one " + regex);
        return found;
    }
}
