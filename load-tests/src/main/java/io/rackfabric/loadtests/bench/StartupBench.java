package io.rackfabric.loadtests.bench;

import io.rackfabric.cluster.topology.LadonRackGenerator;
import io.rackfabric.cluster.topology.MultiRackGenerator;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.cluster.topology.TopologyLoader;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import io.rackfabric.loadtests.scale.ComponentCensus;
import io.rackfabric.loadtests.scenario.LiveRack;
import io.rackfabric.loadtests.scenario.RackStart;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Rack start-up in one JVM, as {@code rack run} starts a single-JVM rack: from creating the actor
 * system to every endpoint's link trained and, with a management-host pair, the control plane
 * booted; beside it the bare baseline ({@link BareSpawn}) for as many actors.
 */
public final class StartupBench {

  /** A rack to start: its name in the figures, the topology, the settings of its run. */
  public record Rack(String name, Topology topology, Map<String, String> settings) {}

  /**
   * What one start-up measured.
   *
   * @param heapBytes used heap after a GC with the rack up, minus the same before it was spawned
   */
  public record Result(String name, long components, long computeHosts, long startupNanos, long heapBytes,
      long bareNanos) {

    public double ratio() {
      return (double) startupNanos / Math.max(1, bareNanos);
    }
  }

  /** The link timers multirack-1000 runs with: at the defaults its 3,339 links spend the cores on ticks. */
  public static final Map<String, String> SCALE_TIMERS = Map.of(
      "rackfabric.fabric.link-timers.keepalive", "1s",
      "rackfabric.fabric.link-timers.dllp-timeout", "5s",
      "rackfabric.fabric.link-timers.init-retry", "500ms",
      "rackfabric.fabric.link-timers.init-timeout", "5s");

  private StartupBench() {}

  /** ladon-testbed, the 48-CH Ladon rack (single JVM) and the 21 x 48-CH multi-rack fabric. */
  public static List<Rack> standardRacks(int racks) throws Exception {
    return List.of(
        new Rack("ladon-testbed", TopologyLoader.load("ladon-testbed"), Map.of()),
        new Rack("ladon-48", LadonRackGenerator.generate(GlobalMemoryLayout.create(32L << 30, 48, 2L << 40),
            LadonRackGenerator.Placement.SINGLE_NODE), Map.of()),
        new Rack("multirack-" + racks + "x48", MultiRackGenerator.generate(racks, 48), SCALE_TIMERS));
  }

  public static Result run(Rack rack, Path runDir, PrintStream out) throws Exception {
    long components = ComponentCensus.total(rack.topology());
    long t0 = System.nanoTime();
    long startup;
    long heap;
    try (LiveRack live = RackStart.singleJvm(rack.topology(), runDir.resolve(rack.name()), out, rack.settings())) {
      startup = System.nanoTime() - t0;
      heap = live.heapGrowth().orElse(-1);
    }
    long bare = BareSpawn.run((int) components);
    return new Result(rack.name(), components, ComponentCensus.computeHosts(rack.topology()), startup, heap, bare);
  }
}
