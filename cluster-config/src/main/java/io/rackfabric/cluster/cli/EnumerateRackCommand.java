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
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code rack enumerate}: runs a topology's rack in this JVM and lets its roots enumerate their
 * domains through the data plane, printing what each found and programmed. Exit 0, 1 when an
 * enumeration reported problems, 2 for bad flags.
 */
@Command(name = "enumerate",
    description = {"enumerate from the roots as a root complex does: --topology F [--host ID] [--mode dynamic|slot]",
        "Starts every component of the topology in this JVM and enumerates from root ID (default: every root, in"
        + " file order) as a root complex does: configuration reads and writes through the switches, BARs sized"
        + " by writing all ones, bus numbers, BARs and bridge windows programmed. Prints each root's tree and its"
        + " buses, windows, BARs and slots. Exit 0, 1 when an enumeration reported problems, 2 for bad flags."})
public final class EnumerateRackCommand extends PicocliRackCommand {

  private static final Duration READY_TIMEOUT = Duration.ofSeconds(30);
  private static final Duration RUN_TIMEOUT = Duration.ofMinutes(5);

  // Checked in call() rather than required = true, to keep the message "--topology is required".
  @Option(names = "--topology", paramLabel = "FILE|NAME", description = "a topology file or a bundled name (required)")
  String topologyName;

  @Option(names = "--host", paramLabel = "ID", description = "the root to enumerate from (default: every root)")
  String host;

  @Option(names = "--mode", paramLabel = "dynamic|slot",
      description = "dynamic (default) packs everything depth first; slot keeps a bus range and address block per"
          + " slot whether occupied or not (Multi-peer Figs. 4, 6): with a global-memory section the compute"
          + " hosts' NTB ports and root ports are the slots, otherwise each port of the switch on the root's link")
  String mode = "dynamic";

  @Option(names = "--slot-size", paramLabel = "SIZE", converter = SizeConverter.class,
      description = "--mode slot without a global-memory section: each slot's share of the switch's memory window"
          + " (default: 1MiB)")
  Long slotSize;

  @Option(names = "--buses-per-slot", paramLabel = "N", description = "--mode slot: buses per slot, 1..255 (default: 1)")
  Integer busesPerSlot;

  @Override
  public Integer call() throws Exception {
    if (topologyName == null) {
      throw new UsageException("--topology is required");
    }
    Topology topology = TopologyArgs.load(topologyName);
    AllocationPolicy.Mode m = mode(mode);
    List<String> roots = EnumerationPlans.roots(topology);
    if (roots.isEmpty()) {
      throw new UsageException(topology.source() + " has no root endpoint to enumerate from");
    }
    List<String> chosen = roots;
    if (host != null) {
      if (!roots.contains(host)) {
        boolean exists = topology.component(host).isPresent();
        throw new UsageException("--host=" + host + (exists ? " is not a root complex" : " is not in " + topology.source())
            + " (roots: " + String.join(", ", roots) + ")");
      }
      chosen = List.of(host);
    }
    int buses = busesPerSlot == null ? EnumerationPlans.SEEDS_001.busesPerSlot() : busesPerSlot;
    if (buses < 1 || buses > 255) {
      throw new UsageException("--buses-per-slot=" + buses + " not in [1,255]");
    }
    EnumerationPlans.SlotParameters slots;
    try {
      slots = new EnumerationPlans.SlotParameters(slotSize == null ? EnumerationPlans.SEEDS_001.slotSize() : slotSize,
          buses);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    List<AllocationPolicy> policies = new ArrayList<>();
    for (String root : chosen) {
      try {
        policies.add(EnumerationPlans.policy(topology, root, m, slots));
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
