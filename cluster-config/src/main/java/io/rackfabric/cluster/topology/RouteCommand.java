package io.rackfabric.cluster.topology;

import io.rackfabric.fabric.address.Addresses;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code rack route --topology F --from C --addr A [--read]}: explains where a memory request
 * goes in a topology's initial state. Exit 0 when it is delivered (every copy, for multicast), 1
 * when it ends in an Unsupported Request or a drop, 2 for bad arguments or a bad topology.
 */
public final class RouteCommand {

  static final String USAGE =
      "usage: rack route --topology FILE|NAME --from COMPONENT --addr ADDRESS [--read]\n"
          + "  Explains, hop by hop, where a memory write (or with --read a read) of ADDRESS\n"
          + "  issued by COMPONENT goes. COMPONENT is an endpoint id, or switch.port for a request\n"
          + "  entering that switch through that port. ADDRESS is hex (0xB0040) or a size (32GiB).\n"
          + "  Exit status: 0 delivered, 1 Unsupported Request or dropped, 2 bad arguments.\n";

  private static final List<String> VALUED = List.of("--topology", "--from", "--addr");

  private RouteCommand() {}

  /** @param args what follows {@code rack route} */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    Map<String, String> flags = new HashMap<>();
    boolean read = false;
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (arg.equals("-h") || arg.equals("--help")) {
        out.print(USAGE);
        return 0;
      }
      if (arg.equals("--read")) {
        read = true;
        continue;
      }
      String name = arg;
      String value = null;
      int eq = arg.indexOf('=');
      if (arg.startsWith("--") && eq > 0) {
        name = arg.substring(0, eq);
        value = arg.substring(eq + 1);
      }
      if (!VALUED.contains(name)) {
        return usage(err, arg.startsWith("-")
            ? "unknown option '" + name + "' (options: --topology, --from, --addr, --read)"
            : "unexpected argument '" + arg + "'");
      }
      if (value == null) {
        if (i + 1 >= args.length) {
          return usage(err, name + " needs a value");
        }
        value = args[++i];
      }
      if (flags.put(name, value) != null) {
        return usage(err, name + " given twice");
      }
    }
    for (String required : VALUED) {
      if (!flags.containsKey(required)) {
        return usage(err, "missing " + required);
      }
    }
    long address;
    try {
      address = Addresses.parse(flags.get("--addr"));
    } catch (IllegalArgumentException e) {
      err.println("rack route: --addr: " + e.getMessage());
      return 2;
    }
    Topology topology;
    try {
      topology = TopologyLoader.loadFileOrBundled(flags.get("--topology"));
    } catch (TopologyException e) {
      e.problems().forEach(err::println);
      err.println("rack route: the topology has problems; see 'rack topology check'");
      return 2;
    }
    RouteExplanation explanation;
    try {
      explanation = new RouteExplainer(topology).explain(flags.get("--from"), address, read);
    } catch (IllegalArgumentException e) {
      err.println("rack route: --from: " + e.getMessage());
      return 2;
    }
    out.print(explanation.toText());
    return explanation.delivered() ? 0 : 1;
  }

  private static int usage(PrintStream err, String problem) {
    err.print("rack route: " + problem + "\n" + USAGE);
    return 2;
  }
}
