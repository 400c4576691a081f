package io.loadgen.core.gate;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.loadgen.core.BadInputException;
import io.loadgen.core.log.LogIntegrity;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** A JSON summary as a gate source: the whole run, no windows. Immutable after reading. */
final class JsonSource extends GateSource {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final JsonMeasurements measurements;
    /** What in the summary contradicts itself ({@link JsonIntegrity}); empty for one loadgen wrote. */
    private final List<String> contradictions;

    /** What {@code report --json} found wrong with the logs it read (its {@code integrity} block); null for a run's. */
    private final LogIntegrity integrity;
    private final InputPolicy policy;

    private JsonSource(JsonMeasurements measurements, List<String> contradictions, LogIntegrity integrity,
                       InputPolicy policy) {
        this.measurements = measurements;
        this.contradictions = List.copyOf(contradictions);
        this.integrity = integrity;
        this.policy = policy;
    }

    /** @throws BadInputException when the file is not a readable loadgen JSON summary */
    static JsonSource read(Path file) {
        return read(file, InputPolicy.STRICT);
    }

    /** {@link #read(Path)}, judged as {@code policy} says. */
    static JsonSource read(Path file, InputPolicy policy) {
        try (InputStream in = open(file)) {
            com.fasterxml.jackson.databind.JsonNode root = MAPPER.readTree(in);
            return new JsonSource(new JsonMeasurements(file.toString(), root), JsonIntegrity.contradictions(root),
                    LogIntegrity.fromJson(root.get("integrity")), policy);
        } catch (JsonProcessingException e) {
            throw new BadInputException(io.loadgen.core.ParseErrors.at(file, e) + ": not valid JSON; give the file"
                    + " loadgen run --json FILE wrote", e);
        } catch (IOException e) {
            throw new BadInputException("cannot read " + file + " (" + e.getMessage() + ")", e);
        }
    }

    @Override
    String name() {
        return measurements.source();
    }

    @Override
    void check(Rule rule) {
        if (rule.windowed()) {
            throw new BadInputException("rule '" + rule.text() + "': windows need an interval log; " + name()
                    + " is a JSON summary of the whole run (write a log with loadgen run --hlog FILE)");
        }
    }

    @Override
    Evaluation evaluate(List<Rule> rules) {
        rules.forEach(this::check);
        List<Verdict> verdicts = new ArrayList<>();
        if (integrity != null && integrity.damaged()) {
            // As the gate on its logs says it; the contradictions such damage leaves in the totals follow from it.
            verdicts.add(Verdict.damagedInput(name(), integrity.describe()));
        } else if (!contradictions.isEmpty()) {
            verdicts.add(Verdict.damagedInput(name(), "the summary contradicts itself: " + contradictions.get(0)
                    + (contradictions.size() > 1 ? " (and " + (contradictions.size() - 1) + " more)" : "")
                    + "; loadgen writes none of these, so it was edited, cut or damaged"));
        }
        for (Rule rule : rules) {
            verdicts.addAll(onPartial(rule, RuleEvaluator.evaluate(rule, measurements), integrity, policy.allowPartial()));
        }
        return new Evaluation(verdicts, measurements);
    }
}
