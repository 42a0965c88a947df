package io.rackfabric.cluster.cli;

import io.rackfabric.cluster.topology.LadonRackGenerator;
import io.rackfabric.cluster.topology.LadonRackGenerator.Placement;
import io.rackfabric.cluster.topology.MultiRackGenerator;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.cluster.topology.TopologyWriter;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import io.rackfabric.host.memory.MemorySizes;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * {@code rack topology generate ladon --hosts N ...}: writes a Ladon rack of N compute hosts as a
 * topology file (to {@code --out} or stdout). Exit 0, or 2 with a message naming the bad value.
 */
final class TopologyGenerateCommand {

  static final String USAGE =
      "usage: rack topology generate ladon --hosts N [--local-subspace 32GiB] [--pms2-base 1TiB]\n"
          + "           [--address-bits 48] [--placement single|per-host|three-node] [--base-port 25521]"
          + " [--out FILE]\n"
          + "  Writes a Ladon rack (Ladon sections 4.1-4.2, 5.1) of N compute hosts, 1.."
          + LadonRackGenerator.MAX_COMPUTE_HOSTS + ", shaped like\n"
          + "  ladon-testbed: switch tor (MMH, BMH, NIC), NTB chips nt-pri and nt-sec with one port\n"
          + "  per CH, and per CH a root chI above root ports chI-rp. Windows and NTB BARs follow\n"
          + "  the global memory layout. --placement single puts everything on node-1; per-host\n"
          + "  (the default) gives node-switch, node-mmh, node-bmh and node-chI ports from\n"
          + "  --base-port; three-node gives node-switch (switches, NIC), node-mmh (MMH and the first half\n"
          + "  of the CHs) and node-bmh (BMH and the rest). Above 31 CHs each plane's NTB ports spread\n"
          + "  over several chips (nt-pri-1, nt-pri-2, ...), which tor's multicast groups join.\n"
          + "  Without --out the file goes to stdout.\n"
          + "usage: rack topology generate multirack --racks N [--hosts-per-rack 48] [--out FILE]\n"
          + "  Writes N Ladon racks (ids rK-...) joined by an NTB spine, in one node (issue 6's scale\n"
          + "  run: 21 racks of 48 CHs are 1,008 compute hosts); N = 1.."
          + MultiRackGenerator.MAX_RACKS + ".\n";

  private static final Set<String> VALUED = Set.of("hosts", "local-subspace", "pms2-base",
      "address-bits", "placement", "base-port", "out", "racks", "hosts-per-rack");

  private TopologyGenerateCommand() {}

  static int run(List<String> argList, PrintStream out) throws UsageException {
    if (argList.contains("-h") || argList.contains("--help")) {
      out.print(USAGE);
      return 0;
    }
    Args args = Args.parse(argList, VALUED, Set.of());
    List<String> kinds = args.positional();
    if (kinds.isEmpty()) {
      throw new UsageException("generate: which rack? 'ladon' or 'multirack'\n" + USAGE);
    }
    if (kinds.get(0).equals("multirack")) {
      return multirack(argList, args, out);
    }
    if (!kinds.get(0).equals("ladon")) {
      throw new UsageException("generate: unknown rack kind '" + kinds.get(0) + "' (known: ladon, multirack)");
    }
    if (kinds.size() > 1) {
      throw new UsageException("generate: unexpected argument '" + kinds.get(1) + "'");
    }
    if (args.has("racks") || args.has("hosts-per-rack")) {
      throw new UsageException("--racks and --hosts-per-rack are for 'generate multirack'");
    }
    // Range checks are the layout's and the generator's: they name every number that does not fit.
    int hosts = (int) args.getLong("hosts", Long.MIN_VALUE, Integer.MIN_VALUE, Integer.MAX_VALUE);
    if (!args.has("hosts")) {
      throw new UsageException("--hosts N is required (1.." + LadonRackGenerator.MAX_COMPUTE_HOSTS
          + " compute hosts)");
    }
    long local = args.getSize("local-subspace", GlobalMemoryLayout.PAPER_LOCAL_SUBSPACE);
    long pms2 = args.getSize("pms2-base", GlobalMemoryLayout.PAPER_PMS2_BASE);
    int bits = (int) args.getLong("address-bits", GlobalMemoryLayout.DEFAULT_ADDRESS_BITS,
        Integer.MIN_VALUE, Integer.MAX_VALUE);
    int basePort = (int) args.getLong("base-port", LadonRackGenerator.DEFAULT_BASE_PORT, 1, 65535);
    Placement placement = placement(args.get("placement", "per-host"));
    Topology rack;
    try {
      GlobalMemoryLayout layout = GlobalMemoryLayout.create(local, hosts, pms2, bits);
      rack = LadonRackGenerator.generate(layout, placement, LadonRackGenerator.DEFAULT_HOST, basePort);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    return emit(rack, TopologyWriter.write(rack, header(argList, rack, local, pms2)), args, out);
  }

  /** Prints the topology's text, or writes it to {@code --out} and says what was written. */
  private static int emit(Topology topology, String text, Args args, PrintStream out) throws UsageException {
    if (!args.has("out")) {
      out.print(text);
      return 0;
    }
    Path file = Path.of(args.get("out", null));
    try {
      Files.writeString(file, text, StandardCharsets.UTF_8);
    } catch (IOException | RuntimeException e) {
      throw new UsageException("--out " + file + ": cannot write the file (" + e + ")");
    }
    out.println("wrote " + topology.name() + " (" + topology.nodes().size() + " nodes, "
        + topology.switches().size() + " switches, " + topology.endpoints().size() + " endpoints, "
        + topology.links().size() + " links) to " + file);
    return 0;
  }

  /** {@code generate multirack --racks N}: see {@link MultiRackGenerator}. */
  private static int multirack(List<String> argList, Args args, PrintStream out) throws UsageException {
    if (args.positional().size() > 1) {
      throw new UsageException("generate: unexpected argument '" + args.positional().get(1) + "'");
    }
    for (String flag : List.of("hosts", "local-subspace", "pms2-base", "address-bits", "placement", "base-port")) {
      if (args.has(flag)) {
        throw new UsageException("--" + flag + " is for 'generate ladon'; multirack takes --racks, --hosts-per-rack, --out");
      }
    }
    if (!args.has("racks")) {
      throw new UsageException("--racks N is required (1.." + MultiRackGenerator.MAX_RACKS + ")");
    }
    int racks = (int) args.getLong("racks", 1, Integer.MIN_VALUE, Integer.MAX_VALUE);
    int hosts = (int) args.getLong("hosts-per-rack", MultiRackGenerator.DEFAULT_HOSTS_PER_RACK, 1,
        LadonRackGenerator.MAX_COMPUTE_HOSTS);
    Topology fabric;
    try {
      fabric = MultiRackGenerator.generate(racks, hosts);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    String text = TopologyWriter.write(fabric, fabric.name() + ".conf: " + racks + " Ladon racks of " + hosts
        + " compute hosts joined by an NTB spine, generated by\n  rack topology generate " + String.join(" ", argList)
        + "\nRack K's ids carry the prefix rK-; every rack's MMH reaches rack J's PMS1 at 8P + (J-1)P (P = 2TiB).");
    return emit(fabric, text, args, out);
  }

  private static Placement placement(String value) throws UsageException {
    switch (value) {
      case "single":
        return Placement.SINGLE_NODE;
      case "per-host":
        return Placement.ONE_NODE_PER_HOST;
      case "three-node":
        return Placement.THREE_NODES;
      default:
        throw new UsageException("--placement=" + value + " not in {single, per-host, three-node}");
    }
  }


  /** Says how the file was made, so that it can be made again, and what the layout puts where. */
  private static String header(List<String> argList, Topology rack, long local, long pms2) {
    int n = rack.computeHostIds().size();
    return rack.name() + ".conf: a Ladon rack of " + n + " compute host" + (n == 1 ? "" : "s")
        + " (Ladon sections 4.1-4.2, 5.1), generated by\n"
        + "  rack topology generate " + String.join(" ", argList) + "\n"
        + "Same structure as the bundled ladon-testbed.conf (see its header): tor (VS1: mmh, nic,\n"
        + "to-pri, to-sec; VS2: bmh), nt-pri and nt-sec (one NTB port per CH), chI above chI-rp.\n"
        + "L = " + MemorySizes.size(local) + ", P = " + MemorySizes.size(pms2)
        + ": CH i sits at [iL, (i+1)L) in PMS1 and P + that in PMS2; every CH sees the MH's\n"
        + "space shifted up by L. \"rack memmap --topology FILE\" prints the map.";
  }
}
