package io.loadgen.core.gate;

import io.loadgen.core.BadInputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RuleParserTest {

    @Test
    void latencyRuleReadsOperationViewPercentileAndLimitInNanoseconds() {
        Rule r = RuleParser.parse("READ.intended.p99 < 5ms");
        assertEquals("READ.intended.p99 < 5ms", r.text());
        assertEquals(new Metric(Metric.Kind.LATENCY, "READ", GateView.INTENDED, Stat.percentile(99)), r.metric());
        assertEquals(Comparison.LESS, r.comparison());
        assertEquals(new Limit(5_000_000, Limit.Unit.NANOS), r.limit());
        assertFalse(r.windowed());
        assertFalse(r.abortOnFail());
    }

    static Stream<Arguments> percentileSpellings() {
        return Stream.of(
                Arguments.of("p99.9", 99.9), Arguments.of("p(99.9)", 99.9), Arguments.of("p999", 99.9),
                Arguments.of("p9999", 99.99), Arguments.of("p50", 50.0), Arguments.of("med", 50.0),
                Arguments.of("p(90)", 90.0), Arguments.of("P95", 95.0), Arguments.of("p99.99", 99.99));
    }

    @ParameterizedTest(name = "{0} = {1}")
    @MethodSource("percentileSpellings")
    void percentilesCanBeWrittenTheWaysK6AndDropwizardWriteThem(String stat, double percentile) {
        Stat s = RuleParser.parse("UPDATE.service." + stat + " <= 2.5ms").metric().stat();
        assertEquals(Stat.Kind.PERCENTILE, s.kind());
        assertEquals(percentile, s.percentile());
    }

    @Test
    void failedSeriesAreOperationViewsOfTheirOwn() {
        Rule rule = RuleParser.parse("read.failed.intended.p99.9 < 2ms");
        assertEquals(new Metric(Metric.Kind.LATENCY, "read", GateView.FAILED_INTENDED, Stat.percentile(99.9)),
                rule.metric());
        assertEquals("READ.failed.intended", rule.metric().view().tag("READ"));
        assertEquals(GateView.FAILED_SERVICE, RuleParser.parse("*.failed.service.max < 1s").metric().view());
        assertEquals(Stat.COUNT, RuleParser.parse("READ.failed.service.count < 10").metric().stat());
    }

    @Test
    void otherStatisticsAndP100AsMax() {
        assertEquals(Stat.MAX, RuleParser.parse("READ.intended.max < 1s").metric().stat());
        assertEquals(Stat.MAX, RuleParser.parse("READ.intended.p100 < 1s").metric().stat());
        assertEquals(Stat.MIN, RuleParser.parse("READ.intended.min > 1us").metric().stat());
        assertEquals(Stat.MEAN, RuleParser.parse("READ.intended.avg < 1ms").metric().stat());
        Rule count = RuleParser.parse("READ.intended.count >= 1000");
        assertEquals(Stat.COUNT, count.metric().stat());
        assertEquals(new Limit(1000, Limit.Unit.COUNT), count.limit());
    }

    @Test
    void unitsOfLatencyLimits() {
        assertEquals(750, RuleParser.parse("READ.service.p50 < 750ns").limit().value());
        assertEquals(250_000, RuleParser.parse("READ.service.p50 < 250us").limit().value());
        assertEquals(250_000, RuleParser.parse("READ.service.p50 < 250µs").limit().value());
        assertEquals(1.5e9, RuleParser.parse("READ.service.p50 < 1.5s").limit().value());
        assertEquals(120e9, RuleParser.parse("READ.service.p50 < 2m").limit().value());
        assertEquals(5e6, RuleParser.parse("READ.service.p50 < 5 ms").limit().value(), "a space before the unit");
        assertEquals(5e6, RuleParser.parse("READ.service.p50<5ms").limit().value(), "no spaces at all");
        assertEquals(90e9, RuleParser.parse("READ.service.max < 1m30s").limit().value(), "as Go and k6 write it");
        assertEquals(90e9, RuleParser.parse("max<1m30s").limit().value());
        assertThrows(BadInputException.class, () -> RuleParser.parse("READ.service.max < 30s1m"));
    }

    @Test
    void everyOperationHarnessLagErrorsAndThroughput() {
        Rule every = RuleParser.parse("*.intended.max < 1s");
        assertTrue(every.metric().everyOp());
        assertEquals("UPDATE.intended.max < 1s", every.nameFor("UPDATE"));

        Rule lag = RuleParser.parse("harness.lag.p99 < 1ms");
        assertEquals(new Metric(Metric.Kind.LATENCY, null, GateView.LAG, Stat.percentile(99)), lag.metric());

        Rule share = RuleParser.parse("READ.errors < 0.1%");
        assertEquals(new Metric(Metric.Kind.ERRORS, "READ", null, null), share.metric());
        assertEquals(Limit.Unit.FRACTION, share.limit().unit());
        assertEquals(0.001, share.limit().value(), 1e-15);
        assertEquals(new Limit(10, Limit.Unit.COUNT), RuleParser.parse("READ.errors <= 10").limit());
        assertNull(RuleParser.parse("errors < 1%").metric().op(), "all types together");

        Rule total = RuleParser.parse("throughput > 9500/s");
        assertEquals(new Metric(Metric.Kind.THROUGHPUT, null, null, null), total.metric());
        assertEquals(new Limit(9500, Limit.Unit.OPS_PER_SEC), total.limit());
        assertEquals(Comparison.GREATER, total.comparison());
        assertEquals(9500, RuleParser.parse("READ.throughput >= 9500").limit().value());
        assertEquals(9500, RuleParser.parse("READ.throughput >= 9500 ops/s").limit().value());
    }

    static Stream<Arguments> k6Expressions() {
        return Stream.of(
                Arguments.of("p(99)<200", "*.intended.p99 < 200ms", 200e6),
                Arguments.of("avg<100", "*.intended.mean < 100ms", 100e6),
                Arguments.of("p(95)<=300", "*.intended.p95 <= 300ms", 300e6),
                Arguments.of("max<1s", "*.intended.max < 1s", 1e9),
                Arguments.of("med < 2.5", "*.intended.p50 < 2.5ms", 2.5e6),
                Arguments.of("p(99.9) < 20 us", "*.intended.p99.9 < 20 us", 20e3),
                Arguments.of("p(99)<200 over 10s windows", "*.intended.p99 < 200ms over 10s windows", 200e6));
    }

    @ParameterizedTest(name = "{0} = {1}")
    @MethodSource("k6Expressions")
    void k6ExpressionsJudgeEveryTypesIntendedLatencyInMillisecondsByDefault(String k6, String loadgen, double ns) {
        Rule r = RuleParser.parse(k6);
        assertEquals(loadgen, r.text(), "named in loadgen's form, so the unit shows");
        assertEquals(Metric.EVERY_OP, r.metric().op());
        assertEquals(GateView.INTENDED, r.metric().view());
        assertEquals(new Limit(ns, Limit.Unit.NANOS), r.limit());
    }

    @Test
    void errorRateIsAFractionOfTheOperationsAsK6sRateIs() {
        Rule k6 = RuleParser.parse("rate<0.01");
        assertEquals("error_rate < 0.01", k6.text());
        assertEquals(new Metric(Metric.Kind.ERRORS, null, null, null), k6.metric());
        assertEquals(new Limit(0.01, Limit.Unit.FRACTION), k6.limit());
        assertEquals(new Limit(0.01, Limit.Unit.FRACTION), RuleParser.parse("READ.error_rate < 1%").limit());
        Rule perOp = RuleParser.parse("READ.error_rate <= 0.001");
        assertEquals(new Metric(Metric.Kind.ERRORS, "READ", null, null), perOp.metric());
        assertEquals(new Limit(0.001, Limit.Unit.FRACTION), perOp.limit());
        assertEquals(new Limit(3, Limit.Unit.COUNT), RuleParser.parse("errors < 3").limit(), "errors stays a count");
    }

    @Test
    void windowsAndAbortOnFail() {
        Rule r = RuleParser.parse("  READ.intended.p99   <  20ms over 10s windows abort-on-fail after 30s ");
        assertEquals("READ.intended.p99 < 20ms over 10s windows abort-on-fail after 30s", r.text(), "spaces collapsed");
        assertEquals(Duration.ofSeconds(10), r.window());
        assertTrue(r.abortOnFail());
        assertEquals(Duration.ofSeconds(30), r.abortAfter());

        Rule noGrace = RuleParser.parse("READ.intended.p99 < 20ms over 500ms windows abort-on-fail");
        assertEquals(Duration.ofMillis(500), noGrace.window());
        assertTrue(noGrace.abortOnFail());
        assertNull(noGrace.abortAfter());
    }

    @Test
    void aRunAppliesItsAbortOnFailGraceToWindowedRulesThatNameNone() {
        Duration grace = Duration.ofSeconds(5);
        Rule plain = RuleParser.parse("READ.intended.p99 < 20ms over 10s windows").forRun(grace);
        assertTrue(plain.abortOnFail());
        assertEquals(grace, plain.abortAfter());
        Rule own = RuleParser.parse("READ.intended.p99 < 20ms over 10s windows abort-on-fail after 30s").forRun(grace);
        assertEquals(Duration.ofSeconds(30), own.abortAfter(), "the rule's own grace wins");
        Rule bare = RuleParser.parse("READ.intended.p99 < 20ms over 10s windows abort-on-fail").forRun(null);
        assertEquals(Duration.ZERO, bare.abortAfter(), "no grace anywhere: at the first failed window");
        assertFalse(RuleParser.parse("READ.intended.p99 < 20ms").forRun(grace).abortOnFail(), "not windowed");
        assertFalse(RuleParser.parse("READ.intended.p99 < 20ms over 1s windows").forRun(null).abortOnFail());
    }

    @Test
    void theHarnessVerdictIsComparedWithEqualsOrNotEquals() {
        Rule healthy = RuleParser.parse("harness.verdict == healthy");
        assertEquals(new Metric(Metric.Kind.VERDICT, null, null, null), healthy.metric());
        assertEquals(Comparison.EQUAL, healthy.comparison());
        assertEquals(Limit.HEALTHY, healthy.limit());
        assertFalse(healthy.windowed());
        Rule notBehind = RuleParser.parse("Harness.Verdict != BEHIND");
        assertEquals(Comparison.NOT_EQUAL, notBehind.comparison());
        assertEquals(Limit.BEHIND, notBehind.limit());
    }

    @Test
    void theDiagnosisIsComparedWithEqualsOrNotEqualsToACauseCode() {
        Rule notStalled = RuleParser.parse("diagnosis != harness_stalled");
        assertEquals(new Metric(Metric.Kind.DIAGNOSIS, null, null, null), notStalled.metric());
        assertEquals(Comparison.NOT_EQUAL, notStalled.comparison());
        assertEquals(new Limit(io.loadgen.core.diagnosis.CauseCode.HARNESS_STALLED.ordinal(), Limit.Unit.CAUSE),
                notStalled.limit());
        assertEquals("harness_stalled", notStalled.limit().format());
        assertEquals(Comparison.EQUAL, RuleParser.parse("Diagnosis == OK").comparison());
    }

    static Stream<Arguments> badRules() {
        return Stream.of(
                Arguments.of("diagnosis < ok",
                        "rule 'diagnosis < ok': the diagnosis is compared with == or !=; write 'diagnosis != CAUSE' or"
                                + " 'diagnosis == CAUSE' with a CAUSE of ok, target_slow, target_stalled, target_failing,"
                                + " concurrency_limited, harness_saturated, harness_stalled, machine_noise"),
                Arguments.of("diagnosis == slow",
                        "rule 'diagnosis == slow': 'slow' is not a cause; write 'diagnosis != CAUSE' or 'diagnosis =="
                                + " CAUSE' with a CAUSE of ok, target_slow, target_stalled, target_failing,"
                                + " concurrency_limited, harness_saturated, harness_stalled, machine_noise"),
                Arguments.of("READ.intended.p99 < 5",
                        "rule 'READ.intended.p99 < 5': the limit '5' needs a unit; latency limits take ns, us, ms, s or m"
                                + " (e.g. 5ms)"),
                Arguments.of("READ.intended.p99 < 5sec",
                        "rule 'READ.intended.p99 < 5sec': unknown unit 'sec' in '5sec'; latency limits take ns, us, ms,"
                                + " s or m (e.g. 5ms)"),
                Arguments.of("READ.intnded.p99 < 5ms",
                        "rule 'READ.intnded.p99 < 5ms': unknown view 'intnded'; an operation's views are intended,"
                                + " service and corrected (and the harness has harness.lag.STAT)"),
                Arguments.of("READ.intended.p99x < 5ms",
                        "rule 'READ.intended.p99x < 5ms': unknown statistic 'p99x'; write p50, p99.9 (or p(99.9),"
                                + " p999), min, max, mean or count"),
                Arguments.of("READ.intended.p101 < 5ms",
                        "rule 'READ.intended.p101 < 5ms': percentile 'p101' is outside (0, 100]; write p50, p99.9"
                                + " (or p(99.9), p999), min, max, mean or count"),
                Arguments.of("READ.intended.p0 < 5ms",
                        "rule 'READ.intended.p0 < 5ms': percentile 'p0' is outside (0, 100]; write p50, p99.9"
                                + " (or p(99.9), p999), min, max, mean or count"),
                Arguments.of("READ.intended < 5ms",
                        "rule 'READ.intended < 5ms': 'READ.intended' needs a statistic: READ.intended.p99, for example"
                                + " (p50, p99.9 (or p(99.9), p999), min, max, mean or count)"),
                Arguments.of("READ.intended.p99 == 5ms",
                        "rule 'READ.intended.p99 == 5ms': unknown comparison '=='; use <, <=, > or >="),
                Arguments.of("READ.intended.p99 5ms",
                        "rule 'READ.intended.p99 5ms': no comparison; write METRIC CMP LIMIT, e.g."
                                + " 'READ.intended.p99 < 5ms', '*.intended.max < 1s', 'READ.errors < 0.1%' or"
                                + " 'throughput > 9500/s' (CMP is <, <=, > or >=)"),
                Arguments.of("READ.intended.p99 <",
                        "rule 'READ.intended.p99 <': no limit after '<'; write METRIC CMP LIMIT, e.g."
                                + " 'READ.intended.p99 < 5ms', '*.intended.max < 1s', 'READ.errors < 0.1%' or"
                                + " 'throughput > 9500/s'"),
                Arguments.of("latency < 5ms",
                        "rule 'latency < 5ms': unknown metric 'latency'; write OP.VIEW.STAT (e.g. READ.intended.p99),"
                                + " OP.failed.VIEW.STAT (e.g. READ.failed.intended.p99), harness.lag.STAT, OP.errors,"
                                + " errors, OP.error_rate, error_rate, OP.throughput or throughput (or the rule"
                                + " harness.verdict == healthy)"),
                Arguments.of("READ.errors < 0.01",
                        "rule 'READ.errors < 0.01': an errors limit is a whole count (e.g. 10); for a fraction of the"
                                + " operations write 'error_rate < 0.01' (or a share, 'errors < 1%')"),
                Arguments.of("error_rate < 2",
                        "rule 'error_rate < 2': an error_rate is a fraction of the operations, from 0 to 1 (e.g."
                                + " 0.01), or a share (e.g. 1%), not '2'"),
                Arguments.of("rate < 5ms",
                        "rule 'error_rate < 5ms': an error_rate limit is a fraction (e.g. 0.01) or a share of the"
                                + " operations (e.g. 1%), not '5ms'"),
                Arguments.of("p(99) < fast",
                        "rule '*.intended.p99 < fast': the limit 'fast' is not a number; write METRIC CMP LIMIT,"
                                + " e.g. 'READ.intended.p99 < 5ms', '*.intended.max < 1s', 'READ.errors < 0.1%' or"
                                + " 'throughput > 9500/s'"),
                Arguments.of("READ.failed.corrected.p99 < 5ms",
                        "rule 'READ.failed.corrected.p99 < 5ms': 'READ.failed.corrected.p99': the failed series are"
                                + " READ.failed.intended and READ.failed.service, e.g. READ.failed.intended.p99"),
                Arguments.of("READ.failed.service < 5ms",
                        "rule 'READ.failed.service < 5ms': 'READ.failed.service' needs a statistic:"
                                + " READ.failed.service.p99, for example (p50, p99.9 (or p(99.9), p999), min, max, mean"
                                + " or count)"),
                Arguments.of("harness.gc.p99 < 5ms",
                        "rule 'harness.gc.p99 < 5ms': the harness has its lag, harness.lag.STAT (e.g."
                                + " harness.lag.p99), and its verdict: write 'harness.verdict == healthy' (or != healthy,"
                                + " == behind, != behind)"),
                Arguments.of("harness.verdict < healthy",
                        "rule 'harness.verdict < healthy': the verdict is compared with == or !=; write"
                                + " 'harness.verdict == healthy' (or != healthy, == behind, != behind)"),
                Arguments.of("harness.verdict == fine",
                        "rule 'harness.verdict == fine': 'fine' is not a verdict (healthy or behind); the verdict is"
                                + " judged on the whole run, without windows; write 'harness.verdict == healthy' (or !="
                                + " healthy, == behind, != behind)"),
                Arguments.of("harness.verdict == healthy over 10s windows",
                        "rule 'harness.verdict == healthy over 10s windows': 'healthy over 10s windows' is not a"
                                + " verdict (healthy or behind); the verdict is judged on the whole run, without"
                                + " windows; write 'harness.verdict == healthy' (or != healthy, == behind, != behind)"),
                Arguments.of("READ.errors < 5ms",
                        "rule 'READ.errors < 5ms': an errors limit is a count (e.g. 10) or a share of the operations"
                                + " (e.g. 0.1%), not '5ms'"),
                Arguments.of("throughput > 5ms",
                        "rule 'throughput > 5ms': a throughput limit is in operations per second (e.g. 9500/s),"
                                + " not '5ms'"),
                Arguments.of("READ.intended.count > 5ms",
                        "rule 'READ.intended.count > 5ms': a count limit is a plain number (e.g. 1000), not '5ms'"),
                Arguments.of("READ.intended.p99 < fast",
                        "rule 'READ.intended.p99 < fast': the limit 'fast' is not a number; write METRIC CMP LIMIT,"
                                + " e.g. 'READ.intended.p99 < 5ms', '*.intended.max < 1s', 'READ.errors < 0.1%' or"
                                + " 'throughput > 9500/s'"),
                Arguments.of("READ.intended.p99 < 5ms over 10 windows",
                        "rule 'READ.intended.p99 < 5ms over 10 windows': 'over 10 windows' needs a window length with"
                                + " a unit, e.g. 'over 10s windows'"),
                Arguments.of("READ.intended.p99 < 5ms over 10s",
                        "rule 'READ.intended.p99 < 5ms over 10s': write windows as 'over 10s windows'"),
                Arguments.of("READ.intended.p99 < 5ms abort-on-fail",
                        "rule 'READ.intended.p99 < 5ms abort-on-fail': abort-on-fail needs windows: a run is stopped"
                                + " by a rule judged on every window, e.g. '... over 10s windows abort-on-fail'"),
                Arguments.of("READ.intended.p99 < 5ms over 1s windows abort-on-fail after 30",
                        "rule 'READ.intended.p99 < 5ms over 1s windows abort-on-fail after 30': 'abort-on-fail after"
                                + " 30' needs a duration with a unit, e.g. 'abort-on-fail after 30s'"),
                Arguments.of("READ.intended.p99 < 5ms please",
                        "rule 'READ.intended.p99 < 5ms please': unexpected 'please'; after the limit come only"
                                + " 'over 10s windows' and 'abort-on-fail [after 30s]'"),
                Arguments.of("   ", "empty rule; write METRIC CMP LIMIT, e.g. 'READ.intended.p99 < 5ms',"
                        + " '*.intended.max < 1s', 'READ.errors < 0.1%' or 'throughput > 9500/s'"));
    }

    @ParameterizedTest(name = "[{index}] {1}")
    @MethodSource("badRules")
    void badRulesAreBadInputWithTheExactMessage(String rule, String message) {
        BadInputException e = assertThrows(BadInputException.class, () -> RuleParser.parse(rule));
        assertEquals(message, e.getMessage());
    }
}
