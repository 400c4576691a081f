package io.loadgen.cli;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The release artifacts point at what the build makes: the shaded jar's name and main class in this module's pom,
 * the Dockerfile's COPY and ENTRYPOINT, and the README's {@code java -jar} line all name the same jar. The jar itself
 * is built after the tests run, so {@link ReleaseArtifactIT} runs it with {@code java -jar} (and builds the
 * image where a Docker daemon runs) in {@code verify}.
 */
class ReleaseArtifactTest {
    private static final String JAR_IN_IMAGE = "/opt/loadgen/loadgen.jar";

    @Test
    void theDockerfileCopiesTheShadedJarTheBuildMakesAndRunsItWithJavaJar() throws Exception {
        String pom = Files.readString(Path.of("pom.xml"));
        String jar = "loadgen-cli/target/" + only(pom, "<finalName>([^<]+)</finalName>") + ".jar";
        assertEquals("loadgen-cli/target/loadgen.jar", jar);
        assertEquals(Main.class.getName(), only(pom, "ManifestResourceTransformer\">\\s*<mainClass>([^<]+)</mainClass>"),
                "java -jar runs Main (the shaded jar's manifest; the reference profile's exec:java names another class)");

        List<String> docker = Files.readAllLines(Path.of("../Dockerfile")).stream()
                .filter(l -> !l.startsWith("#") && !l.isBlank()).toList();
        assertEquals("FROM eclipse-temurin:17-jre", docker.get(0));
        assertTrue(docker.contains("COPY " + jar + " " + JAR_IN_IMAGE), docker.toString());
        assertEquals("ENTRYPOINT [\"java\", \"-jar\", \"" + JAR_IN_IMAGE + "\"]", docker.get(docker.size() - 1));
        String ignore = Files.readString(Path.of("../.dockerignore"));
        assertTrue(ignore.contains("!" + jar), "the build context keeps the jar: " + ignore);

        String readme = Files.readString(Path.of("../README.md"));
        assertTrue(readme.contains("java -jar " + jar + " run "), "the README shows the jar run with java -jar");
    }

    private static String only(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        assertTrue(m.find(), regex);
        String found = m.group(1);
        assertTrue(!m.find(), "one " + regex);
        return found;
    }
}
