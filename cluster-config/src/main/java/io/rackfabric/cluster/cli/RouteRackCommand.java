package io.rackfabric.cluster.cli;

import io.rackfabric.cluster.topology.RouteCommand;
import java.io.PrintStream;
import java.util.List;

/** {@code rack route --topology F --from C --addr A [--read]}. */
public final class RouteRackCommand implements RackCommand {

  @Override
  public String name() {
    return "route";
  }

  @Override
  public String summary() {
    return "explain where a TLP goes: --topology F --from C --addr A [--read]";
  }

  @Override
  public int run(List<String> args, PrintStream out, PrintStream err) {
    return RouteCommand.run(args.toArray(String[]::new), out, err);
  }
}
