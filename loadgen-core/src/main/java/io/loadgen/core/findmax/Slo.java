package io.loadgen.core.findmax;

import io.loadgen.core.BadInputException;
import io.loadgen.core.gate.GateView;
import io.loadgen.core.gate.Metric;
import io.loadgen.core.gate.Rule;
import io.loadgen.core.gate.RuleParser;

import java.util.ArrayList;
import java.util.List;

/**
 * The objectives of {@code findmax --slo}: gate rules ({@link RuleParser#parseObjective}: a bare statistic such as
 * {@code p99 < 1ms} is every operation type's intended latency), refused when findmax cannot judge them as meant.
 * Stateless; main thread.
 *
 * <ul>
 *   <li>Latency is judged from the intended start, what users see: the service view (and the corrected view,
 *       derived from it) leaves out the time an operation waited behind the ones before it, and that queueing is
 *       exactly what grows as the rate nears capacity: a service-time SLO holds at rates users would not accept.</li>
 *   <li>Windowed rules ({@code over 10s windows}) are refused: a step is judged whole, on its own length (which the
 *       stability detector chooses), and its band on the spread between its intervals; windows of a fixed length
 *       inside a step of varying length would make one rate's verdict depend on where its step happened to end.</li>
 *   <li>{@code harness.lag} is the harness's own delay: findmax judges the harness through each step's diagnosis
 *       (a step it could not drive stops the search), not as an objective of the store.</li>
 * </ul>
 */
public final class Slo {
    private Slo() {
    }

    /**
     * Parses and checks every {@code --slo}.
     *
     * @throws BadInputException one line: the rule, why findmax refuses it and what to write instead
     */
    public static List<Rule> parse(List<String> texts) {
        List<Rule> rules = new ArrayList<>();
        for (String text : texts) {
            Rule rule;
            try {
                rule = RuleParser.parseObjective(text);
            } catch (BadInputException e) {
                throw new BadInputException("--slo " + e.getMessage(), e);
            }
            check(rule);
            rules.add(rule);
        }
        return rules;
    }

    private static void check(Rule rule) {
        Metric m = rule.metric();
        if (rule.windowed()) {
            throw bad(rule, "findmax judges each step whole, on the length its stability detector chose, so windows"
                    + " of a fixed length would make a rate's verdict depend on where its step ended; leave out 'over"
                    + " ... windows' (the step's p99 is over all its intervals)");
        }
        if (m.kind() != Metric.Kind.LATENCY) {
            return;
        }
        GateView v = m.view();
        if (v == GateView.SERVICE || v == GateView.FAILED_SERVICE || v == GateView.CORRECTED) {
            String op = m.op() == null ? Metric.EVERY_OP : m.op();
            throw bad(rule, "service time hides the queueing users see, and that queueing is what grows near"
                    + " capacity, so findmax judges latency from the intended start; write '" + op
                    + (v == GateView.FAILED_SERVICE ? ".failed" : "") + ".intended." + m.stat().name() + " "
                    + rule.comparison().symbol() + " " + rule.limit().format().replace(" ", "") + "'");
        }
        if (v == GateView.LAG) {
            throw bad(rule, "harness.lag is the load generator's own delay, not the store's: findmax stops on a step"
                    + " the harness could not drive (its diagnosis); give objectives on intended latency, errors or"
                    + " throughput");
        }
    }

    private static BadInputException bad(Rule rule, String why) {
        return new BadInputException("--slo '" + rule.text() + "': " + why);
    }
}
