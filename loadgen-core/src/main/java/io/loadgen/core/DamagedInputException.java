package io.loadgen.core;

/**
 * Input that is readable but must not be used as it is: the same log given twice under two names, the logs of
 * different runs merged as one. Its message is one line naming the files and how to proceed; the command line
 * prints only that line and exits with code 3 (damaged input), as a gate does for a damaged log.
 */
public class DamagedInputException extends BadInputException {
    private static final long serialVersionUID = 1L;

    public DamagedInputException(String message) {
        super(message);
    }
}
