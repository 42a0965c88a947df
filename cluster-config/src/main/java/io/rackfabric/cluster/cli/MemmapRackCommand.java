package io.rackfabric.cluster.cli;

import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import io.rackfabric.host.memory.MemoryMapText;
import java.io.PrintStream;
import java.util.List;
import java.util.Set;

/**
 * {@code rack memmap}: prints Ladon's global memory space (Ladon sections 4.1-4.2) as Figure 3 draws
 * it, from flags or from a topology file's {@code global-memory} section. Exit 0, or 2 with
 * {@code rack memmap: ...} when a flag or the layout's numbers are bad.
 */
public final class MemmapRackCommand implements RackCommand {

  static final String USAGE =
      "usage: rack memmap --hosts N [--local-subspace 32GiB] [--pms2-base 1TiB] [--address-bits 48]"
          + " [--host I]\n"
          + "       rack memmap --topology FILE|NAME [--host I|ID]\n"
          + "  Prints the MH's physical memory space (PMS1 and PMS2 with every host's range), a\n"
          + "  compute host's view of it (each CH's when there are at most "
          + MemoryMapText.ALL_VIEWS_UP_TO + ", else CH1's\n"
          + "  or --host's) and the NTB BARs that build it. N counts compute hosts, not the MH.\n"
          + "  With --topology the layout and host names come from the file's global-memory\n"
          + "  section (bundled with one: ladon-testbed).\n";

  private static final Set<String> VALUED =
      Set.of("hosts", "local-subspace", "pms2-base", "address-bits", "host", "topology");
  private static final List<String> LAYOUT_FLAGS =
      List.of("hosts", "local-subspace", "pms2-base", "address-bits");

  @Override
  public String name() {
    return "memmap";
  }

  @Override
  public String summary() {
    return "print the global memory map (Figure 3): --hosts N [--local-subspace L] [--pms2-base P]"
        + " | --topology F";
  }

  @Override
  public int run(List<String> argList, PrintStream out, PrintStream err) throws UsageException {
    if (argList.contains("-h")) {
      out.print(USAGE);
      return 0;
    }
    Args args = Args.parse(argList, VALUED, Set.of("help"));
    if (args.has("help")) {
      out.print(USAGE);
      return 0;
    }
    if (!args.positional().isEmpty()) {
      throw new UsageException("unexpected argument '" + args.positional().get(0)
          + "' (use --hosts N or --topology FILE)");
    }
    GlobalMemoryLayout layout;
    List<String> names;
    if (args.has("topology")) {
      for (String flag : LAYOUT_FLAGS) {
        if (args.has(flag)) {
          throw new UsageException("--" + flag + " cannot be combined with --topology: the file's"
              + " global-memory section sets the layout");
        }
      }
      Topology topology = TopologyArgs.load(args.require("topology"));
      layout = topology.globalMemory().orElseThrow(() -> new UsageException(topology.source()
          + " has no global-memory section (see topologies/README.md; bundled with one:"
          + " ladon-testbed)"));
      names = topology.computeHostIds();
    } else if (args.has("hosts")) {
      // Range checks are the layout's: it names every number that does not fit, together.
      int hosts = (int) args.getLong("hosts", 0, Integer.MIN_VALUE, Integer.MAX_VALUE);
      long local = args.getSize("local-subspace", GlobalMemoryLayout.PAPER_LOCAL_SUBSPACE);
      long pms2 = args.getSize("pms2-base", GlobalMemoryLayout.PAPER_PMS2_BASE);
      int bits = (int) args.getLong("address-bits", GlobalMemoryLayout.DEFAULT_ADDRESS_BITS,
          Integer.MIN_VALUE, Integer.MAX_VALUE);
      try {
        layout = GlobalMemoryLayout.create(local, hosts, pms2, bits);
      } catch (IllegalArgumentException e) {
        throw new UsageException(e.getMessage());
      }
      names = List.of();
    } else {
      throw new UsageException("--hosts N or --topology FILE is required");
    }
    out.print(MemoryMapText.render(layout, names, host(args, layout, names)));
    return 0;
  }


  /** {@code --host}: a compute host number, or with a topology its endpoint id; 0 when absent. */
  private static int host(Args args, GlobalMemoryLayout layout, List<String> names)
      throws UsageException {
    if (!args.has("host")) {
      return 0;
    }
    String value = args.get("host", null);
    int byName = names.indexOf(value) + 1;
    if (byName > 0) {
      return byName;
    }
    int n = layout.computeHosts();
    String known = names.isEmpty() ? "" : " or one of " + String.join(", ", names);
    try {
      int host = Integer.parseInt(value.trim());
      if (host < 1 || host > n) {
        throw new UsageException("--host=" + value + " not in [1," + n + "]" + known);
      }
      return host;
    } catch (NumberFormatException e) {
      throw new UsageException("--host=" + value + " is not a compute host number in [1," + n + "]"
          + known);
    }
  }
}
