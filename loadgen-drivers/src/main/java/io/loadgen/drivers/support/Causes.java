package io.loadgen.drivers.support;

/** What a driver tells the user about a failure: the innermost cause's message, on one line. */
public final class Causes {
    private Causes() {
    }

    /** The root cause's message (its class name when it has none), newlines made spaces. */
    public static String rootMessage(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String m = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        return m.replace('\n', ' ');
    }
}
