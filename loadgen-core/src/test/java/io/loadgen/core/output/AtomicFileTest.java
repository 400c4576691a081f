package io.loadgen.core.output;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AtomicFileTest {
    @TempDir
    Path dir;

    private List<String> names() throws IOException {
        try (var files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aCompleteWriteReplacesTheFileAndLeavesNoTemporaryFile() throws IOException {
        Path file = Files.writeString(dir.resolve("run.json"), "old");
        AtomicFile.write(file, out -> out.write(bytes("new")));
        assertEquals("new", Files.readString(file));
        assertEquals(List.of("run.json"), names());
    }

    @Test
    void aWriteThatFailsLeavesTheFileAsItWasAndNoTemporaryFile() throws IOException {
        Path file = Files.writeString(dir.resolve("run.json"), "old");
        IOException e = assertThrows(IOException.class, () -> AtomicFile.write(file, out -> {
            out.write(bytes("half of the n"));
            throw new IOException("No space left on device");
        }));
        assertEquals("No space left on device", e.getMessage());
        assertEquals("old", Files.readString(file));
        assertEquals(List.of("run.json"), names());
        Path fresh = dir.resolve("fresh.json");
        assertThrows(IOException.class, () -> AtomicFile.write(fresh, out -> {
            throw new IOException("the encoder failed");
        }));
        assertFalse(Files.exists(fresh), "no empty file");
    }

    @Test
    void whileItIsWrittenTheTargetIsUntouchedAndAnAbandonedFileLeavesNothing() throws IOException {
        Path file = dir.resolve("merged.hlog");
        try (AtomicFile f = AtomicFile.open(file)) {
            f.write(bytes("part"));
            f.flush();
            assertFalse(Files.exists(file));
            assertEquals(1, names().size());
            assertTrue(AtomicFile.isTempName(names().get(0)), names().toString());
        }
        assertEquals(List.of(), names());
    }

    /** ImageIO and Jackson may close the stream they are given; the file is still ended by commit alone. */
    @Test
    void anEncoderThatClosesItsStreamDoesNotEndTheFile() throws IOException {
        Path file = dir.resolve("chart.png");
        AtomicFile.write(file, out -> {
            out.write(bytes("png"));
            out.close();
        });
        assertEquals("png", Files.readString(file));
        assertEquals(List.of("chart.png"), names());
    }

    @Test
    void aLinkIsFollowedAndADeviceIsWrittenInPlace() throws IOException {
        Path real = Files.writeString(dir.resolve("real.json"), "old");
        Path link = Files.createSymbolicLink(dir.resolve("link.json"), real);
        AtomicFile.write(link, out -> out.write(bytes("new")));
        assertTrue(Files.isSymbolicLink(link), "the link stays a link");
        assertEquals("new", Files.readString(real));
        Path devNull = Path.of("/dev/null");
        if (Files.exists(devNull)) {
            AtomicFile.write(devNull, out -> out.write(bytes("gone")));
            assertFalse(Files.isRegularFile(devNull), "/dev/null is not replaced");
        }
    }
}
