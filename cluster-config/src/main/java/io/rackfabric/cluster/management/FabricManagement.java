package io.rackfabric.cluster.management;

import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.endpoint.ManagementSetup;
import io.rackfabric.fabric.management.DeviceDescription;
import io.rackfabric.fabric.management.ManagementSettings;
import io.rackfabric.fabric.settings.FabricSettings;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;

/**
 * What a rack node gives its switch chips and endpoints for fabric management
 * ({@code rackfabric.fabric.management}): with it enabled, each device's description (its
 * capabilities, from {@link TopologyFabric}) for its device manager, and to the fabric manager's
 * endpoint the fabric manager's setup, which checks what it discovers against the topology file
 * ({@link DiscoveryCheck}). A rack without a fabric manager has no device managers: it runs as
 * before, with not one message more.
 *
 * @param fabric the topology's devices; null when management is off or they cannot be built (no
 *     device managers then)
 * @param fabricManager the endpoint the fabric manager runs on; null when none does
 * @param problem why management is enabled but no fabric manager runs, naming the value; null when one does
 */
public record FabricManagement(TopologyFabric fabric, String fabricManager, ManagementSettings settings,
    String problem, Map<String, Integer> candidates) {

  public FabricManagement {
    candidates = candidates == null ? Map.of() : Map.copyOf(candidates);
  }

  private FabricManagement(TopologyFabric fabric, String fabricManager, ManagementSettings settings, String problem) {
    this(fabric, fabricManager, settings, problem, Map.of());
  }

  /**
   * A topology whose devices cannot be described, or a fabric manager named that is not an
   * endpoint, is logged as an error naming the value and runs without (the rest of the rack runs).
   */
  public static FabricManagement of(Topology topology, FabricSettings fabricSettings, ManagementSettings settings,
      Logger log) {
    if (!settings.enabled()) {
      return new FabricManagement(null, null, settings, null);
    }
    TopologyFabric fabric;
    Map<String, Integer> candidates;
    try {
      TopologyFabric plain = TopologyFabric.of(topology, fabricSettings);
      String fm = settings.fabricManager().isEmpty() ? DiscoveryRun.defaultFrom(plain) : settings.fabricManager();
      if (fm == null || topology.endpoint(fm).isEmpty()) {
        String problem = "no fabric manager: rackfabric.fabric.management.fabric-manager=" + fm
            + " is not an endpoint of " + topology.name() + " (endpoints: " + topology.endpoints().stream()
            .map(io.rackfabric.cluster.topology.EndpointSpec::id).toList() + ")";
        log.error("{}", problem);
        return new FabricManagement(plain, null, settings, problem);
      }
      candidates = candidates(topology, settings, fm);
      fabric = TopologyFabric.of(topology, fabricSettings, candidates);
      return new FabricManagement(fabric, fm, settings, null, candidates);
    } catch (IllegalArgumentException e) {
      String problem = "no device managers in " + topology.name() + ": " + e.getMessage();
      log.error("{}", problem);
      return new FabricManagement(null, null, settings, problem);
    }
  }

  /**
   * The election's candidates with their priorities (AS-FM section 4): those the settings name, in
   * order; else a fabric manager the settings name, alone; else the control-plane pair (the MMH 0,
   * the BMH 1); else the default fabric manager alone.
   */
  static Map<String, Integer> candidates(Topology topology, ManagementSettings settings, String fm) {
    if (!settings.candidates().isEmpty()) {
      Map<String, Integer> out = new LinkedHashMap<>();
      for (String c : settings.candidates()) {
        out.put(c, out.size());
      }
      return out;
    }
    Map<String, Integer> pair = TopologyFabric.defaultCandidates(topology);
    return !settings.fabricManager().isEmpty() || pair.isEmpty() ? Map.of(fm, 0) : pair;
  }

  /** Whether endpoint {@code id} runs a fabric-manager driver (and so takes part in the election). */
  public boolean runsDriver(String id) {
    return candidates.containsKey(id);
  }

  /** The description of switch chip or endpoint {@code id} for its device manager; null: none. */
  public DeviceDescription device(String id) {
    return fabric == null ? null : fabric.description(id).orElse(null);
  }

  /** Endpoint {@code id}'s management: its device manager, and the fabric manager if it runs there. */
  public ManagementSetup endpoint(String id) {
    DeviceDescription d = device(id);
    if (d == null) {
      return ManagementSetup.NONE;
    }
    if (!runsDriver(id)) {
      return new ManagementSetup(d, false, settings.window(), null);
    }
    return new ManagementSetup(d, true, settings.window(), db -> DiscoveryCheck.differences(fabric, db),
        settings.claimAt(id), settings.decideAt(id), settings.heartbeatNs(), settings.watchTimeoutNs(),
        settings.keepDatabase(), settings.distributePaths(), settings.routesPerDestination(), settings.processing(),
        settings.writeNtbWindows() ? NtbWindowPlans.of(fabric.topology(), fabric) : null);
  }
}
