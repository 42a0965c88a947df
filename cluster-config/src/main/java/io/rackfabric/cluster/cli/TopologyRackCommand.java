package io.rackfabric.cluster.cli;

import io.rackfabric.cluster.topology.TopologyCheckCommand;
import java.io.PrintStream;
import java.util.List;

/** {@code rack topology check F}. */
public final class TopologyRackCommand implements RackCommand {

  @Override
  public String name() {
    return "topology";
  }

  @Override
  public String summary() {
    return "check FILE|NAME: validate a topology file and summarise it";
  }

  @Override
  public int run(List<String> args, PrintStream out, PrintStream err) throws UsageException {
    if (args.isEmpty() || !args.get(0).equals("check")) {
      throw new UsageException("expected 'rack topology check FILE|NAME', got " + args);
    }
    return TopologyCheckCommand.run(args.subList(1, args.size()).toArray(String[]::new), out, err);
  }
}
