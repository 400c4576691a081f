package io.loadgen.core;

/**
 * Input the user can fix: a bad option, property, file or value. Its message is one line that names
 * what is wrong and how to fix it; the command line prints only that line and exits with code 2.
 */
public class BadInputException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public BadInputException(String message) {
        super(message);
    }

    public BadInputException(String message, Throwable cause) {
        super(message, cause);
    }
}
