package io.loadgen.core.output;

import io.loadgen.core.BadInputException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The files a command reads and writes, checked before anything is written: an output that is also an
 * input ({@code report -i in.hlog -o in.hlog}) or another output ({@code run --hlog X --json X}) would
 * destroy data, so it is refused as bad input. Paths are compared as the files they name: after making
 * them absolute and normal, and by {@link Files#isSameFile} when both exist (links, {@code ./x} against
 * {@code x}). {@code "-"} (standard input or output) is never a file. Main thread, before the command runs.
 */
public final class OutputPaths {
    private final Map<String, Path> outputs = new LinkedHashMap<>();
    private final List<Map.Entry<String, Path>> inputs = new ArrayList<>();

    /** An output file, named by its option (e.g. {@code --json}); null is ignored. */
    public OutputPaths output(String option, Path file) {
        if (file != null && !file.toString().equals("-")) {
            outputs.put(option, file);
        }
        return this;
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
     * @throws BadInputException naming the two options and the file when an output is an input or
     *                           another output
     */
    public void check() {
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
