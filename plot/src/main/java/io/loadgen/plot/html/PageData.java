package io.loadgen.plot.html;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.loadgen.core.driver.Status;
import io.loadgen.core.log.LogHeader;
import io.loadgen.plot.Palette;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToDoubleFunction;

/**
 * Writes {@link ExplorerData} as the JSON the page's script reads ({@code <script type="application/json">}).
 * Per tag: the bucket dictionary ({@code d}: per bucket, ascending, its highest equivalent value less the
 * previous bucket's, and its highest less its lowest equivalent value), the intervals' starts ({@code s}), ends
 * ({@code e}) and, where a log's lines are out of order, the latest start read so far ({@code pm}); and
 * per interval its buckets as pairs (index delta, count), indexes into the dictionary, each after the
 * previous one, packed into a string ({@link #pack}), the intervals' strings joined by commas, gzipped, in base64
 * ({@code bz}); per interval its count, p50, p99 and max ({@code f}),
 * and the whole range's counts packed as an interval's ({@code w}), so the page opens without decoding {@code b}.
 * {@code check} holds the whole range's figures from {@link BucketCounts}, which the page recomputes and compares:
 * from {@code w} on load, and from the intervals once it has inflated them. Also: the palette ({@link
 * io.loadgen.plot.Palette}), each tag's colour, and the logs' pauses ({@code events}). Stateless.
 */
final class PageData {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** Percentiles the page checks itself on; the summary table's. */
    private static final String DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    /** Header entries made of {@code key=value} words, shown as tables. */
    private static final Set<String> KEY_VALUE_ENTRIES = Set.of("run", "properties");
    private static final String[] CHECKED = {"50", "90", "99", "99.9"};

    private PageData() {
    }

    /** The page's data as JSON that can sit inside a script element (no {@code <} in it). */
    static String json(ExplorerData data, ExplorerOptions options, String title) {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = new JsonFactory().createGenerator(out)) {
            g.setCodec(MAPPER);
            g.writeStartObject();
            g.writeStringField("title", title);
            g.writeArrayFieldStart("sources");
            for (String s : data.sources()) {
                g.writeString(s);
            }
            g.writeEndArray();
            g.writeNumberField("startTimeSec", data.startTimeSec());
            g.writeArrayFieldStart("range");
            g.writeNumber(options.startSec());
            if (options.endSec() == Double.MAX_VALUE) {
                g.writeNull();
            } else {
                g.writeNumber(options.endSec());
            }
            g.writeEndArray();
            headers(g, data);
            g.writeFieldName("summary");
            g.writeTree(options.summary());
            g.writeArrayFieldStart("statusNames");
            for (int i = 0; i < Status.count(); i++) {
                g.writeString(Status.byOrdinal(i).name());
            }
            g.writeEndArray();
            g.writeFieldName("palette");
            g.writeObject(Palette.named());
            g.writeArrayFieldStart("throughputColors"); // one per operation type, as OverTimeChart draws them
            for (int i = 0; i < 6; i++) {
                g.writeString(Palette.hex(Palette.shade(Palette.THROUGHPUT, i)));
            }
            g.writeEndArray();
            g.writeArrayFieldStart("events");
            for (ExplorerData.Event e : data.events()) {
                g.writeStartObject();
                g.writeStringField("kind", e.kind());
                g.writeStringField("source", e.source());
                g.writeNumberField("start", e.startSec());
                g.writeNumberField("length", e.lengthSec());
                if (!Double.isNaN(e.rateOpsPerSec())) {
                    g.writeNumberField("rate", e.rateOpsPerSec());
                }
                g.writeEndObject();
            }
            g.writeEndArray();
            List<java.awt.Color> colors = Palette.colors(data.tags().stream().map(TagSeries::name).toList());
            g.writeArrayFieldStart("tags");
            for (int i = 0; i < data.tags().size(); i++) {
                tag(g, data.tags().get(i), Palette.hex(colors.get(i)));
            }
            g.writeEndArray();
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // '<' only occurs inside JSON strings, where \u003c means the same: nothing can close the script.
        return out.toString().replace("<", "\\u003c");
    }

    private static void headers(JsonGenerator g, ExplorerData data) throws IOException {
        g.writeArrayFieldStart("headers");
        for (LogHeader h : data.headers()) {
            g.writeStartObject();
            g.writeStringField("source", h.source());
            g.writeArrayFieldStart("entries");
            for (LogHeader.Entry e : h.entries()) {
                g.writeStartObject();
                g.writeStringField("name", e.name());
                g.writeStringField("text", e.text());
                if (KEY_VALUE_ENTRIES.contains(e.name())) {
                    g.writeObjectFieldStart("kv");
                    for (Map.Entry<String, String> kv : LogHeader.keyValues(e.text()).entrySet()) {
                        g.writeStringField(kv.getKey(), kv.getValue());
                    }
                    g.writeEndObject();
                }
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    private static void tag(JsonGenerator g, TagSeries t, String color) throws IOException {
        g.writeStartObject();
        g.writeStringField("name", t.name());
        g.writeStringField("color", color);
        g.writeStringField("kind", t.kind().name().toLowerCase(java.util.Locale.ROOT));
        long[] lows = t.lows();
        long[] highs = t.highs();
        StringBuilder dictionary = new StringBuilder(highs.length * 4);
        for (int i = 0; i < highs.length; i++) {
            pack(highs[i] - (i == 0 ? 0 : highs[i - 1]), dictionary);
            pack(highs[i] - lows[i], dictionary);
        }
        g.writeStringField("d", dictionary.toString());
        times(g, "s", t, TagSeries.Interval::startSec);
        times(g, "e", t, TagSeries.Interval::endSec);
        if (t.intervals().stream().anyMatch(in -> in.prefixMaxStartSec() != in.startSec())) {
            times(g, "pm", t, TagSeries.Interval::prefixMaxStartSec);
        }
        // Each interval's figures, so the page draws its over-time charts without decoding a histogram, and the
        // whole range's counts (as an interval's pairs, over the dictionary), so it opens on the whole run the same
        // way. The intervals' buckets ("bz") are gzipped: a 1-hour log's page is then a third of the size, and the
        // page inflates them after its first paint, when a window first needs them (bench/explorer-open.sh).
        g.writeArrayFieldStart("f");
        for (BucketCounts c : sameStart(t)) {
            g.writeStartArray();
            g.writeNumber(c.totalCount());
            g.writeNumber(c.valueAtPercentile(50));
            g.writeNumber(c.valueAtPercentile(99));
            g.writeNumber(c.max());
            g.writeEndArray();
        }
        g.writeEndArray();
        BucketCounts whole = t.window(Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY);
        StringBuilder w = new StringBuilder();
        int last = -1;
        for (int i = 0; i < highs.length; i++) {
            if (whole.count(i) > 0) {
                pack(i - last, w);
                pack(whole.count(i), w);
                last = i;
            }
        }
        g.writeStringField("w", w.toString());
        StringBuilder all = new StringBuilder();
        for (TagSeries.Interval in : t.intervals()) {
            if (in != t.intervals().get(0)) {
                all.append(','); // one comma between intervals, empty ones too
            }
            int previous = -1;
            for (int i = 0; i < in.highs().length; i++) {
                int index = t.indexOf(in.highs()[i]);
                pack(index - previous, all);
                pack(in.counts()[i], all);
                previous = index;
            }
        }
        g.writeStringField("bz", gzipBase64(all));
        check(g, whole);
        g.writeEndObject();
    }

    /**
     * Per interval, the figures the page's over-time charts draw at its start: of the interval itself, or of every
     * interval of the tag that starts at the same time (several logs' intervals, which the page draws as one).
     */
    private static List<BucketCounts> sameStart(TagSeries t) {
        Map<Double, List<TagSeries.Interval>> byStart = new java.util.HashMap<>();
        for (TagSeries.Interval in : t.intervals()) {
            byStart.computeIfAbsent(in.startSec(), s -> new java.util.ArrayList<>()).add(in);
        }
        List<BucketCounts> figures = new java.util.ArrayList<>();
        for (TagSeries.Interval in : t.intervals()) {
            List<TagSeries.Interval> group = byStart.get(in.startSec());
            figures.add(group.size() == 1 ? t.of(in) : t.merged(group));
        }
        return figures;
    }

    /** {@code text} gzipped and in base64, as the page's DecompressionStream reads it back. */
    private static String gzipBase64(CharSequence text) throws IOException {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream(text.length() / 3 + 64);
        try (java.util.zip.GZIPOutputStream gz = new java.util.zip.GZIPOutputStream(bytes, 1 << 16)) {
            gz.write(text.toString().getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        }
        return java.util.Base64.getEncoder().encodeToString(bytes.toByteArray());
    }

    private static void times(JsonGenerator g, String field, TagSeries t, ToDoubleFunction<TagSeries.Interval> time)
            throws IOException {
        g.writeArrayFieldStart(field);
        for (TagSeries.Interval in : t.intervals()) {
            g.writeNumber(time.applyAsDouble(in));
        }
        g.writeEndArray();
    }

    /**
     * Appends {@code value} (at least 0) as base64url digits of 5 bits each, least significant first; digits
     * 32-63 say another follows. Most deltas and counts take one character.
     */
    static void pack(long value, StringBuilder out) {
        long v = value;
        while (v >= 32) {
            out.append(DIGITS.charAt(32 + (int) (v & 31)));
            v >>>= 5;
        }
        out.append(DIGITS.charAt((int) v));
    }

    private static void check(JsonGenerator g, BucketCounts all) throws IOException {
        g.writeObjectFieldStart("check");
        g.writeNumberField("count", all.totalCount());
        g.writeNumberField("min", all.min());
        g.writeNumberField("mean", all.mean());
        g.writeNumberField("max", all.max());
        for (String p : CHECKED) {
            g.writeNumberField("p" + p, all.valueAtPercentile(Double.parseDouble(p)));
        }
        g.writeEndObject();
    }
}
