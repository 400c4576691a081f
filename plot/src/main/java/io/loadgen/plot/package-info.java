/**
 * Pictures of a run: percentile-distribution, latency-over-time and latency-vs-throughput charts
 * (PNG and SVG through XChart) and the self-contained HTML latency explorer (uPlot, inlined when a
 * page is written). Everything here reads through core's readers ({@code io.loadgen.core.log},
 * the summary and sweep readers); this module never parses a log, {@code .hgrm} or JSON file itself.
 * Core never depends on this module.
 */
package io.loadgen.plot;
