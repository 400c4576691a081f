package io.loadgen.core.output;

import java.io.BufferedOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A whole-file output written under a temporary name in the target's directory ({@code .run.json.1a2b3c.tmp}) and
 * renamed onto the target only once all of it is written, so the target is either the complete new file or what it
 * was before: never empty or cut short by a full disk, a failed encoder or a killed process. A failed or abandoned
 * write deletes the temporary file. A target that exists and is not a regular file ({@code /dev/full},
 * {@code /dev/stdout}, a pipe) is written directly, as it cannot be replaced. A link is followed: the file it names
 * is replaced. One thread.
 *
 * <p>Use {@link #write(Path, Content)}; or {@link #open(Path)}, write, then {@link #commit()}: a {@link #close()}
 * without a commit abandons the file.
 */
public final class AtomicFile extends OutputStream {
    /** What a whole-file output writes. */
    @FunctionalInterface
    public interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    private final Path given;
    private final Path target;
    private final Path temp;
    private final FailureTrackingOutputStream tracked;
    private final OutputStream out;
    private boolean done;

    private AtomicFile(Path given, Path target, Path temp, OutputStream sink) {
        this.given = given;
        this.target = target;
        this.temp = temp;
        this.tracked = new FailureTrackingOutputStream(sink);
        this.out = new BufferedOutputStream(tracked, 1 << 16);
    }

    /** Writes {@code content} to {@code target}, replacing it only when all of it was written. */
    public static void write(Path target, Content content) throws IOException {
        try (AtomicFile file = open(target)) {
            content.writeTo(new java.io.FilterOutputStream(file) {
                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    out.write(b, off, len);
                }

                @Override
                public void close() throws IOException {
                    flush(); // an encoder that closes its stream does not end the file: commit does
                }
            });
            file.commit();
        }
    }

    /** Starts writing {@code target}: under a temporary name, unless it is a device or pipe. */
    public static AtomicFile open(Path target) throws IOException {
        if (Files.exists(target) && !Files.isRegularFile(target)) {
            return new AtomicFile(target, target, null, new FileOutputStream(target.toFile()));
        }
        Path real = Files.isSymbolicLink(target) && Files.exists(target) ? target.toRealPath() : target;
        Path dir = real.toAbsolutePath().getParent();
        for (int attempt = 0; ; attempt++) {
            Path temp = dir.resolve(tempName(real.getFileName().toString()));
            try {
                AtomicFile file = new AtomicFile(target, real, temp, Files.newOutputStream(temp,
                        StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE));
                temp.toFile().deleteOnExit(); // a run stopped by SIGINT or SIGTERM leaves no temporary file
                return file;
            } catch (java.nio.file.FileAlreadyExistsException e) {
                if (attempt == 10) {
                    throw e;
                }
            } catch (java.nio.file.NoSuchFileException e) {
                throw new java.nio.file.NoSuchFileException(target.toString()); // name the file asked for, not ours
            } catch (java.nio.file.AccessDeniedException e) {
                throw new java.nio.file.AccessDeniedException(target.toString());
            }
        }
    }

    /** The temporary name of a file being written as {@code name}; hidden, and recognisable as ours. */
    static String tempName(String name) {
        return "." + name + "." + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 16) + ".tmp";
    }

    /** True for a name {@link #tempName} gives. */
    public static boolean isTempName(String name) {
        return name.startsWith(".") && name.matches("\\..+\\.[0-9a-f]+\\.tmp");
    }

    @Override
    public void write(int b) throws IOException {
        out.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
    }

    @Override
    public void flush() throws IOException {
        out.flush();
    }

    /** The file as it was given (not the one a link names). */
    public Path path() {
        return given;
    }

    /** The first write that failed, or null. */
    public IOException failure() {
        return tracked.failure();
    }

    /**
     * Finishes the file: flushes and closes it and renames it onto the target.
     *
     * @throws IOException the first write that failed, or the rename's failure; the temporary file is then deleted
     */
    public void commit() throws IOException {
        if (done) {
            return;
        }
        try {
            out.close();
            if (tracked.failure() != null) {
                throw tracked.failure();
            }
            if (temp != null) {
                move(temp, target);
            }
            done = true;
        } finally {
            if (!done) {
                abandon();
            }
        }
    }

    /** Abandons the file unless it was committed: the target is left as it was. */
    @Override
    public void close() {
        if (!done) {
            abandon();
        }
    }

    private void abandon() {
        done = true;
        try {
            out.close();
        } catch (IOException ignored) {
            // the write already failed; the file is being discarded
        }
        if (temp != null) {
            try {
                Files.deleteIfExists(temp);
            } catch (IOException ignored) {
                // nothing more can be done; the name shows it is a leftover
            }
        }
    }

    private static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
