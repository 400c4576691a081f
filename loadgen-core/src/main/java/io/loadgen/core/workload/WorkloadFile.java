package io.loadgen.core.workload;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.loadgen.core.BadInputException;
import io.loadgen.core.EditDistance;
import io.loadgen.core.time.Durations;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Reads a YAML workload with phases into a {@link PhasedWorkload}, checking every field. Stateless;
 * call it on the main thread before a run. The format (see {@code workloads/README.md}):
 * <pre><code>
 * driver: mockdb                      # optional; then --driver may be left out (a different --driver is refused)
 * properties: {mockdb.delay: 1ms, recordcount: 1000, readproportion: 0.9, updateproportion: 0.1}
 * threads: 4                          # optional, default 1
 * phases:
 *   - {name: warmup, duration: 10s, rate: 1000}
 *   - {name: ramp, duration: 30s, rate: {from: 1000, to: 5000}}
 * </code></pre>
 * Every error is one {@link BadInputException} line naming the file, the phase (1-based index and
 * name) and the field.
 */
public final class WorkloadFile {
    private static final YAMLMapper MAPPER = YAMLMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .build();
    private static final String RATE_FORM = "ops/s (rate: 1000) or a ramp (rate: {from: 1000, to: 5000})";

    private WorkloadFile() {
    }

    /** The file's top level. */
    record FileFields(String driver, Map<String, JsonNode> properties, Integer threads, List<PhaseFields> phases) {
    }

    /** One entry of {@code phases}. */
    record PhaseFields(String name, String duration, JsonNode rate) {
    }

    /** A ramping {@code rate}. */
    record RampFields(Double from, Double to) {
    }

    /**
     * Reads and checks {@code file}.
     *
     * @throws BadInputException one line naming the file, phase and field, and the fix
     */
    public static PhasedWorkload load(Path file) {
        JsonNode tree = readTree(file);
        FileFields f = bind(file + ": ", tree, tree, FileFields.class);
        String driver = driver(file, f.driver());
        Map<String, String> properties = properties(file, f.properties());
        int threads = threads(file, f.threads());
        List<PhasedWorkload.Phase> phases = phases(file, tree, f.phases());
        checkWorkload(file, properties);
        return new PhasedWorkload(driver, properties, threads, phases);
    }

    /** Checks the YCSB workload properties now, so the file is named in the error, when it has any. */
    private static void checkWorkload(Path file, Map<String, String> properties) {
        if (!WorkloadOptions.hasWorkloadKeys(properties)) {
            return;
        }
        try {
            WorkloadOptions.from(properties);
        } catch (BadInputException e) {
            throw new BadInputException(file + ": properties: " + e.getMessage(), e);
        }
    }

    private static JsonNode readTree(Path file) {
        try {
            JsonNode tree = MAPPER.readTree(Files.readString(file));
            if (tree == null || tree.isMissingNode() || tree.isNull()) {
                throw new BadInputException(file + ": the file is empty; it needs at least phases:");
            }
            if (!tree.isObject()) {
                throw new BadInputException(file + ": the top level must be a map with driver, properties, threads, phases");
            }
            return tree;
        } catch (NoSuchFileException e) {
            throw new BadInputException(file + ": no such file; give the path of a YAML workload", e);
        } catch (JsonProcessingException e) {
            throw new BadInputException(io.loadgen.core.ParseErrors.at(file, e) + "; fix the YAML there", e);
        } catch (IOException e) {
            throw new BadInputException(file + ": cannot read it (" + e.getMessage() + ")", e);
        }
    }

    private static <T> T bind(String prefix, JsonNode root, JsonNode node, Class<T> type) {
        try {
            return MAPPER.treeToValue(node, type);
        } catch (UnrecognizedPropertyException e) {
            throw new BadInputException(prefix + where(root, e.getPath(), 1) + "unknown field '"
                    + e.getPropertyName() + "'" + knownFields(e), e);
        } catch (InvalidFormatException e) {
            throw new BadInputException(prefix + where(root, e.getPath(), 0) + "'" + e.getValue()
                    + "' is not " + typeName(e.getTargetType()), e);
        } catch (MismatchedInputException e) {
            throw new BadInputException(prefix + where(root, e.getPath(), 0) + "expected "
                    + typeName(e.getTargetType()), e);
        } catch (JsonProcessingException e) {
            throw new BadInputException(prefix + firstLine(e.getOriginalMessage()), e);
        }
    }

    private static String driver(Path file, String driver) {
        if (driver != null && driver.isBlank()) {
            throw new BadInputException(file + ": driver is empty; name one (e.g. driver: mockdb) or leave it out");
        }
        return driver == null ? null : driver.trim();
    }

    private static Map<String, String> properties(Path file, Map<String, JsonNode> given) {
        Map<String, String> out = new LinkedHashMap<>();
        if (given == null) {
            return out;
        }
        given.forEach((key, value) -> {
            if (value == null || value.isNull() || !value.isValueNode()) {
                throw new BadInputException(file + ": properties: " + key
                        + " must be a single value (a number, word or duration such as 4ms)");
            }
            out.put(key, value.asText());
        });
        return out;
    }

    private static int threads(Path file, Integer threads) {
        if (threads == null) {
            return 1;
        }
        if (threads < 1) {
            throw new BadInputException(file + ": threads must be at least 1 (got " + threads + ")");
        }
        return threads;
    }

    private static List<PhasedWorkload.Phase> phases(Path file, JsonNode root, List<PhaseFields> given) {
        if (given == null || given.isEmpty()) {
            throw new BadInputException(file + ": phases is " + (given == null ? "missing" : "empty")
                    + "; give at least one, e.g. phases: [{name: steady, duration: 60s, rate: 1000}]");
        }
        List<PhasedWorkload.Phase> phases = new ArrayList<>();
        for (int i = 0; i < given.size(); i++) {
            phases.add(phase(file, root, i, given.get(i)));
        }
        return phases;
    }

    private static PhasedWorkload.Phase phase(Path file, JsonNode root, int index, PhaseFields p) {
        if (p == null) {
            throw new BadInputException(file + ": phase " + (index + 1) + " is empty; give name, duration and rate");
        }
        String name = p.name() == null || p.name().isBlank() ? "phase" + (index + 1) : p.name().trim();
        String at = file + ": phase " + (index + 1) + " (" + name + "): ";
        if (p.duration() == null) {
            throw new BadInputException(at + "missing duration; give one such as duration: 30s");
        }
        Duration duration = Durations.parse(p.duration(), at + "duration");
        if (duration.isZero()) {
            throw new BadInputException(at + "duration must be above 0 (got " + p.duration() + ")");
        }
        double[] rate = rate(root, at, p.rate());
        return new PhasedWorkload.Phase(name, duration, rate[0], rate[1]);
    }

    private static double[] rate(JsonNode root, String at, JsonNode rate) {
        if (rate == null || rate.isNull()) {
            throw new BadInputException(at + "missing rate; give " + RATE_FORM);
        }
        if (rate.isNumber()) {
            double r = positiveRate(at, "rate", rate.asDouble());
            return new double[] {r, r};
        }
        if (!rate.isObject()) {
            throw new BadInputException(at + "rate must be " + RATE_FORM + ", not '" + rate.asText() + "'");
        }
        RampFields ramp = bind(at + "rate: ", root, rate, RampFields.class);
        if (ramp.from() == null || ramp.to() == null) {
            throw new BadInputException(at + "rate needs both from and to, e.g. rate: {from: 1000, to: 5000}");
        }
        return new double[] {positiveRate(at, "rate.from", ramp.from()), positiveRate(at, "rate.to", ramp.to())};
    }

    private static double positiveRate(String at, String field, double r) {
        if (!(r > 0) || !Double.isFinite(r)) {
            throw new BadInputException(at + field + " must be above 0 ops/s (got " + fmt(r) + ")");
        }
        return r;
    }

    /**
     * Where a Jackson error points, as {@code "phase 2 (ramp): "}, {@code "threads: "} or
     * {@code "phase 2 (ramp): rate: "}, leaving out the last {@code dropLast} path entries.
     * A bound sub-node (a ramp) has a path relative to itself, so it names no phase; its caller's
     * field checks do.
     */
    private static String where(JsonNode root, List<JsonMappingException.Reference> path, int dropLast) {
        StringBuilder sb = new StringBuilder();
        List<JsonMappingException.Reference> refs = path.subList(0, Math.max(0, path.size() - dropLast));
        for (int i = 0; i < refs.size(); i++) {
            JsonMappingException.Reference r = refs.get(i);
            if ("phases".equals(r.getFieldName()) && i + 1 < refs.size() && refs.get(i + 1).getIndex() >= 0) {
                int index = refs.get(++i).getIndex();
                String name = root.path("phases").path(index).path("name").asText("");
                sb.append("phase ").append(index + 1).append(" (")
                        .append(name.isBlank() ? "phase" + (index + 1) : name).append("): ");
            } else if (r.getFieldName() != null) {
                sb.append(r.getFieldName()).append(": ");
            } else if (r.getIndex() >= 0) {
                sb.append("item ").append(r.getIndex() + 1).append(": ");
            }
        }
        return sb.toString();
    }

    private static String knownFields(UnrecognizedPropertyException e) {
        Class<?> in = e.getReferringClass();
        String what = in == FileFields.class ? "the top level" : in == PhaseFields.class ? "a phase"
                : in == RampFields.class ? "a ramping rate" : "it";
        List<String> known = e.getKnownPropertyIds() == null ? List.of()
                : e.getKnownPropertyIds().stream().map(String::valueOf).collect(Collectors.toList());
        String best = EditDistance.closest(e.getPropertyName(), known, EditDistance.TYPO).orElse(null);
        return "; " + what + " has " + orderedFields(in, known) + (best == null ? "" : " (did you mean '" + best + "'?)");
    }

    private static String orderedFields(Class<?> in, List<String> fallback) {
        if (in.isRecord()) {
            List<String> names = new ArrayList<>();
            for (var c : in.getRecordComponents()) {
                names.add(c.getName());
            }
            return String.join(", ", names);
        }
        return String.join(", ", fallback);
    }

    private static String typeName(Class<?> type) {
        if (type == null) {
            return "a value of another kind";
        }
        if (type == Integer.class || type == int.class) {
            return "a whole number";
        }
        if (type == Double.class || type == double.class) {
            return "a number";
        }
        if (type == String.class) {
            return "a single value";
        }
        if (List.class.isAssignableFrom(type)) {
            return "a list";
        }
        return "a map";
    }

    private static String fmt(double d) {
        return d == Math.rint(d) && !Double.isInfinite(d) ? Long.toString((long) d) : Double.toString(d);
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "unreadable";
        }
        String line = s.strip();
        int nl = line.indexOf('\n');
        return nl < 0 ? line : line.substring(0, nl).strip();
    }
}
