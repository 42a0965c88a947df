package io.rackfabric.cluster.cli;

import io.rackfabric.cluster.topology.TopologyCheck;
import io.rackfabric.cluster.topology.TopologyLoader;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code rack topology check F} and {@code rack topology generate ladon --hosts N ...}. */
@Command(name = "topology",
    description = "check FILE|NAME: validate a topology file and summarise it; generate ladon --hosts N: write a"
        + " Ladon rack",
    subcommands = {TopologyRackCommand.Check.class, TopologyGenerateCommand.class})
public final class TopologyRackCommand extends PicocliRackCommand {

  /** {@code rack topology} alone names what it takes. */
  @Override
  public Integer call() throws UsageException {
    throw new UsageException("expected 'rack topology check FILE|NAME' or 'rack topology generate ladon --hosts N'");
  }

  PrintStream out() {
    return out;
  }

  @Command(name = "check",
      description = {"check a topology file and print its nodes, switches, endpoints and links, and its global"
          + " memory and management-host pair when it has them; exit 0 when it loads, 2 with every problem",
          "NAME is a bundled topology: ${COMPLETION-CANDIDATES}"})
  static final class Check implements Callable<Integer> {

    @ParentCommand
    TopologyRackCommand parent;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help")
    boolean help;

    // A list checked in call(), so that none or two get the messages naming what is wrong.
    @Parameters(paramLabel = "FILE|NAME", arity = "0..*", completionCandidates = Bundled.class,
        description = "a topology file or a bundled name")
    List<String> names = new ArrayList<>();

    @Override
    public Integer call() throws UsageException {
      if (names.isEmpty()) {
        throw new UsageException("missing FILE or NAME");
      }
      if (names.size() > 1) {
        throw new UsageException("one FILE or NAME only, got also '" + names.get(1) + "'");
      }
      return TopologyCheck.check(names.get(0), parent.out, parent.err);
    }
  }

  /** The bundled topologies, for the help text and bash completion. */
  static final class Bundled implements Iterable<String> {
    @Override
    public java.util.Iterator<String> iterator() {
      return TopologyLoader.BUNDLED.iterator();
    }
  }
}
