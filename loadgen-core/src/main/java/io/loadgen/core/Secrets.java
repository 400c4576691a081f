package io.loadgen.core;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Redacts secrets from whatever loadgen writes or prints: the interval log's header, the JSON summary,
 * status and summary lines, error messages and log lines all pass through here, so a password given in
 * {@code redis.uri=redis://:PASSWORD@host} never reaches a CI artifact. The driver itself still gets the
 * real value: redaction is for output only. Stateless; any thread.
 *
 * <p>Two rules:
 * <ul>
 *   <li>the user-info of a URI keeps its user name and loses its password:
 *       {@code redis://:pw@host} becomes {@code redis://:***@host}, {@code redis://user:pw@host}
 *       {@code redis://user:***@host}, and {@code redis://pw@host} (a password alone, as Redis URIs allow)
 *       {@code redis://***@host};</li>
 *   <li>a property whose name contains {@code password}, {@code passwd}, {@code secret}, {@code token} or
 *       {@code auth} (any case) has its value replaced by {@code ***}, also where text shows it as
 *       {@code name=value}.</li>
 * </ul>
 * <pre><code>
 * Secrets.redact("cannot connect to redis://:hunter2@db:6379")  // "cannot connect to redis://:***@db:6379"
 * Secrets.redactProperty("redis.password", "hunter2")          // "***"
 * </code></pre>
 */
public final class Secrets {
    /** What a secret is replaced with. */
    public static final String MASK = "***";

    /** Words that make a property's name secret. */
    public static final List<String> SECRET_NAME_WORDS = List.of("password", "passwd", "secret", "token", "auth");

    /** scheme://user-info@ : the user-info is everything up to the @ before the host, without / or spaces. */
    private static final Pattern URI_USER_INFO =
            Pattern.compile("([A-Za-z][A-Za-z0-9+.-]*://)([^/@\\s'\"<>]*)@");
    /** name=value where the name says it is secret; the value runs to the next space or quote. */
    private static final Pattern SECRET_ASSIGNMENT = Pattern.compile(
            "([\\w.-]*(?i:password|passwd|secret|token|auth)[\\w.-]*)=([^\\s'\",;]+)");

    private Secrets() {
    }

    /** True when a property of this name holds a secret (its name contains one of {@link #SECRET_NAME_WORDS}). */
    public static boolean isSecretName(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        for (String w : SECRET_NAME_WORDS) {
            if (n.contains(w)) {
                return true;
            }
        }
        return false;
    }

    /** A property's value as it may be shown: {@link #MASK} for a secret name, else with URI passwords masked. */
    public static String redactProperty(String name, String value) {
        if (value == null) {
            return null;
        }
        return isSecretName(name) ? MASK : redact(value);
    }

    /**
     * {@code text} with every URI's password and every secret {@code name=value}'s value masked; text without
     * either is returned as it is.
     */
    public static String redact(String text) {
        if (text == null || (text.indexOf('@') < 0 && text.indexOf('=') < 0)) {
            return text;
        }
        String out = text;
        if (out.indexOf('@') >= 0 && out.contains("://")) {
            Matcher m = URI_USER_INFO.matcher(out);
            StringBuilder sb = new StringBuilder(out.length());
            while (m.find()) {
                m.appendReplacement(sb, Matcher.quoteReplacement(m.group(1) + maskUserInfo(m.group(2)) + "@"));
            }
            m.appendTail(sb);
            out = sb.toString();
        }
        if (out.indexOf('=') >= 0) {
            Matcher m = SECRET_ASSIGNMENT.matcher(out);
            StringBuilder sb = new StringBuilder(out.length());
            while (m.find()) {
                String value = m.group(2);
                m.appendReplacement(sb, Matcher.quoteReplacement(m.group(1) + "=" + (value.equals(MASK) ? value : MASK)));
            }
            m.appendTail(sb);
            out = sb.toString();
        }
        return out;
    }

    /** {@code user:pw} keeps {@code user}; a user-info without a colon is taken as a password (Redis URIs). */
    private static String maskUserInfo(String userInfo) {
        if (userInfo.isEmpty()) {
            return userInfo;
        }
        int colon = userInfo.indexOf(':');
        return colon < 0 ? MASK : userInfo.substring(0, colon + 1) + MASK;
    }
}
