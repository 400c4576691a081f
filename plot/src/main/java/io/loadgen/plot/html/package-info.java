/**
 * The self-contained HTML latency explorer: {@link io.loadgen.plot.html.HtmlExplorer} reads interval logs
 * through core's {@code io.loadgen.core.log} and writes one page with uPlot (from its WebJar), the page's
 * own script and the logs' interval histograms inlined, so that a window chosen in a browser is summed
 * and read exactly as {@code loadgen report --start --end} sums and reads it.
 */
package io.loadgen.plot.html;
