package io.loadgen.core.output;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A whole output that could not be written, its message the one line that says so ({@link OutputFailures#line}):
 * the file and the innermost cause ("No space left on device"), not the encoder's wrapper
 * ({@code javax.imageio.IIOException: Error writing PNG}). The launcher prints the message alone and exits 1.
 */
public final class OutputWriteException extends IOException {
    public OutputWriteException(Path file, IOException cause) {
        super(OutputFailures.line(file.toString(), cause), cause);
    }
}
