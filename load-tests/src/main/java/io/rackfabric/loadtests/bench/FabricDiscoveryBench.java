package io.rackfabric.loadtests.bench;

import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.scenario.ScenarioKinds;
import io.rackfabric.loadtests.scenario.ScenarioRunner;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The fabric manager's discovery over the fabric, in model time: each rack started in one JVM
 * under the model-time kernel with fabric management on, its fabric manager (the control-plane
 * master) walking it with PI-4 reads carried by the switch and endpoint actors as TLPs. The model
 * time of the walk and its packet counts come out of the run; the wall time says what the
 * emulation cost. Beside {@link DiscoveryBench}, which runs the same walker structurally.
 */
final class FabricDiscoveryBench {

  /** Model time at which the fabric manager starts: every link has trained by then. */
  static final String DISCOVER_AT = "10us";

  /** One rack's discovery over the fabric. */
  record Result(String name, long devices, long readRequests, long structuralReadRequests, long discoveryNs,
      double runWallS, boolean passed, String detail) {

    List<Figure> figures() {
      String p = "discovery.over_fabric." + name + ".";
      return List.of(
          new Figure(p + "devices", devices, "devices", "count"),
          new Figure(p + "read_requests", readRequests, "packets", "count"),
          new Figure(p + "structural_read_requests", structuralReadRequests, "packets", "count"),
          new Figure(p + "discovery_ns", discoveryNs, "ns", "model"),
          new Figure(p + "run_wall", runWallS, "s", "wall"));
    }
  }

  private FabricDiscoveryBench() {}

  /**
   * The scenario text of one rack's discovery: no traffic, nothing but the fabric manager's walk;
   * the run waits for the fabric to go idle in model time, so its duration only has to pass the
   * discovery's start. {@code topology} is a scenario topology line (a name or a generate block).
   */
  static String scenario(String name, String topology) {
    return scenario(name, topology, "");
  }

  /** As above, with {@code settings} (HOCON lines, each ending in a newline) added to its settings. */
  static String scenario(String name, String topology, String settings) {
    return "scenario {\n"
        + "  name = discovery-over-fabric-" + name + "\n"
        + "  topology " + topology + "\n"
        + "  mode = single-jvm\n"
        + "  run { duration = 20us, wall-limit = 60m }\n"
        + "  invariants = [ fabric-discovered ]\n"
        + "  figures = [ run, fabric-manager ]\n"
        + "  settings {\n"
        + "    rackfabric.fabric.management.enabled = on\n"
        + "    rackfabric.fabric.management.discover-at = " + DISCOVER_AT + "\n"
        // discovery alone: a path to every endpoint from every endpoint is n squared writes
        + "    rackfabric.fabric.management.distribute-paths = off\n"
        + settings
        + "  }\n"
        + "}\n";
  }

  /** The racks, as {@link StartupBench#standardRacks} has them, in scenario topology lines. */
  static List<String[]> standardRacks(int racks) {
    return List.of(
        new String[] {"ladon-testbed", "= ladon-testbed"},
        new String[] {"ladon-48", "{ generate = ladon, hosts = 48, pms2-base = 2TiB, placement = single-node }"},
        new String[] {"multirack-" + racks + "x48", "{ generate = multirack, racks = " + racks
            + ", hosts-per-rack = 48 }"});
  }

  static Result run(String name, String topology, Path runDir, PrintStream out) throws Exception {
    ScenarioRunner.Outcome o = runScenario(name, scenario(name, topology), runDir, out);
    boolean passed = passed(o);
    String detail = detail(o);
    return new Result(name, figure(o, "fm.devices"), figure(o, "fm.read_requests"),
        figure(o, "fm.structural_read_requests"), figure(o, "fm.discovery_ns"), o.result().wallNanos() / 1e9, passed,
        detail);
  }

  /** Runs scenario {@code text}, written as {@code name}.conf in {@code runDir}, its run in {@code runDir/name}. */
  static ScenarioRunner.Outcome runScenario(String name, String text, Path runDir, PrintStream out) throws Exception {
    Files.createDirectories(runDir);
    Path file = runDir.resolve(name + ".conf");
    Files.writeString(file, text);
    var kinds = ScenarioKinds.standard();
    Scenario s = ScenarioLoader.parse(text, file.toString(), runDir, kinds, ScenarioOptions.NONE);
    return new ScenarioRunner(kinds).run(s, runDir.resolve(name), out);
  }

  /** Whether every invariant of the run held. */
  static boolean passed(ScenarioRunner.Outcome o) {
    return o.invariants().stream().allMatch(c -> c.verdict().pass());
  }

  /** Every invariant's verdict, one after the other. */
  static String detail(ScenarioRunner.Outcome o) {
    return String.join("; ", o.invariants().stream().map(c -> c.verdict().detail()).toList());
  }

  static List<Result> runAll(List<String[]> racks, Path runDir, PrintStream out) throws Exception {
    List<Result> results = new ArrayList<>();
    for (String[] rack : racks) {
      out.printf("rack bench discovery: %s over the fabric, in model time%n", rack[0]);
      results.add(run(rack[0], rack[1], runDir, out));
    }
    return results;
  }

  /** The run's figure, -1 when it has none (the fabric manager never reported). */
  private static long figure(ScenarioRunner.Outcome o, String name) {
    return o.figures().stream().filter(f -> f.name().equals(name)).mapToLong(f -> (long) f.value()).findFirst()
        .orElse(-1);
  }
}
