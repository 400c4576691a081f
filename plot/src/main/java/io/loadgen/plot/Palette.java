package io.loadgen.plot;

import java.awt.Color;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The one palette of every chart loadgen draws: the PNG/SVG charts (XChart) use these colours directly, and the
 * HTML pages (explorer, compare) receive them in their JSON ({@link #named()}, {@link #colors(List)}), so a view
 * has the same colour everywhere. A latency tag's colour is its view's ({@link #view(String)}); when several
 * tags of one chart share a view (two operation types, two logs), the second and later are shades of it
 * ({@link #shade}). Tags that are no loadgen view (another tool's log, a .hgrm file of any name) take
 * {@link #OTHERS} in turn. Stateless; any thread.
 *
 * <p>docs/plot.md has the table of views and colours; keep it in step.
 */
public final class Palette {
    /** Each operation's latency from its intended start: what users see. */
    public static final Color INTENDED = rgb(0xD62728);
    /** From its actual start: what a synchronous tool reports. */
    public static final Color SERVICE = rgb(0x1F77B4);
    /** Service repaired after the fact (HdrHistogram's expected-interval correction). */
    public static final Color CORRECTED = rgb(0x2CA02C);
    public static final Color FAILED_INTENDED = rgb(0xE377C2);
    public static final Color FAILED_SERVICE = rgb(0x17BECF);
    /** The harness's own latencies: the scheduler's lag ({@code harness.lag}), the hiccup meter's. */
    public static final Color HARNESS_LAG = rgb(0x8C564B);
    public static final Color HARNESS_HICCUP = rgb(0xBCBD22);
    /** Operations per second. */
    public static final Color THROUGHPUT = rgb(0x555555);
    /** The store's pauses ({@code #[event: kind=stop-the-world]}). */
    public static final Color STORE_PAUSE = rgb(0xFF7F0E);
    /** The harness's own GC pauses ({@code #[event: kind=gc source=harness]}). */
    public static final Color HARNESS_GC = rgb(0x9467BD);
    /** Any other kind of event. */
    public static final Color OTHER_EVENT = rgb(0x7F7F7F);
    /** Objectives (--sla, --slo): dashed. */
    public static final Color SLO = rgb(0x000000);
    /** A sweep's knee, findmax's answer and its 95% band. */
    public static final Color ANSWER = rgb(0x00796B);
    /** Steps that fell behind their schedule. */
    public static final Color FELL_BEHIND = rgb(0x7F7F7F);
    /** Tags that are no loadgen view, in turn. */
    static final Color[] OTHERS = {rgb(0x3F51B5), rgb(0x795548), rgb(0x009688), rgb(0xAD1457), rgb(0x607D8B),
        rgb(0xFFB300)};

    /** How a tag's name ends, and the view's colour. Order matters: failed views before their plain ones. */
    private static final String[][] SUFFIXES = {
        {".failed.intended", "failed.intended"}, {".failed.service", "failed.service"}, {".intended", "intended"},
        {".service", "service"}, {".corrected", "corrected"}, {"harness.lag", "harness.lag"},
        {"harness.hiccup", "harness.hiccup"}};
    private static final Map<String, Color> BY_VIEW = new LinkedHashMap<>();

    static {
        BY_VIEW.put("intended", INTENDED);
        BY_VIEW.put("service", SERVICE);
        BY_VIEW.put("corrected", CORRECTED);
        BY_VIEW.put("failed.intended", FAILED_INTENDED);
        BY_VIEW.put("failed.service", FAILED_SERVICE);
        BY_VIEW.put("harness.lag", HARNESS_LAG);
        BY_VIEW.put("harness.hiccup", HARNESS_HICCUP);
    }

    private Palette() {
    }

    /**
     * The view a tag or curve label is of, by how it ends ({@code READ.intended}, {@code run: READ.failed.service},
     * {@code harness.lag}, or a view's bare name, {@code corrected}); null for none.
     */
    public static String view(String tag) {
        if (tag == null) {
            return null;
        }
        if (BY_VIEW.containsKey(tag)) {
            return tag;
        }
        for (String[] s : SUFFIXES) {
            if (tag.endsWith(s[0])) {
                return s[1];
            }
        }
        return null;
    }

    /** A view's colour ({@code intended}, {@code failed.service}, {@code harness.lag}, ...), or null. */
    public static Color ofView(String view) {
        return BY_VIEW.get(view);
    }

    /**
     * The colours of {@code tags} drawn on one chart, in order: each its view's, the n-th tag of a view that
     * already has one its n-th shade; tags of no view take {@link #OTHERS} in turn.
     */
    public static List<Color> colors(List<String> tags) {
        Map<String, Integer> seen = new HashMap<>();
        List<Color> colors = new ArrayList<>(tags.size());
        int other = 0;
        for (String tag : tags) {
            String view = view(tag);
            if (view == null) {
                colors.add(OTHERS[other++ % OTHERS.length]);
            } else {
                int n = seen.merge(view, 1, Integer::sum) - 1;
                colors.add(shade(BY_VIEW.get(view), n));
            }
        }
        return colors;
    }

    /** The colour of an {@code #[event: ...]} kind: the store's stop-the-world, the harness's GC, or other. */
    public static Color ofEvent(String kind) {
        return switch (kind) {
            case "stop-the-world" -> STORE_PAUSE;
            case "gc" -> HARNESS_GC;
            default -> OTHER_EVENT;
        };
    }

    /**
     * {@code c} itself for n = 0; then darker and lighter by turns (n = 1 darker by 35%, 2 lighter by 35%, 3
     * darker by 60%, ...), so tags of one view stay in its colour and apart from each other.
     */
    public static Color shade(Color c, int n) {
        if (n == 0) {
            return c;
        }
        double f = Math.min(0.75, 0.35 + 0.25 * ((n - 1) / 2));
        if (n % 2 == 1) {
            return new Color((int) (c.getRed() * (1 - f)), (int) (c.getGreen() * (1 - f)), (int) (c.getBlue() * (1 - f)));
        }
        return new Color(c.getRed() + (int) ((255 - c.getRed()) * f), c.getGreen() + (int) ((255 - c.getGreen()) * f),
                c.getBlue() + (int) ((255 - c.getBlue()) * f));
    }

    /** {@code #rrggbb}, as a page's script takes it. */
    public static String hex(Color c) {
        return String.format(Locale.ROOT, "#%02x%02x%02x", c.getRed(), c.getGreen(), c.getBlue());
    }

    /** The colours a page needs by name (views, throughput, events, objectives, answer), as {@code #rrggbb}. */
    public static Map<String, String> named() {
        Map<String, String> m = new LinkedHashMap<>();
        BY_VIEW.forEach((k, v) -> m.put(k, hex(v)));
        m.put("throughput", hex(THROUGHPUT));
        m.put("stop-the-world", hex(STORE_PAUSE));
        m.put("gc", hex(HARNESS_GC));
        m.put("event", hex(OTHER_EVENT));
        m.put("slo", hex(SLO));
        m.put("answer", hex(ANSWER));
        return m;
    }

    private static Color rgb(int rgb) {
        return new Color(rgb);
    }
}
