package io.loadgen.plot.html;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Fills the page template ({@code explorer.html}, with {@code explorer.css} and {@code explorer.js}
 * beside it) and inlines uPlot's script, stylesheet and licence, read from the uPlot WebJar on the
 * classpath: the page needs no network and no file but itself. Stateless; any thread.
 */
final class PageTemplate {
    private static final String OWN = "/io/loadgen/plot/html/";
    private static final String WEBJAR_POM = "/META-INF/maven/org.webjars.npm/uplot/pom.properties";
    private static final Pattern SLOT = Pattern.compile("@@([A-Z_]+)@@");

    private PageTemplate() {
    }

    /** The whole page: {@code title} (plain text) and {@code json} (from {@link PageData}, script-safe). */
    static String render(String title, String json) {
        return render("explorer.html", "explorer.js", title, json);
    }

    /**
     * Another page of this package: the template {@code page} with its script {@code script} (both resources
     * beside {@code explorer.html}), sharing the explorer's stylesheet and uPlot; {@code json} must be script-safe.
     */
    static String render(String page, String script, String title, String json) {
        String version = uplotVersion();
        String uplot = "/META-INF/resources/webjars/uplot/" + version + "/";
        Map<String, String> slots = Map.of(
                "TITLE", escapeHtml(title),
                "UPLOT_VERSION", version,
                "UPLOT_LICENSE", escapeHtml(resource(uplot + "LICENSE")),
                "UPLOT_CSS", styleSafe(resource(uplot + "dist/uPlot.min.css")),
                "UPLOT_JS", scriptSafe(resource(uplot + "dist/uPlot.iife.min.js")),
                "EXPLORER_CSS", styleSafe(resource(OWN + "explorer.css")),
                "EXPLORER_JS", scriptSafe(resource(OWN + script)),
                "ERRORS_JS", scriptSafe(resource(OWN + "errors.js")),
                "FORMAT_JS", scriptSafe(resource(OWN + "format.js")),
                "DATA", json);
        Matcher m = SLOT.matcher(resource(OWN + page));
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = slots.get(m.group(1));
            if (value == null) {
                throw new IllegalStateException(page + " has an unknown slot " + m.group());
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** uPlot's version, from the WebJar's own Maven metadata. */
    static String uplotVersion() {
        Properties p = new Properties();
        try (InputStream in = open(WEBJAR_POM)) {
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p.getProperty("version");
    }

    private static String resource(String path) {
        try (InputStream in = open(path)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static InputStream open(String path) {
        InputStream in = PageTemplate.class.getResourceAsStream(path);
        if (in == null) {
            throw new IllegalStateException(path + " is not on the classpath; the explorer needs loadgen-plot's"
                    + " resources and the uPlot WebJar (org.webjars.npm:uplot)");
        }
        return in;
    }

    /** Text inlined in a script element must not end it. */
    private static String scriptSafe(String js) {
        if (js.toLowerCase(Locale.ROOT).contains("</script")) {
            throw new IllegalStateException("a script to inline contains </script");
        }
        return js;
    }

    private static String styleSafe(String css) {
        if (css.toLowerCase(Locale.ROOT).contains("</style")) {
            throw new IllegalStateException("a stylesheet to inline contains </style");
        }
        return css;
    }

    static String escapeHtml(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }
}
