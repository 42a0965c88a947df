package io.rackfabric.cluster.cli;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;
import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The {@code rack} command line on picocli: the subcommands every module contributes (found with
 * {@link ServiceLoader}), {@code rack help COMMAND} and {@code rack completion}. Exit status: 0
 * success or help, 1 the run found a failure, 2 bad input.
 */
public final class Rack {

  private Rack() {}

  public static void main(String[] args) {
    int status = run(Arrays.asList(args), System.out, System.err);
    System.out.flush();
    System.exit(status);
  }

  public static int run(List<String> args, PrintStream out, PrintStream err) {
    CommandLine rack = commandLine(out, err);
    int status = rack.execute(args.toArray(String[]::new));
    rack.getOut().flush();
    rack.getErr().flush();
    return status;
  }

  /** The whole command tree, printing to {@code out} and {@code err} (tests walk it). */
  public static CommandLine commandLine(PrintStream out, PrintStream err) {
    Root root = new Root(err);
    CommandLine rack = new CommandLine(root);
    root.self = rack;
    List<RackCommand> commands = new ArrayList<>();
    ServiceLoader.load(RackCommand.class).forEach(commands::add);
    commands.sort(Comparator.comparing(RackCommand::name));
    for (RackCommand c : commands) {
      if (!(c instanceof PicocliRackCommand p)) {
        throw new IllegalStateException("rack " + c.name() + " (" + c.getClass().getName()
            + ") is not a PicocliRackCommand: every command declares its flags with picocli");
      }
      p.bind(out, err);
      rack.addSubcommand(c.name(), new CommandLine(p));
    }
    rack.addSubcommand("help", new HelpCommand());
    rack.addSubcommand("completion", new Completion(out, rack));
    rack.setExpandAtFiles(false); // an argument starting with @ is a value, never a file of arguments
    rack.setOut(new PrintWriter(out, true));
    rack.setErr(new PrintWriter(err, true));
    rack.setParameterExceptionHandler(Rack::usageError);
    rack.setExecutionExceptionHandler((e, cl, parsed) -> failed(e, cl, err));
    return rack;
  }

  /** "rack COMMAND: what is wrong", the nearest names when a command or flag is mistyped, exit 2. */
  private static int usageError(ParameterException e, String[] args) {
    CommandLine cl = e.getCommandLine();
    PrintWriter err = cl.getErr();
    boolean top = cl.getParent() == null;
    if (top && e instanceof UnmatchedArgumentException u && !u.getUnmatched().isEmpty()) {
      err.println("rack: unknown command '" + u.getUnmatched().get(0) + "'");
    } else {
      err.println(cl.getCommandSpec().qualifiedName() + ": " + e.getMessage());
    }
    if (!UnmatchedArgumentException.printSuggestions(e, err)) {
      err.println("(" + cl.getCommandSpec().qualifiedName() + " --help lists them)");
    }
    err.flush();
    return CommandLine.ExitCode.USAGE;
  }

  private static int failed(Exception e, CommandLine cl, PrintStream err) {
    String prefix = cl.getCommandSpec().qualifiedName() + ": "; // "rack topology generate: ..."
    if (e instanceof UsageException) {
      err.println(prefix + e.getMessage());
      return CommandLine.ExitCode.USAGE;
    }
    err.println(prefix + (e.getMessage() == null ? e.toString() : e.getMessage()));
    if (System.getenv("RACK_DEBUG") != null) {
      e.printStackTrace(err);
    } else {
      err.println("(set RACK_DEBUG=1 for the stack trace)");
    }
    return 1;
  }

  @Command(name = "rack", synopsisSubcommandLabel = "COMMAND",
      description = "The rackfabric command line. 'rack COMMAND --help' shows a command's flags.",
      footer = "%nBash completion: source <(rack completion)")
  static final class Root implements Callable<Integer> {
    private final PrintStream err;
    private CommandLine self;

    @CommandLine.Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help")
    boolean help;

    Root(PrintStream err) {
      this.err = err;
    }

    /** {@code rack} alone: the usage, as an error. */
    @Override
    public Integer call() {
      self.usage(err);
      return CommandLine.ExitCode.USAGE;
    }
  }

  @Command(name = "completion", description = "print a bash completion script for rack (source <(rack completion))")
  static final class Completion implements Callable<Integer> {
    private final PrintStream out;
    private final CommandLine rack;

    @CommandLine.Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help")
    boolean help;

    Completion(PrintStream out, CommandLine rack) {
      this.out = out;
      this.rack = rack;
    }

    @Override
    public Integer call() {
      out.print(AutoComplete.bash("rack", rack));
      return 0;
    }
  }
}
