package io.rackfabric.cluster.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;

/** The {@code rack} command line: dispatches to the subcommands every module contributes. */
public final class Rack {

  private Rack() {}

  public static void main(String[] args) {
    int status = run(Arrays.asList(args), System.out, System.err);
    System.out.flush();
    System.exit(status);
  }

  public static int run(List<String> args, PrintStream out, PrintStream err) {
    List<RackCommand> commands = new ArrayList<>();
    ServiceLoader.load(RackCommand.class).forEach(commands::add);
    commands.sort(Comparator.comparing(RackCommand::name));
    if (args.isEmpty() || args.get(0).equals("--help") || args.get(0).equals("-h") || args.get(0).equals("help")) {
      usage(commands, args.isEmpty() ? err : out);
      return args.isEmpty() ? 2 : 0;
    }
    String name = args.get(0);
    RackCommand command = commands.stream().filter(c -> c.name().equals(name)).findFirst().orElse(null);
    if (command == null) {
      err.println("rack: unknown command '" + name + "'");
      usage(commands, err);
      return 2;
    }
    try {
      return command.run(args.subList(1, args.size()), out, err);
    } catch (UsageException e) {
      err.println("rack " + name + ": " + e.getMessage());
      return 2;
    } catch (Exception e) {
      err.println("rack " + name + ": " + (e.getMessage() == null ? e.toString() : e.getMessage()));
      if (System.getenv("RACK_DEBUG") != null) {
        e.printStackTrace(err);
      } else {
        err.println("(set RACK_DEBUG=1 for the stack trace)");
      }
      return 1;
    }
  }

  private static void usage(List<RackCommand> commands, PrintStream to) {
    to.println("usage: rack COMMAND [ARGS]");
    to.println();
    for (RackCommand c : commands) {
      to.printf("  %-10s %s%n", c.name(), c.summary());
    }
  }
}
