package io.rackfabric.loadtests.bench;

import com.typesafe.config.ConfigUtil;
import io.rackfabric.cluster.management.OverFabricDiscovery;
import io.rackfabric.fabric.management.FabricManagerReport;
import io.rackfabric.loadtests.scenario.ScenarioRunner;
import io.rackfabric.loadtests.scenario.figure.FabricManagerFigures;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * {@code rack fabric discover --over-fabric}: the scenario {@link FabricDiscoveryBench} runs for one
 * rack, with the fabric manager on the endpoint asked for and the window asked for, in a folder of
 * its own that is removed afterwards. The topology and endpoint names reach the scenario's text
 * only as quoted HOCON strings, so no name can add a setting of its own.
 */
public final class OverFabricDiscoveryRun implements OverFabricDiscovery {

  @Override
  public Result discover(String topology, String from, int window, PrintStream progress) throws Exception {
    Path dir = Files.createTempDirectory("rack-fabric-discover");
    try {
      String settings = "    rackfabric.fabric.management.fabric-manager = " + ConfigUtil.quoteString(from) + "\n"
          + "    rackfabric.fabric.management.window = " + window + "\n";
      String text = FabricDiscoveryBench.scenario("cli", "= " + ConfigUtil.quoteString(topology), settings);
      ScenarioRunner.Outcome o = FabricDiscoveryBench.runScenario("discover", text, dir, progress);
      boolean passed = FabricDiscoveryBench.passed(o);
      String detail = FabricDiscoveryBench.detail(o);
      FabricManagerReport r = FabricManagerFigures.report(o.result().endpointsAtEnd()).orElse(null);
      if (r == null) {
        return new Result(-1, 0, 0, 0, 0, 0, 0, 0, 0, 0, List.of(), o.result().wallNanos() / 1e9, false,
            "no fabric manager ran: " + detail);
      }
      return new Result(r.discoveredAt() < 0 ? -1 : r.discoveryNs(), r.readRequests(),
          r.readRequestBytes(), r.completions(), r.completionBytes(), r.errorCompletions(), r.writes(),
          r.activationWrites(), r.devices(), r.links(), r.differences() == null ? List.of() : r.differences(),
          o.result().wallNanos() / 1e9, passed && r.discoveredAt() >= 0, detail);
    } finally {
      deleteTree(dir);
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
