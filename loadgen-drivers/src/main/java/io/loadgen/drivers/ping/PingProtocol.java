package io.loadgen.drivers.ping;

import io.loadgen.core.BadInputException;

import java.util.Locale;

/** The transport a ping travels over. Constant; any thread. */
public enum PingProtocol {
    /** A connection per client channel; fixed-size frames, replies in order. */
    TCP,
    /** One datagram per request; a lost request or reply shows as a timeout. */
    UDP;

    /**
     * Reads {@code tcp} or {@code udp}, in any case.
     *
     * @param what names the value in the error message, e.g. {@code --protocol}
     * @throws BadInputException naming {@code what} and the two choices
     */
    public static PingProtocol parse(String text, String what) {
        String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        return switch (t) {
            case "tcp" -> TCP;
            case "udp" -> UDP;
            default -> throw new BadInputException(what + ": unknown protocol '" + text + "'; choose tcp or udp");
        };
    }

    /** {@code tcp} or {@code udp}, as users type it. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
