package io.rackfabric.cluster.cli;

import akka.actor.typed.ActorSystem;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.cluster.enumeration.EnumerationPlans;
import io.rackfabric.cluster.enumeration.RackEnumeration;
import io.rackfabric.cluster.node.ClusterSettings;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.host.enumeration.AllocationPolicy;
import io.rackfabric.host.enumeration.EnumerationResult;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * {@code rack enumerate}: runs a topology's rack in this JVM and lets its roots enumerate their
 * domains through the data plane, printing what each found and programmed. Exit 0, 1 when an
 * enumeration reported problems, 2 for bad flags.
 */
public final class EnumerateRackCommand implements RackCommand {

  static final String USAGE =
      "usage: rack enumerate --topology FILE|NAME [--host ID] [--mode dynamic|slot]\n"
          + "                      [--slot-size SIZE] [--buses-per-slot N]\n"
          + "  Starts every component of the topology in this JVM and enumerates from root ID (default:\n"
          + "  every root, in file order) as a root complex does: configuration reads and writes\n"
          + "  through the switches, BARs sized by writing all ones, bus numbers, BARs and bridge\n"
          + "  windows programmed. Prints each root's tree and its buses, windows, BARs and slots.\n"
          + "  --mode dynamic (default) packs everything depth first; --mode slot keeps a bus range\n"
          + "  and address block per slot whether occupied or not (Multi-peer Figs. 4, 6): with a\n"
          + "  global-memory section the compute hosts' NTB ports and root ports are the slots;\n"
          + "  otherwise the switch on the root's link has one slot per port, --slot-size each\n"
          + "  (default 1MiB) from its memory window, --buses-per-slot buses each (default 1).\n";

  private static final Set<String> VALUED = Set.of("topology", "host", "mode", "slot-size", "buses-per-slot");
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(30);
  private static final Duration RUN_TIMEOUT = Duration.ofMinutes(5);

  @Override
  public String name() {
    return "enumerate";
  }

  @Override
  public String summary() {
    return "enumerate from the roots as a root complex does: --topology F [--host ID] [--mode dynamic|slot]";
  }

  @Override
  public int run(List<String> argList, PrintStream out, PrintStream err) throws Exception {
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
      throw new UsageException("unexpected argument '" + args.positional().get(0) + "' (use --topology FILE)");
    }
    Topology topology = TopologyArgs.load(args.require("topology"));
    AllocationPolicy.Mode mode = mode(args.get("mode", "dynamic"));
    List<String> roots = EnumerationPlans.roots(topology);
    if (roots.isEmpty()) {
      throw new UsageException(topology.source() + " has no root endpoint to enumerate from");
    }
    List<String> chosen = roots;
    if (args.has("host")) {
      String host = args.get("host", null);
      if (!roots.contains(host)) {
        boolean exists = topology.component(host).isPresent();
        throw new UsageException("--host=" + host + (exists ? " is not a root complex" : " is not in " + topology.source())
            + " (roots: " + String.join(", ", roots) + ")");
      }
      chosen = List.of(host);
    }
    EnumerationPlans.SlotParameters slots;
    try {
      slots = new EnumerationPlans.SlotParameters(args.getSize("slot-size", EnumerationPlans.SEEDS_001.slotSize()),
          (int) args.getLong("buses-per-slot", EnumerationPlans.SEEDS_001.busesPerSlot(), 1, 255));
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    List<AllocationPolicy> policies = new ArrayList<>();
    for (String root : chosen) {
      try {
        policies.add(EnumerationPlans.policy(topology, root, mode, slots));
      } catch (IllegalArgumentException e) {
        throw new UsageException(root + ": " + e.getMessage());
      }
    }
    return enumerate(topology, chosen, policies, out);
  }

  private static AllocationPolicy.Mode mode(String value) throws UsageException {
    for (AllocationPolicy.Mode m : AllocationPolicy.Mode.values()) {
      if (m.label().equals(value.toLowerCase(Locale.ROOT))) {
        return m;
      }
    }
    throw new UsageException("--mode=" + value + " not in {dynamic, slot}");
  }

  private static int enumerate(Topology topology, List<String> roots, List<AllocationPolicy> policies, PrintStream out)
      throws Exception {
    Config base = ConfigFactory.load();
    Config config = ConfigFactory.parseString("akka.actor.provider = local")
        .withFallback(ClusterSettings.create(base).dispatcher()).withFallback(base);
    ActorSystem<Void> system = ActorSystem.create(
        RackEnumeration.rack(topology, FabricSettings.create(config)), "rack-enumerate", config);
    try {
      RackEnumeration.awaitReady(system, topology, READY_TIMEOUT);
      boolean ok = true;
      for (int i = 0; i < roots.size(); i++) {
        EnumerationResult r = RackEnumeration.enumerate(system, roots.get(i), policies.get(i), RUN_TIMEOUT);
        if (i > 0) {
          out.println();
        }
        out.print(r.render());
        ok &= r.ok();
      }
      return ok ? 0 : 1;
    } finally {
      system.terminate();
      system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }
}
