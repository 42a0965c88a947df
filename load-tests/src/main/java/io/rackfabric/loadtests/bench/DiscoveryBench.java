package io.rackfabric.loadtests.bench;

import com.typesafe.config.ConfigFactory;
import io.rackfabric.cluster.management.DiscoveryRun;
import io.rackfabric.cluster.management.TopologyFabric;
import io.rackfabric.fabric.management.PacketKind;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.loadtests.report.Figure;
import java.util.ArrayList;
import java.util.List;

/**
 * The fabric manager's discovery (AS-FM) of racks from ladon-testbed to the multi-rack fabric, as
 * {@code rack fabric discover} runs it: structural, the walker against each topology's devices, so
 * its figures are counts and wall time, never model time. How the reads and the wall time grow
 * with the number of devices is what it shows.
 */
public final class DiscoveryBench {

  /** One rack's discovery: what it found and took; wall times in nanoseconds. */
  public record Result(String name, int devices, int links, long readRequests, long bytes, long walkNanos,
      long checkNanos, int differences) {

    List<Figure> figures() {
      String p = "discovery." + name + ".";
      return List.of(
          new Figure(p + "devices", devices, "devices", "count"),
          new Figure(p + "links", links, "links", "count"),
          new Figure(p + "read_requests", readRequests, "packets", "count"),
          new Figure(p + "bytes", bytes, "bytes", "count"),
          new Figure(p + "reads_per_device", (double) readRequests / devices, "packets", "count"),
          new Figure(p + "walk_wall", walkNanos / 1e6, "ms", "wall"),
          new Figure(p + "check_wall", checkNanos / 1e6, "ms", "wall"),
          new Figure(p + "differences", differences, "lines", "count"));
    }
  }

  private DiscoveryBench() {}

  /** Discovers each of {@code racks} from its default endpoint, {@code rounds} times (the last one counts). */
  public static List<Result> run(List<StartupBench.Rack> racks, int rounds) {
    FabricSettings settings = FabricSettings.create(ConfigFactory.load());
    List<Result> results = new ArrayList<>();
    for (StartupBench.Rack rack : racks) {
      TopologyFabric fabric = TopologyFabric.of(rack.topology(), settings);
      DiscoveryRun run = null;
      for (int i = 0; i < rounds; i++) {
        run = DiscoveryRun.run(fabric, DiscoveryRun.defaultFrom(fabric), 64, p -> { });
      }
      results.add(new Result(rack.name(), run.database().devices().size(), run.database().links().size(),
          run.packets().count(PacketKind.PI4_READ_REQUEST), run.packets().totalBytes(), run.wallNanos(),
          run.checkNanos(), run.differences().size()));
    }
    return results;
  }
}
