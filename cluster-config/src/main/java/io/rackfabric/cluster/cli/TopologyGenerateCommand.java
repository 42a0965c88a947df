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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code rack topology generate ladon --hosts N ...}: writes a Ladon rack of N compute hosts as a
 * topology file (to {@code --out} or stdout); {@code generate multirack --racks N}: several joined
 * by an NTB spine. Exit 0, or 2 with a message naming the bad value.
 */
@Command(name = "generate",
    description = {"write a Ladon rack, or several joined racks, as a topology file",
        "ladon: N compute hosts (1.." + LadonRackGenerator.MAX_COMPUTE_HOSTS + ", Ladon sections 4.1-4.2, 5.1), shaped"
        + " like ladon-testbed: switch tor (MMH, BMH, NIC), NTB chips nt-pri and nt-sec with one port per CH, and per"
        + " CH a root chI above root ports chI-rp; windows and NTB BARs follow the global memory layout. Above 31 CHs"
        + " each plane's NTB ports spread over several chips (nt-pri-1, nt-pri-2, ...).",
        "multirack: N Ladon racks (ids rK-...) joined by an NTB spine, in one node; N = 1.."
        + MultiRackGenerator.MAX_RACKS + ".", "Without --out the file goes to stdout."})
final class TopologyGenerateCommand implements Callable<Integer> {

  @ParentCommand
  TopologyRackCommand parent;

  @Spec
  CommandSpec spec;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help")
  boolean help;

  // A list checked in call(), so that a missing or unknown kind gets the message naming the two.
  @Parameters(paramLabel = "ladon|multirack", arity = "0..*", description = "which rack to write")
  List<String> kinds = new ArrayList<>();

  /** ladon: the layout (--hosts required). */
  @Mixin
  LayoutOptions layout = new LayoutOptions();

  @Option(names = "--placement", paramLabel = "single|per-host|three-node",
      description = "ladon: single puts everything on node-1; per-host (the default) gives node-switch, node-mmh,"
          + " node-bmh and node-chI; three-node gives node-switch (switches, NIC), node-mmh (MMH and the first half"
          + " of the CHs) and node-bmh (BMH and the rest)")
  String placement;

  @Option(names = "--base-port", paramLabel = "PORT",
      description = "ladon: the first node's port, 1..65535 (default: " + LadonRackGenerator.DEFAULT_BASE_PORT + ")")
  Integer basePort;

  @Option(names = "--racks", paramLabel = "N", description = "multirack: racks (required)")
  Integer racks;

  @Option(names = "--hosts-per-rack", paramLabel = "N",
      description = "multirack: compute hosts per rack (default: " + MultiRackGenerator.DEFAULT_HOSTS_PER_RACK + ")")
  Integer hostsPerRack;

  @Option(names = "--out", paramLabel = "FILE", description = "the file to write (default: stdout)")
  Path outFile;

  @Override
  public Integer call() throws UsageException {
    if (kinds.isEmpty()) {
      throw new UsageException("which rack? 'ladon' or 'multirack'");
    }
    if (kinds.size() > 1) {
      throw new UsageException("unexpected argument '" + kinds.get(1) + "'");
    }
    if (kinds.get(0).equals("multirack")) {
      return multirack();
    }
    if (!kinds.get(0).equals("ladon")) {
      throw new UsageException("unknown rack kind '" + kinds.get(0) + "' (known: ladon, multirack)");
    }
    if (racks != null || hostsPerRack != null) {
      throw new UsageException("--racks and --hosts-per-rack are for 'generate multirack'");
    }
    if (layout.hosts == null) {
      throw new UsageException("--hosts N is required (1.." + LadonRackGenerator.MAX_COMPUTE_HOSTS
          + " compute hosts)");
    }
    // Range checks are the layout's and the generator's: they name every number that does not fit.
    int port = basePort == null ? LadonRackGenerator.DEFAULT_BASE_PORT : basePort;
    if (port < 1 || port > 65535) {
      throw new UsageException("--base-port=" + port + " not in [1,65535]");
    }
    Placement where = placement(placement == null ? "per-host" : placement);
    GlobalMemoryLayout map = layout.layout();
    Topology rack;
    try {
      rack = LadonRackGenerator.generate(map, where, LadonRackGenerator.DEFAULT_HOST, port);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    return emit(rack, TopologyWriter.write(rack, header(given(), rack, layout.localSubspace(), layout.pms2Base())));
  }

  /** The flags as given after {@code rack topology generate}, for the file's header. */
  private List<String> given() {
    List<String> all = spec.commandLine().getParseResult().originalArgs();
    int at = all.indexOf("generate");
    return all.subList(at + 1, all.size());
  }

  /** Prints the topology's text, or writes it to {@code --out} and says what was written. */
  private int emit(Topology topology, String text) throws UsageException {
    PrintStream out = parent.out();
    if (outFile == null) {
      out.print(text);
      return 0;
    }
    Path file = outFile;
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
  private int multirack() throws UsageException {
    String ladonFlag = layout.firstGiven() != null ? layout.firstGiven() : placement != null ? "placement"
        : basePort != null ? "base-port" : null;
    if (ladonFlag != null) {
      throw new UsageException("--" + ladonFlag + " is for 'generate ladon'; multirack takes --racks, --hosts-per-rack,"
          + " --out");
    }
    if (racks == null) {
      throw new UsageException("--racks N is required (1.." + MultiRackGenerator.MAX_RACKS + ")");
    }
    int perRack = hostsPerRack == null ? MultiRackGenerator.DEFAULT_HOSTS_PER_RACK : hostsPerRack;
    if (perRack < 1 || perRack > LadonRackGenerator.MAX_COMPUTE_HOSTS) {
      throw new UsageException("--hosts-per-rack=" + perRack + " not in [1," + LadonRackGenerator.MAX_COMPUTE_HOSTS + "]");
    }
    Topology fabric;
    try {
      fabric = MultiRackGenerator.generate(racks, perRack);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    String text = TopologyWriter.write(fabric, fabric.name() + ".conf: " + racks + " Ladon racks of " + perRack
        + " compute hosts joined by an NTB spine, generated by\n  rack topology generate " + String.join(" ", given())
        + "\nRack K's ids carry the prefix rK-; every rack's MMH reaches rack J's PMS1 at 8P + (J-1)P (P = 2TiB).");
    return emit(fabric, text);
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
