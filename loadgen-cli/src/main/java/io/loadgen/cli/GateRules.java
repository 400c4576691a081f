package io.loadgen.cli;

import io.loadgen.core.gate.Rule;
import io.loadgen.core.gate.RuleFile;
import io.loadgen.core.gate.RuleParser;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Reads the rules a command was given: each rule option, then each rules file. Stateless. */
final class GateRules {
    private GateRules() {
    }

    static List<Rule> parse(List<String> rules, List<Path> files, String fileOption) {
        List<Rule> all = new ArrayList<>();
        for (String r : rules) {
            all.add(RuleParser.parse(r));
        }
        for (Path f : files) {
            all.addAll(RuleFile.read(f, fileOption));
        }
        return all;
    }
}
