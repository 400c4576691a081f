package io.loadgen.core;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * A YAML or JSON file the user gave that does not parse, said in one line: {@code FILE:LINE:COLUMN: PROBLEM}, as a
 * compiler says it. Jackson's message for YAML is SnakeYAML's, seven lines with the context, both marks and carets;
 * for JSON it ends with a {@code [Source: ...]} trailer. Every reader of a user's YAML or JSON file (workloads,
 * gate rules, HTTP requests, JSON summaries, sweep results) words its error here.
 */
public final class ParseErrors {
    private ParseErrors() {
    }

    /**
     * {@code FILE:LINE:COLUMN: PROBLEM} for a file that did not parse (line and column from 1), or {@code FILE: PROBLEM}
     * when the parser gave no place; one line, with the problem quoted by {@link Limits#quote} if it is long.
     */
    public static String at(Object file, JsonProcessingException e) {
        int line = -1;
        int column = -1;
        String problem = null;
        for (Throwable t = e; t != null && t.getCause() != t; t = t.getCause()) {
            if (t instanceof MarkedYAMLException y) {
                problem = y.getProblem();
                Mark mark = y.getProblemMark() != null ? y.getProblemMark() : y.getContextMark();
                if (mark != null) {
                    line = mark.getLine() + 1;
                    column = mark.getColumn() + 1;
                }
                if (problem == null) {
                    problem = y.getContext();
                }
                break;
            }
        }
        if (problem == null) {
            problem = e.getOriginalMessage();
            JsonLocation location = e.getLocation();
            if (location != null && location.getLineNr() > 0) {
                line = location.getLineNr();
                column = location.getColumnNr();
            }
        }
        String oneLine = problem == null ? e.getClass().getSimpleName() : problem.strip().replaceAll("\\s*\\R\\s*", " ");
        String place = line > 0 ? ":" + line + (column > 0 ? ":" + column : "") : "";
        return file + place + ": " + Secrets.redact(Limits.quote(oneLine));
    }
}
