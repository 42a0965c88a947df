package io.rackfabric.cluster.management;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * A discovery over the emulated fabric, in model time: the rack started in one JVM under the
 * model-time kernel with fabric management on, its fabric manager walking it with PI-4 reads that
 * the switch and endpoint actors carry. Running a rack is load-tests' job (the scenario runner),
 * above this module, so the command finds the implementation through {@link ServiceLoader}.
 */
public interface OverFabricDiscovery {

  /**
   * One discovery over the fabric: its model time (from its start to its last completion), its
   * packets, what it found and every difference from the topology file, and the wall time of the
   * whole run (the rack's start included). {@code discovered} false: the fabric manager did not
   * finish, {@code detail} says why.
   */
  record Result(long discoveryNs, long readRequests, long readRequestBytes, long completions, long completionBytes,
      long errorCompletions, long writes, long activationWrites, long devices, long links, List<String> differences,
      double runWallSeconds, boolean discovered, String detail) {

    public Result {
      differences = List.copyOf(differences);
    }

    public String toText() {
      StringBuilder s = new StringBuilder();
      s.append("over the fabric, in model time (the rack in one JVM; the reads carried by its switch and endpoint"
          + " actors):\n");
      if (!discovered) {
        s.append("  the discovery did not finish: ").append(detail).append('\n');
      }
      s.append(String.format("  discovery: %,d ns of model time; %d devices, %d links%n", discoveryNs, devices, links));
      s.append(String.format("  PI-4 read requests %d (%d bytes), completions with data %d (%d bytes), with error %d%n",
          readRequests, readRequestBytes, completions, completionBytes, errorCompletions));
      s.append(String.format("  PI-4 writes: %d event-route, %d activation%n", writes, activationWrites));
      s.append(String.format("  wall time of the run once the rack was up: %.2f s%n", runWallSeconds));
      s.append("  differences from the topology file: ")
          .append(differences.isEmpty() ? "none" : String.valueOf(differences.size())).append('\n');
      differences.forEach(d -> s.append("    ").append(d).append('\n'));
      return s.toString();
    }

    public Map<String, Object> toJson() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("discovered", discovered);
      m.put("discoveryNs", discoveryNs);
      m.put("readRequests", countAndBytes(readRequests, readRequestBytes));
      m.put("completionsWithData", countAndBytes(completions, completionBytes));
      m.put("completionsWithError", errorCompletions);
      m.put("writes", writes);
      m.put("activationWrites", activationWrites);
      m.put("devices", devices);
      m.put("links", links);
      m.put("differences", differences);
      m.put("runWallSeconds", runWallSeconds);
      m.put("detail", detail);
      return m;
    }
  }

  /** {"count": .., "bytes": ..} in that order (a JSON document printed the same on every run). */
  private static Map<String, Object> countAndBytes(long count, long bytes) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("count", count);
    m.put("bytes", bytes);
    return m;
  }

  /**
   * Discovers {@code topology} (a file path or a bundled name, already checked) from endpoint
   * {@code from} with {@code window} reads outstanding; the run's progress goes to {@code progress}.
   */
  Result discover(String topology, String from, int window, PrintStream progress) throws Exception;

  /** The implementation on the class path, if any. */
  static Optional<OverFabricDiscovery> find() {
    return ServiceLoader.load(OverFabricDiscovery.class).findFirst();
  }
}
