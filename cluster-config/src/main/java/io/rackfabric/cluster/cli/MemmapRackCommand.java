package io.rackfabric.cluster.cli;

import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import io.rackfabric.host.memory.MemoryMapText;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code rack memmap}: prints Ladon's global memory space (Ladon sections 4.1-4.2) as Figure 3 draws
 * it, from flags or from a topology file's {@code global-memory} section. Exit 0, or 2 with
 * {@code rack memmap: ...} when a flag or the layout's numbers are bad.
 */
@Command(name = "memmap",
    description = {"print the global memory map (Figure 3): --hosts N [--local-subspace L] [--pms2-base P]"
        + " | --topology F",
        "The MH's physical memory space (PMS1 and PMS2 with every host's range), a compute host's view of"
        + " it (each CH's when there are at most " + MemoryMapText.ALL_VIEWS_UP_TO + ", else CH1's or"
        + " --host's) and the NTB BARs that build it. With --topology the layout and host names come from"
        + " the file's global-memory section (bundled with one: ladon-testbed)."})
public final class MemmapRackCommand extends PicocliRackCommand {

  @Mixin
  LayoutOptions layout = new LayoutOptions();

  @Option(names = "--host", paramLabel = "I|ID",
      description = "whose view to print: a compute host number, or with --topology its endpoint id")
  String host;

  @Option(names = "--topology", paramLabel = "FILE|NAME", description = "take the layout from a topology file")
  String topology;

  @Override
  public Integer call() throws UsageException {
    GlobalMemoryLayout map;
    List<String> names;
    if (topology != null) {
      String layoutFlag = layout.firstGiven();
      if (layoutFlag != null) {
        throw new UsageException("--" + layoutFlag + " cannot be combined with --topology: the file's"
            + " global-memory section sets the layout");
      }
      Topology t = TopologyArgs.load(topology);
      map = t.globalMemory().orElseThrow(() -> new UsageException(t.source()
          + " has no global-memory section (see topologies/README.md; bundled with one: ladon-testbed)"));
      names = t.computeHostIds();
    } else if (layout.hosts != null) {
      map = layout.layout();
      names = List.of();
    } else {
      throw new UsageException("--hosts N or --topology FILE is required");
    }
    out.print(MemoryMapText.render(map, names, host(map, names)));
    return 0;
  }

  /** {@code --host}: a compute host number, or with a topology its endpoint id; 0 when absent. */
  private int host(GlobalMemoryLayout layout, List<String> names) throws UsageException {
    if (host == null) {
      return 0;
    }
    int byName = names.indexOf(host) + 1;
    if (byName > 0) {
      return byName;
    }
    int n = layout.computeHosts();
    String known = names.isEmpty() ? "" : " or one of " + String.join(", ", names);
    try {
      int i = Integer.parseInt(host.trim());
      if (i < 1 || i > n) {
        throw new UsageException("--host=" + host + " not in [1," + n + "]" + known);
      }
      return i;
    } catch (NumberFormatException e) {
      throw new UsageException("--host=" + host + " is not a compute host number in [1," + n + "]" + known);
    }
  }
}
