package io.rackfabric.cluster.cli;

import io.rackfabric.cluster.topology.TopologyCheckCommand;
import java.io.PrintStream;
import java.util.List;

/** {@code rack topology check F} and {@code rack topology generate ladon --hosts N ...}. */
public final class TopologyRackCommand implements RackCommand {

  @Override
  public String name() {
    return "topology";
  }

  @Override
  public String summary() {
    return "check FILE|NAME: validate a topology file and summarise it;"
        + " generate ladon --hosts N: write a Ladon rack";
  }

  @Override
  public int run(List<String> args, PrintStream out, PrintStream err) throws UsageException {
    if (!args.isEmpty() && args.get(0).equals("generate")) {
      return TopologyGenerateCommand.run(args.subList(1, args.size()), out);
    }
    if (args.isEmpty() || !args.get(0).equals("check")) {
      throw new UsageException("expected 'rack topology check FILE|NAME' or 'rack topology"
          + " generate ladon --hosts N', got " + args);
    }
    return TopologyCheckCommand.run(args.subList(1, args.size()).toArray(String[]::new), out, err);
  }
}
