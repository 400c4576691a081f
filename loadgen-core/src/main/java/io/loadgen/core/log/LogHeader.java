package io.loadgen.core.log;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The self-describing header of one interval log: its {@code #[name: text]} comment lines, in order.
 * loadgen writes {@code run} (the run's options as {@code key=value} words), {@code properties} (the
 * driver's, also {@code key=value}), {@code operations} and the format's own {@code StartTime}; other
 * tools' logs have their own, or none. Immutable; get it from {@link LogSet#headers()}.
 *
 * <pre><code>
 * LogHeader h = set.headers().get(0);
 * String driver = h.value("run").map(LogHeader::keyValues).map(kv -&gt; kv.get("driver")).orElse("unknown");
 * </code></pre>
 *
 * @param source  the log's name, as {@link LogSet#names()} has it
 * @param entries the {@code #[name: text]} lines, in the order written
 */
public record LogHeader(String source, List<Entry> entries) {
    /** One {@code #[name: text]} line. */
    public record Entry(String name, String text) {
    }

    public LogHeader {
        entries = List.copyOf(entries);
    }

    /** The header of {@code comments} (comment lines without the leading {@code #}); other comments are left out. */
    public static LogHeader of(String source, List<String> comments) {
        List<Entry> entries = new ArrayList<>();
        for (String c : comments) {
            int colon = c.indexOf(": ");
            if (c.startsWith("[") && c.endsWith("]") && colon > 1) {
                entries.add(new Entry(c.substring(1, colon), c.substring(colon + 2, c.length() - 1)));
            }
        }
        return new LogHeader(source, entries);
    }

    /** The text of the first entry called {@code name}, e.g. {@code value("run")}. */
    public Optional<String> value(String name) {
        for (Entry e : entries) {
            if (e.name.equals(name)) {
                return Optional.of(e.text);
            }
        }
        return Optional.empty();
    }

    /**
     * The {@code key=value} words of an entry such as {@code run} or {@code properties}, in order; a word
     * without {@code =} is a key with an empty value (e.g. {@code cold-start}).
     */
    public static Map<String, String> keyValues(String text) {
        Map<String, String> kv = new LinkedHashMap<>();
        for (String word : text.split(" ")) {
            int eq = word.indexOf('=');
            if (eq > 0) {
                kv.put(word.substring(0, eq), word.substring(eq + 1));
            } else if (!word.isEmpty()) {
                kv.put(word, "");
            }
        }
        return kv;
    }
}
