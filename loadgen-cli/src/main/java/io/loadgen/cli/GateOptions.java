package io.loadgen.cli;

import io.loadgen.core.BadInputException;
import io.loadgen.core.gate.Rule;
import io.loadgen.core.gate.RunGate;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * {@code run}'s gate options: rules applied to the run ({@code loadgen gate}'s syntax), judged at its
 * end (windowed ones live), setting the exit code; and {@code --abort-on-fail} to stop a run early.
 * Main thread.
 */
final class GateOptions {
    @Option(names = "--gate", paramLabel = "RULE", order = 170,
            description = "A gate on this run, as in 'loadgen gate' (repeatable), e.g. 'READ.intended.p99 < 5ms'."
                    + " Checked before the run, judged at its end (windowed rules, 'over 10s windows', live);"
                    + " the table follows the summary and any failure makes the exit code 99.")
    List<String> gates = new ArrayList<>();

    @Option(names = "--gate-file", paramLabel = "FILE", order = 171,
            description = "Gates from a file: one rule per line, # comments (repeatable).")
    List<Path> gateFiles = new ArrayList<>();

    @Option(names = "--abort-on-fail", paramLabel = "GRACE", arity = "0..1", fallbackValue = "0s", order = 172,
            converter = DurationConverter.class,
            description = "Stop the run once a windowed --gate rule has failed for GRACE (default: at its first"
                    + " failed window); a rule's own 'abort-on-fail after 30s' wins. The interval log, summary and"
                    + " JSON are still written, and stop_reason names the rule.")
    Duration abortOnFail;

    @Option(names = "--gate-junit", paramLabel = "FILE", order = 173,
            description = "Write the gates' verdicts as JUnit XML, one test case per rule.")
    Path junit;

    /**
     * The run's gate, checked against the run to come, or null when no rule was given.
     *
     * @throws BadInputException for a bad rule, or gate options without rules
     */
    RunGate prepare(List<String> operations, boolean throttled, Consumer<String> stop) {
        List<Rule> rules = GateRules.parse(gates, gateFiles, "--gate-file");
        if (rules.isEmpty()) {
            if (abortOnFail != null || junit != null) {
                throw new BadInputException((abortOnFail != null ? "--abort-on-fail" : "--gate-junit")
                        + " needs gates; add --gate RULE, e.g. --gate 'READ.intended.p99 < 20ms over 10s windows'");
            }
            return null;
        }
        RunReporter.checkWritableFile(junit, "--gate-junit");
        return RunGate.prepare(rules, abortOnFail, operations, throttled, stop);
    }
}
