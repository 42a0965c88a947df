package io.rackfabric.loadtests.scenario;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.cluster.management.FabricManagement;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.management.ManagementSettings;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.loadtests.scenario.api.RunningRack;
import io.rackfabric.loadtests.scenario.language.Durations;
import io.rackfabric.loadtests.scenario.language.Scenario;
import java.io.PrintStream;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * A scenario's fabric manager ({@code rackfabric.fabric.management.enabled} in its settings): once
 * the rack is up, the rack is held before {@code discover-at} and the fabric manager's endpoint is
 * told to start discovering then, as traffic is handed over, so the discovery enters the model at
 * its own time whatever the wall clock did while the links trained.
 */
final class FabricManagerStart {

  private FabricManagerStart() {}

  /** Whether a fabric manager was told to start: the run then waits for the rack to go idle at its end. */
  static boolean start(RunningRack rack, Scenario scenario, PrintStream progress) throws Exception {
    Config config = ConfigFactory.parseMap(scenario.configOverrides()).withFallback(ConfigFactory.load());
    ManagementSettings settings = ManagementSettings.create(config);
    if (!settings.enabled()) {
      return false;
    }
    FabricManagement management = FabricManagement.of(scenario.topology().topology(), FabricSettings.create(config),
        settings, LoggerFactory.getLogger(FabricManagerStart.class));
    String fm = management.fabricManager();
    if (fm == null) {
      progress.println("  " + management.problem());
      return false;
    }
    // Every candidate claims at its own model time, before discover-at: the rack is held before the
    // earliest, so that no candidate's clock is past its claim when it is told.
    List<String> candidates = List.copyOf(new java.util.TreeSet<>(management.candidates().keySet()));
    long holdAt = settings.discoverAtNs();
    for (String c : candidates) {
      holdAt = Math.min(holdAt, settings.claimAt(c));
    }
    rack.holdModelTime(holdAt);
    for (String c : candidates) {
      rack.endpoint(c).tell(new MemoryEndpoint.StartDiscovery(settings.discoverAtNs()));
    }
    rack.confirmInputs(candidates);
    progress.printf("  fabric-manager candidates %s claim from %s, decide %s later; the primary discovers the fabric"
        + " from %s of model time, %d reads outstanding at most%n", management.candidates(),
        Durations.text(holdAt), Durations.text(settings.settleNs()), Durations.text(settings.discoverAtNs()),
        settings.window());
    return true;
  }
}
