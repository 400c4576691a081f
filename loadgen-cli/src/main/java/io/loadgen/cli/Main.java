package io.loadgen.cli;

import io.loadgen.core.Secrets;
import io.loadgen.core.BadInputException;
import io.loadgen.core.DamagedInputException;
import io.loadgen.core.EditDistance;
import io.loadgen.core.output.OutputFailures;
import io.loadgen.core.output.OutputWriteException;
import io.loadgen.core.output.TrackedPrintStream;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

import java.io.PrintStream;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The launcher: parses the command line, runs one subcommand, maps the outcome to an exit code.
 * Called once, on the main thread.
 *
 * <p>Exit codes ({@link #EXIT_CODES}, docs/reliability.md's table): 0 success; 1 the run failed, an output could not be
 * written in full, or the heap ran out (one line naming the limit and how to raise it); 2 bad input (one line on
 * stderr naming the problem and the fix; a stack trace only with {@code -v}); 3 {@code gate}'s input is damaged and
 * was not judged, or a sharded run's logs lack a shard or hold one twice ({@code report}, {@code gate}), or logs of
 * different runs or one log twice were given ({@link io.loadgen.core.DamagedInputException}); 99 a gate failed ({@code gate}, {@code run --gate}), k6's code for failed thresholds, so CI tells
 * a slow target from a broken run; 130 / 143 when interrupted by SIGINT / SIGTERM (after printing the summary of
 * what ran).
 */
public final class Main {
    public static final int EXIT_FAILED = 1;
    /** A gate judged the run and a rule failed: k6's exit code for failed thresholds. */
    public static final int EXIT_GATE_FAILED = 99;
    public static final int EXIT_BAD_INPUT = 2;
    /** {@code gate}: the logs are damaged (corrupt lines, overlapping intervals, a file twice), so nothing was judged. */
    public static final int EXIT_DAMAGED_INPUT = 3;
    /** The exit codes as the commands' help footers list them (a constant, so annotations can name it). */
    static final String EXIT_CODES = "Exit codes: 0 success; 1 the run failed or an output could not be written;"
            + " 2 bad input; 3 input damaged or a shard missing, not judged or merged; 99 a gate failed; 130/143"
            + " interrupted (SIGINT/SIGTERM).";

    private Main() {
    }

    public static void main(String[] args) {
        VerbosityMixin.beforeLogging(args);
        TrackedPrintStream out = TrackedPrintStream.stdout();
        System.setOut(out);
        System.exit(execute(args, out, System.err));
    }

    /** Runs {@code args} with the given streams and returns the exit code. */
    public static int execute(String[] args, PrintStream out, PrintStream err) {
        return execute(args, new Streams(out, err));
    }

    /** Runs {@code args} with the given streams and environment (tests set {@code JOB_COMPLETION_INDEX} so). */
    static int execute(String[] args, Streams io) {
        PrintStream err = io.err();
        int code;
        try {
            code = commandLine(io).execute(ycsbPhase(args));
        } catch (OutOfMemoryError e) {
            // The stack has unwound, so what the command held is free again and there is room to say so.
            err.println("loadgen: out of memory: this JVM's heap is limited to " + Runtime.getRuntime().maxMemory() / (1 << 20)
                    + " MB (./loadgen caps report and gate at 256 MB); give it more, e.g. LOADGEN_JAVA_OPTS=-Xmx2g");
            code = EXIT_FAILED;
        }
        return stdoutWritten(io, code);
    }

    /**
     * Every command's standard output, checked once it is done: a failed write (a full disk, a closed pipe) is one
     * line on stderr, and the command exits 1 when it otherwise succeeded or only a gate failed (as for any output:
     * the verdict may not have reached CI); bad or damaged input and interruptions keep their own codes.
     */
    private static int stdoutWritten(Streams io, int code) {
        java.io.IOException failure = TrackedPrintStream.failure(io.out());
        if (failure == null) {
            return code;
        }
        io.err().println("loadgen: " + OutputFailures.line("standard output", failure));
        return code == 0 || code == EXIT_GATE_FAILED ? EXIT_FAILED : code;
    }

    /**
     * YCSB's client takes its phase as a flag, not a command ({@code -load -db redis -P workloada}, {@code -t ...}):
     * such a command line runs the command the flag names ({@code load}, {@code run}), where the flag is accepted.
     */
    static String[] ycsbPhase(String[] args) {
        if (args.length == 0 || !args[0].startsWith("-")
                || List.of("-h", "--help", "-V", "--version").contains(args[0])) {
            return args;
        }
        List<String> given = List.of(args);
        String command = given.contains("-load") ? "load" : given.contains("-t") ? "run" : null;
        if (command == null) {
            return args;
        }
        String[] withCommand = new String[args.length + 1];
        withCommand[0] = command;
        System.arraycopy(args, 0, withCommand, 1, args.length);
        return withCommand;
    }

    static CommandLine commandLine(PrintStream out, PrintStream err) {
        return commandLine(new Streams(out, err));
    }

    static CommandLine commandLine(Streams io) {
        PrintStream out = io.out();
        PrintStream err = io.err();
        CommandLine cl = new CommandLine(new LoadgenCommand());
        cl.addSubcommand(new CommandLine(new RunCommand(io)));
        cl.addSubcommand(new CommandLine(new LoadCommand(io)));
        cl.addSubcommand(new CommandLine(new SweepCommand(io)));
        cl.addSubcommand(new CommandLine(new FindMaxCommand(io)));
        cl.addSubcommand(new CommandLine(new CalibrateCommand(io)));
        cl.addSubcommand(new CommandLine(new DemoCommand(io)));
        cl.addSubcommand(new CommandLine(new DriversCommand(io)));
        cl.addSubcommand(new CommandLine(new ReportCommand(io)));
        cl.addSubcommand(new CommandLine(new PlotCommand(io)));
        cl.addSubcommand(new CommandLine(new GateCommand(io)));
        cl.addSubcommand(new CommandLine(new CompareCommand(io)));
        cl.addSubcommand(new CommandLine(new PingServerCommand(io)));
        cl.addSubcommand(new CommandLine(new HttpServerCommand(io)));
        cl.getSubcommands().values().forEach(Main::helpOptionsLast);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.setOut(new java.io.PrintWriter(out, true));
        cl.setErr(new java.io.PrintWriter(err, true));
        cl.setParameterExceptionHandler(Main::onBadParameter);
        cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> onFailure(ex, commandLine, parseResult, err));
        return cl;
    }

    /** Commands that order their options (for shared mixins) would list the unordered -h and -V first; put them last. */
    private static void helpOptionsLast(CommandLine sub) {
        CommandSpec spec = sub.getCommandSpec();
        for (String name : new String[]{"-h", "-V"}) {
            OptionSpec option = spec.findOption(name);
            if (option != null && option.order() < 0) {
                spec.remove(option);
                spec.addOption(option.toBuilder().order(Integer.MAX_VALUE).build());
            }
        }
    }

    private static int onBadParameter(ParameterException ex, String[] args) {
        CommandLine cmd = ex.getCommandLine();
        String name = cmd.getCommandSpec().qualifiedName();
        ParameterException unknown = unknownOptionBefore(ex, args);
        if (unknown != null) {
            return onBadParameter(unknown, args);
        }
        Optional<String> habit = otherToolsHabit(ex, args);
        if (habit.isPresent()) {
            cmd.getErr().println("loadgen: " + Secrets.redact(habit.get()) + " (see '" + name + " --help')");
            return EXIT_BAD_INPUT;
        }
        String hint = suggestion(ex).map(s -> "; did you mean " + s + "?").orElse("");
        String message = asTyped(ex.getMessage(), ex.getArgSpec(), args);
        cmd.getErr().println("loadgen: " + Secrets.redact(message) + hint + " (see '" + name + " --help')");
        return EXIT_BAD_INPUT;
    }

    /**
     * picocli names an option by its longest name; the user may have typed another one (HistogramLogProcessor's
     * {@code -mwpl} for {@code --moving-window-length}). Name it as typed, so the line points at what is on the
     * command line.
     */
    static String asTyped(String message, CommandLine.Model.ArgSpec spec, String[] args) {
        if (!(spec instanceof OptionSpec option) || option.names().length < 2 || message == null) {
            return message;
        }
        String longest = option.longestName();
        for (String arg : args) {
            for (String typed : option.names()) {
                if (!typed.equals(longest) && (arg.equals(typed) || arg.startsWith(typed + "="))) {
                    return message.replace("'" + longest + "'", "'" + typed + "'");
                }
            }
        }
        return message;
    }

    /**
     * {@code run --tagret 5}: picocli takes the unknown option's value for run's URL argument and refuses that;
     * the mistake is the option, so it is named, with picocli's nearest option. Null when that is not the case.
     */
    private static ParameterException unknownOptionBefore(ParameterException ex, String[] args) {
        if (ex instanceof CommandLine.UnmatchedArgumentException || ex.getArgSpec() == null
                || !ex.getArgSpec().isPositional() || ex.getValue() == null) {
            return null;
        }
        CommandSpec spec = ex.getCommandLine().getCommandSpec();
        for (int i = 1; i < args.length; i++) {
            String before = args[i - 1];
            if (args[i].equals(ex.getValue()) && before.startsWith("-") && before.length() > 1
                    && spec.findOption(before.split("=", 2)[0]) == null && !before.equals("--")
                    && !isCluster(before, spec)) {
                return new CommandLine.UnmatchedArgumentException(ex.getCommandLine(), List.of(before, args[i]));
            }
        }
        return null;
    }

    /** {@code -qs}: short options clustered, each one known. */
    private static boolean isCluster(String arg, CommandSpec spec) {
        return !arg.startsWith("--") && arg.substring(1).chars().allMatch(c -> spec.findOption("-" + (char) c) != null);
    }

    /**
     * What a wrk or redis-benchmark user meant by a flag that means something else here, when the command line
     * shows it: {@code -t 2}, wrk's thread count, is YCSB's run-phase flag here, so the number is left over (an
     * unmatched argument, or run's URL argument that is not a URL); wrk's command line without a command
     * ({@code loadgen -c 2 http://...}) is run's.
     */
    static Optional<String> otherToolsHabit(ParameterException ex, String[] args) {
        if (ex.getCommandLine().getCommandSpec().parent() == null) {
            Optional<String> url = java.util.Arrays.stream(args).filter(a -> a.toLowerCase(java.util.Locale.ROOT)
                    .matches("https?://.*")).findFirst();
            if (url.isPresent()) {
                return Optional.of("no command given; a URL is run's argument, as wrk's: write 'loadgen run "
                        + url.get() + " ...' (the options after run)");
            }
        }
        String left;
        if (ex instanceof CommandLine.UnmatchedArgumentException u && !u.getUnmatched().isEmpty()) {
            left = u.getUnmatched().get(0);
        } else if (ex.getArgSpec() != null && ex.getArgSpec().isPositional()) {
            left = ex.getValue();
        } else {
            return Optional.empty();
        }
        if (left == null || !left.matches("\\d+") || ex.getCommandLine().getCommandSpec().findOption("-t") == null) {
            return Optional.empty();
        }
        for (int i = 1; i < args.length; i++) {
            if (args[i].equals(left) && args[i - 1].equals("-t")) {
                return Optional.of("-t is YCSB's run phase here, not wrk's threads, so '" + left + "' is left over;"
                        + " for threads write --threads " + left);
            }
        }
        return Optional.empty();
    }

    /**
     * picocli's nearest option; else, for a misspelt subcommand ({@code loadgen rnu}), the subcommand a typo
     * away, which picocli's own similarity misses when the letters are swapped.
     */
    private static Optional<String> suggestion(ParameterException ex) {
        if (!(ex instanceof CommandLine.UnmatchedArgumentException u)) {
            return Optional.empty();
        }
        if (!u.getSuggestions().isEmpty()) {
            return Optional.of(u.getSuggestions().get(0));
        }
        Set<String> subcommands = ex.getCommandLine().getSubcommands().keySet();
        return u.getUnmatched().stream().limit(1)
                .flatMap(arg -> EditDistance.closest(arg, subcommands, EditDistance.TYPO).stream()).findFirst();
    }

    private static int onFailure(Exception ex, CommandLine cmd, ParseResult parseResult, PrintStream err) {
        boolean verbose = isVerbose(parseResult);
        BadInputException bad = badInput(ex);
        OutputWriteException unwritten = bad == null ? causeOf(ex, OutputWriteException.class) : null;
        if (bad != null) {
            err.println("loadgen: " + Secrets.redact(bad.getMessage()));
        } else if (unwritten != null) {
            err.println("loadgen: " + Secrets.redact(unwritten.getMessage()));
        } else {
            err.println("loadgen: " + cmd.getCommandName() + " failed: " + Secrets.redact(String.valueOf(ex))
                    + (verbose ? "" : " (run with -v for the stack trace)"));
        }
        if (verbose) {
            printRedactedStackTrace(ex, err);
        }
        return bad instanceof DamagedInputException ? EXIT_DAMAGED_INPUT
                : bad != null ? EXIT_BAD_INPUT : EXIT_FAILED;
    }

    /** The stack trace, each line redacted: exception messages may quote a URI with its password. */
    private static void printRedactedStackTrace(Throwable ex, PrintStream err) {
        java.io.StringWriter trace = new java.io.StringWriter();
        ex.printStackTrace(new java.io.PrintWriter(trace));
        err.print(Secrets.redact(trace.toString()));
    }

    private static <T extends Throwable> T causeOf(Throwable t, Class<T> type) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (type.isInstance(c)) {
                return type.cast(c);
            }
        }
        return null;
    }

    private static BadInputException badInput(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof BadInputException b) {
                return b;
            }
        }
        return null;
    }

    private static boolean isVerbose(ParseResult pr) {
        for (ParseResult p = pr; p != null; p = p.subcommand()) {
            if (p.hasMatchedOption("-v")) {
                return true;
            }
        }
        return false;
    }
}
