package io.loadgen.core.output;

import io.loadgen.core.BadInputException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The files a command reads and writes, checked before anything is written: an output that is also an
 * input ({@code report -i in.hlog -o in.hlog}) or another output ({@code run --hlog X --json X}, or
 * {@code --hgrm D --hlog D/READ.intended.hgrm}: a directory output owns the names it writes there) would
 * destroy data, and two outputs on standard output ({@code --json -} and {@code --hlog /dev/stdout}) would
 * interleave, so each is refused as bad input; so is a file output whose directory does not exist or is a file.
 * Paths are compared as the files they name: after making them absolute and normal, and by
 * {@link Files#isSameFile} when both exist (links, {@code ./x} against {@code x}). {@code "-"} is standard
 * input or output, never a file. Main thread, before the command runs.
 */
public final class OutputPaths {
    /** The names by which a file output is standard output. */
    private static final List<String> STDOUT = List.of("-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1");

    private final Map<String, Path> outputs = new LinkedHashMap<>();
    private final List<String> toStdout = new ArrayList<>();
    private final List<Directory> directories = new ArrayList<>();
    private final List<Map.Entry<String, Path>> inputs = new ArrayList<>();

    /** A directory output: the files in {@code dir} whose names {@code owns} accepts are written (or removed) by it. */
    private record Directory(String option, Path dir, Predicate<String> owns) {
    }

    /** An output file, named by its option (e.g. {@code --json}); null is ignored; "-" is standard output. */
    public OutputPaths output(String option, Path file) {
        if (file == null) {
            return this;
        }
        if (isStdout(file)) {
            toStdout.add(option + " " + file);
        } else {
            outputs.put(option, file);
        }
        return this;
    }

    /**
     * A directory an output writes its files into (e.g. {@code --hgrm DIR}); {@code owns} says which file names in it
     * are the output's, so that no other output may be one of them. Null is ignored.
     */
    public OutputPaths directory(String option, Path dir, Predicate<String> owns) {
        if (dir != null) {
            directories.add(new Directory(option, dir, owns));
        }
        return this;
    }

    /** True for a path that names standard output: {@code -}, {@code /dev/stdout}, {@code /dev/fd/1}. */
    public static boolean isStdout(Path file) {
        return file != null && STDOUT.contains(file.toString());
    }

    /** An input file, named by its option (e.g. {@code -P} or {@code interval log}); null is ignored. */
    public OutputPaths input(String option, Path file) {
        if (file != null && !file.toString().equals("-")) {
            inputs.add(Map.entry(option, file));
        }
        return this;
    }

    /** Every file of {@code files} as an input named {@code option}. */
    public OutputPaths inputs(String option, List<Path> files) {
        files.forEach(f -> input(option, f));
        return this;
    }

    /**
     * @throws BadInputException naming the options and the file when an output is an input or another output (or
     *                           a file a directory output writes), when two outputs are standard output, or when
     *                           a file output's directory does not exist
     */
    public void check() {
        if (toStdout.size() > 1) {
            throw new BadInputException(String.join(" and ", toStdout) + " both write to standard output, where"
                    + " they would interleave; send all but one to a file");
        }
        List<Map.Entry<String, Path>> outs = new ArrayList<>(outputs.entrySet());
        for (int i = 0; i < outs.size(); i++) {
            Map.Entry<String, Path> out = outs.get(i);
            for (Map.Entry<String, Path> in : inputs) {
                if (sameFile(out.getValue(), in.getValue())) {
                    throw new BadInputException(out.getKey() + " " + out.getValue() + " is also the " + in.getKey()
                            + " input; writing it would destroy what is read: choose another output file");
                }
            }
            for (int j = 0; j < i; j++) {
                Map.Entry<String, Path> other = outs.get(j);
                if (sameFile(out.getValue(), other.getValue())) {
                    throw new BadInputException(other.getKey() + " and " + out.getKey() + " both name "
                            + out.getValue() + "; give each output its own file");
                }
            }
            for (Directory d : directories) {
                Path file = out.getValue();
                if (sameFile(file, d.dir())) {
                    throw new BadInputException(out.getKey() + " " + file + " is the " + d.option() + " directory;"
                            + " give each output its own file");
                }
                if (owns(d, file)) {
                    throw new BadInputException(out.getKey() + " " + file + " is a file that " + d.option() + " "
                            + d.dir() + " writes; give each output its own file");
                }
            }
            directoryExists(out.getKey(), out.getValue());
        }
        for (Directory d : directories) {
            for (Map.Entry<String, Path> in : inputs) {
                if (owns(d, in.getValue())) {
                    throw new BadInputException(d.option() + " " + d.dir() + " writes " + in.getValue()
                            + ", the " + in.getKey() + " input; writing it would destroy what is read: choose"
                            + " another directory");
                }
            }
            if (Files.exists(d.dir()) && !Files.isDirectory(d.dir())) {
                throw new BadInputException(d.option() + " " + d.dir() + " is a file, not a directory; give a"
                        + " directory");
            }
        }
    }

    /** True when {@code file} is in {@code d}'s directory under a name it writes. */
    private static boolean owns(Directory d, Path file) {
        Path parent = file.toAbsolutePath().normalize().getParent();
        return parent != null && file.getFileName() != null && sameFile(parent, d.dir())
                && d.owns().test(file.getFileName().toString());
    }

    /** A file output's directory must exist: it is named rather than created (a typo would scatter results). */
    private static void directoryExists(String option, Path file) {
        if (Files.isDirectory(file)) {
            throw new BadInputException(option + " " + file + " is a directory; give a file name");
        }
        Path parent = file.toAbsolutePath().normalize().getParent();
        if (parent != null && !Files.isDirectory(parent)) {
            Path shown = file.getParent() != null ? file.getParent() : parent;
            throw new BadInputException(option + " " + file + ": the directory " + shown
                    + (Files.exists(parent) ? " is a file" : " does not exist")
                    + "; create it or choose another path");
        }
    }

    /** True when {@code a} and {@code b} name the same file. */
    public static boolean sameFile(Path a, Path b) {
        if (a.toAbsolutePath().normalize().equals(b.toAbsolutePath().normalize())) {
            return true;
        }
        if (Files.exists(a) && Files.exists(b)) {
            try {
                return Files.isSameFile(a, b);
            } catch (IOException e) {
                return false;
            }
        }
        return false;
    }
}
