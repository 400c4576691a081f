package io.loadgen.core.output;

import io.loadgen.core.BadInputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

class OutputPathsTest {
    @TempDir
    Path dir;

    @Test
    void anOutputThatIsAnInputIsRefusedNamingBoth() throws IOException {
        Path log = Files.writeString(dir.resolve("in.hlog"), "x");
        BadInputException e = assertThrows(BadInputException.class,
                () -> new OutputPaths().inputs("-i", List.of(log)).output("-o", log).check());
        assertEquals("-o " + log + " is also the -i input; writing it would destroy what is read: choose another"
                + " output file", e.getMessage());
    }

    @Test
    void twoOutputsOnOneFileAreRefused() {
        Path x = dir.resolve("x");
        BadInputException e = assertThrows(BadInputException.class,
                () -> new OutputPaths().output("--hlog", x).output("--json", x).check());
        assertEquals("--hlog and --json both name " + x + "; give each output its own file", e.getMessage());
    }

    @Test
    void theSameFileUnderTwoNamesIsTheSameFile() throws IOException {
        Path real = Files.writeString(dir.resolve("real.hlog"), "x");
        Path link = Files.createSymbolicLink(dir.resolve("link.hlog"), real);
        Path dotted = dir.resolve(".").resolve("real.hlog");
        assertThrows(BadInputException.class, () -> new OutputPaths().input("-i", link).output("-o", real).check());
        assertThrows(BadInputException.class, () -> new OutputPaths().output("--hlog", dotted).output("--json", real).check());
    }

    @Test
    void distinctFilesAndStandardStreamsPass() {
        assertDoesNotThrow(() -> new OutputPaths().input("-i", Path.of("-")).output("--json", Path.of("-"))
                .output("--hlog", dir.resolve("a")).output("--json", dir.resolve("b")).input("-P", dir.resolve("c"))
                .output("--csv", null).check());
    }

    @Test
    void aDirectoryOutputOwnsTheNamesItWritesThereAndNoOthers() throws IOException {
        Path hgrm = dir.resolve("hgrm");
        Path owned = hgrm.resolve("./READ.intended.hgrm");
        BadInputException e = assertThrows(BadInputException.class, () -> new OutputPaths()
                .output("--hlog", owned).directory("--hgrm", hgrm, n -> n.endsWith(".intended.hgrm")).check());
        assertEquals("--hlog " + owned + " is a file that --hgrm " + hgrm + " writes; give each output its own file",
                e.getMessage());
        Files.createDirectory(hgrm);
        assertDoesNotThrow(() -> new OutputPaths().output("--hlog", hgrm.resolve("run.hlog"))
                .directory("--hgrm", hgrm, n -> n.endsWith(".intended.hgrm")).check());
        Path input = Files.writeString(hgrm.resolve("old.intended.hgrm"), "x");
        e = assertThrows(BadInputException.class, () -> new OutputPaths().input("INPUT", input)
                .directory("--hgrm", hgrm, n -> n.endsWith(".intended.hgrm")).check());
        assertEquals("--hgrm " + hgrm + " writes " + input + ", the INPUT input; writing it would destroy what is"
                + " read: choose another directory", e.getMessage());
    }

    @Test
    void twoOutputsOnStandardOutputAreRefusedUnderAnyOfItsNames() {
        for (String name : List.of("-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1")) {
            BadInputException e = assertThrows(BadInputException.class, () -> new OutputPaths()
                    .output("--json", Path.of("-")).output("--hlog", Path.of(name)).check());
            assertEquals("--json - and --hlog " + name + " both write to standard output, where they would"
                    + " interleave; send all but one to a file", e.getMessage());
        }
        assertDoesNotThrow(() -> new OutputPaths().output("--json", Path.of("-")).check());
    }

    @Test
    void aFileOutputInADirectoryThatDoesNotExistIsRefusedNamingTheDirectory() {
        Path missing = dir.resolve("out/x");
        BadInputException e = assertThrows(BadInputException.class,
                () -> new OutputPaths().output("--json", missing.resolve("run.json")).check());
        assertEquals("--json " + missing.resolve("run.json") + ": the directory " + missing + " does not exist;"
                + " create it or choose another path", e.getMessage());
        assertFalse(Files.exists(dir.resolve("out")));
    }
}
