package io.loadgen.drivers.memcached;

import io.netty.buffer.ByteBuf;
import io.netty.util.ByteProcessor;

import java.nio.charset.StandardCharsets;

/**
 * Frames and classifies memcached's replies, text and meta alike, one at a time from the front of a buffer of
 * bytes received. A reply is one line ({@code STORED}, {@code END}, {@code HD}, {@code SERVER_ERROR ...}) or a
 * line with a data block: {@code VALUE <key> <flags> <bytes>\r\n<data>\r\nEND\r\n} (text {@code get} of one key)
 * or {@code VA <bytes> ...\r\n<data>\r\n} (meta {@code mg ... v}). A reply is consumed only when it is whole.
 * Confined to one connection's event loop; the error's text is kept for the one reply just parsed.
 */
final class Replies {
    /** Not all of the reply is in yet: nothing was consumed. */
    static final int INCOMPLETE = -1;
    /** A value: {@code VALUE ... END} or {@code VA}. */
    static final int HIT = 0;
    /** No value: {@code END} or {@code EN}. */
    static final int MISS = 1;
    /** {@code STORED}, {@code DELETED}, or meta's {@code HD}. */
    static final int DONE = 2;
    /** {@code NOT_FOUND}, or meta's {@code NF}. */
    static final int NOT_FOUND = 3;
    /** {@code NOT_STORED}, {@code EXISTS}, or meta's {@code NS}, {@code EX}: the write was not made. */
    static final int NOT_STORED = 4;
    /** {@code CLIENT_ERROR <message>}, or {@code ERROR} (a command the server does not know). */
    static final int CLIENT_ERROR = 5;
    /** {@code SERVER_ERROR <message>}. */
    static final int SERVER_ERROR = 6;

    /** The longest first line memcached sends for these commands (a 250-byte key and a few numbers fit). */
    private static final int MAX_LINE = 1024;

    private String errorText;
    private int valueLength;

    /** The reply's text when it was an error (with its code, e.g. {@code SERVER_ERROR out of memory}). */
    String errorText() {
        return errorText;
    }

    /** The data block's length of the last {@link #HIT}. */
    int valueLength() {
        return valueLength;
    }

    /**
     * Reads the reply at the front of {@code in}: its kind, and the reader index moved past it; or
     * {@link #INCOMPLETE}, the index unmoved.
     *
     * @throws NotMemcachedException when the bytes are not a memcached reply
     */
    int next(ByteBuf in) {
        int start = in.readerIndex();
        int limit = in.writerIndex();
        int lf = in.forEachByte(start, limit - start, ByteProcessor.FIND_LF);
        if (lf < 0) {
            if (limit - start > MAX_LINE) {
                throw notMemcached(in, start, Math.min(limit, start + 64));
            }
            return INCOMPLETE;
        }
        int end = lf + 1; // the index after the line
        if (lf == start || in.getByte(lf - 1) != '\r') {
            throw notMemcached(in, start, lf);
        }
        int length = lf - 1 - start; // without CRLF
        switch (in.getByte(start)) {
            case 'V':
                if (startsWith(in, start, length, "VALUE ")) {
                    return value(in, start, lf, end, limit);
                }
                if (startsWith(in, start, length, "VA ")) {
                    return metaValue(in, start, lf, end, limit);
                }
                break;
            case 'E':
                if (is(in, start, length, "END") || is(in, start, length, "EN")) {
                    in.readerIndex(end);
                    return MISS;
                }
                if (is(in, start, length, "EXISTS") || is(in, start, length, "EX")) {
                    in.readerIndex(end);
                    return NOT_STORED;
                }
                if (is(in, start, length, "ERROR") || startsWith(in, start, length, "ERROR ")) {
                    return error(in, start, length, end, CLIENT_ERROR);
                }
                break;
            case 'S':
                if (is(in, start, length, "STORED")) {
                    in.readerIndex(end);
                    return DONE;
                }
                if (startsWith(in, start, length, "SERVER_ERROR")) {
                    return error(in, start, length, end, SERVER_ERROR);
                }
                break;
            case 'H':
                if (is(in, start, length, "HD") || startsWith(in, start, length, "HD ")) {
                    in.readerIndex(end);
                    return DONE;
                }
                break;
            case 'D':
                if (is(in, start, length, "DELETED")) {
                    in.readerIndex(end);
                    return DONE;
                }
                break;
            case 'N':
                if (is(in, start, length, "NOT_FOUND") || is(in, start, length, "NF")
                        || startsWith(in, start, length, "NF ")) {
                    in.readerIndex(end);
                    return NOT_FOUND;
                }
                if (is(in, start, length, "NOT_STORED") || is(in, start, length, "NS")
                        || startsWith(in, start, length, "NS ")) {
                    in.readerIndex(end);
                    return NOT_STORED;
                }
                break;
            case 'C':
                if (startsWith(in, start, length, "CLIENT_ERROR")) {
                    return error(in, start, length, end, CLIENT_ERROR);
                }
                break;
            default:
                break;
        }
        throw notMemcached(in, start, lf - 1);
    }

    /** {@code VALUE <key> <flags> <bytes>\r\n<data>\r\nEND\r\n}: whole, or {@link #INCOMPLETE}. */
    private int value(ByteBuf in, int start, int lf, int end, int limit) {
        int bytesAt = afterSpaces(in, start, lf - 1, 3);
        long bytes = bytesAt < 0 ? -1 : number(in, bytesAt, lf - 1);
        if (bytes < 0) {
            throw notMemcached(in, start, lf - 1);
        }
        long dataEnd = end + bytes; // the CRLF after the data, then END CRLF
        if (dataEnd + 7 > limit) {
            return INCOMPLETE;
        }
        int d = (int) dataEnd;
        if (in.getByte(d) != '\r' || in.getByte(d + 1) != '\n' || !is(in, d + 2, 3, "END")
                || in.getByte(d + 5) != '\r' || in.getByte(d + 6) != '\n') {
            throw notMemcached(in, d, Math.min(limit, d + 7));
        }
        valueLength = (int) bytes;
        in.readerIndex(d + 7);
        return HIT;
    }

    /** {@code VA <bytes> <flags>*\r\n<data>\r\n}: whole, or {@link #INCOMPLETE}. */
    private int metaValue(ByteBuf in, int start, int lf, int end, int limit) {
        int bytesAt = start + 3;
        long bytes = number(in, bytesAt, lf - 1);
        if (bytes < 0) {
            throw notMemcached(in, start, lf - 1);
        }
        long dataEnd = end + bytes;
        if (dataEnd + 2 > limit) {
            return INCOMPLETE;
        }
        int d = (int) dataEnd;
        if (in.getByte(d) != '\r' || in.getByte(d + 1) != '\n') {
            throw notMemcached(in, d, Math.min(limit, d + 2));
        }
        valueLength = (int) bytes;
        in.readerIndex(d + 2);
        return HIT;
    }

    private int error(ByteBuf in, int start, int length, int end, int kind) {
        errorText = in.toString(start, length, StandardCharsets.US_ASCII);
        in.readerIndex(end);
        return kind;
    }

    /** Index after the {@code n}-th space of the line {@code [from, to)}, or -1. */
    private static int afterSpaces(ByteBuf in, int from, int to, int n) {
        int seen = 0;
        for (int i = from; i < to; i++) {
            if (in.getByte(i) == ' ' && ++seen == n) {
                return i + 1;
            }
        }
        return -1;
    }

    /** The decimal at {@code [from, ...)} up to a space or {@code to}; -1 when there is none or it is too long. */
    private static long number(ByteBuf in, int from, int to) {
        long value = 0;
        int i = from;
        for (; i < to && in.getByte(i) != ' '; i++) {
            byte b = in.getByte(i);
            if (b < '0' || b > '9' || i - from >= 10) {
                return -1;
            }
            value = value * 10 + (b - '0');
        }
        return i == from ? -1 : value;
    }

    private static boolean is(ByteBuf in, int start, int length, String word) {
        return length == word.length() && startsWith(in, start, length, word);
    }

    private static boolean startsWith(ByteBuf in, int start, int length, String word) {
        if (length < word.length()) {
            return false;
        }
        for (int i = 0; i < word.length(); i++) {
            if (in.getByte(start + i) != word.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private static NotMemcachedException notMemcached(ByteBuf in, int from, int to) {
        String seen = in.toString(from, Math.max(0, Math.min(to - from, 64)), StandardCharsets.US_ASCII)
                .replaceAll("[^\\x20-\\x7e]", "?");
        return new NotMemcachedException("'" + seen + "' is not a memcached reply");
    }

    /** Bytes that are no memcached reply: the connection is closed, as the two sides no longer agree. */
    static final class NotMemcachedException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        NotMemcachedException(String message) {
            super(message, null, false, false);
        }
    }
}
