package io.rackfabric.loadtests.scenario.fault;

import akka.actor.typed.ActorRef;
import io.rackfabric.cluster.node.ComponentKeys;
import io.rackfabric.cluster.node.NicNode;
import io.rackfabric.loadtests.scenario.language.FaultSpec;
import io.rackfabric.loadtests.scenario.language.Param;
import io.rackfabric.loadtests.scenario.language.ParamType;
import io.rackfabric.loadtests.scenario.language.ScenarioContext;
import io.rackfabric.loadtests.scenario.language.Target;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.host.ftgm.FtgmSettings;
import io.rackfabric.host.ftgm.NicFaultDaemon;
import io.rackfabric.host.nic.McpMode;
import io.rackfabric.host.nic.SriovNic;
import io.rackfabric.loadtests.harness.Asks;
import io.rackfabric.loadtests.scenario.api.FaultType;
import io.rackfabric.loadtests.scenario.api.RunningRack;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code nic-hang}: the firmware loop of the rack's NIC hangs (FTGM Table 1, "interface
 * hang"): its L_timer stops, its watchdog runs out, and the MH's fault-tolerance daemon recovers
 * the card, under {@code mode}: {@code ftgm} (the CHs' drivers restore their rings from their host
 * copies) or {@code gm} (reload only: what the NIC had not sent is lost).
 */
public final class NicHangFault implements FaultType {

  private static final Duration ASK = Duration.ofSeconds(10);

  /** The target of a NIC fault: the rack's SR-IOV NIC. */
  static final Target NIC = new Target() {
    @Override
    public String description() {
      return "the rack's NIC (endpoint '" + NicNode.NIC_ID + "' of a Ladon rack with a management host)";
    }

    @Override
    public Optional<String> problem(String target, ScenarioContext context) {
      Topology t = context.topology();
      if (NicNode.nicOf(t).isEmpty()) {
        return Optional.of("topology " + t.name() + " has no NIC (a Ladon rack's endpoint '" + NicNode.NIC_ID
            + "' under a management host)");
      }
      if (!NicNode.NIC_ID.equals(target)) {
        return Optional.of("no NIC '" + target + "' in " + t.source() + " (NICs: " + NicNode.NIC_ID + ")");
      }
      return Optional.empty();
    }
  };

  @Override
  public String name() {
    return "nic-hang";
  }

  @Override
  public String summary() {
    return "hang the firmware loop of NIC TARGET; its watchdog and the MH's daemon recover it under MODE (ftgm|gm)";
  }

  @Override
  public List<Param> params() {
    return List.of(Param.optional("mode", ParamType.TEXT, "ftgm",
        "ftgm: the CHs restore their rings from host copies; gm: reload only (the baseline)"));
  }

  @Override
  public Target target() {
    return NIC;
  }

  @Override
  public void check(FaultSpec fault, ScenarioContext context, Reporter report) {
    String mode = fault.params().text("mode");
    try {
      FtgmSettings.mode(mode == null ? "ftgm" : mode);
    } catch (IllegalArgumentException e) {
      report.problem("mode", e.getMessage());
    }
  }

  static McpMode mode(FaultSpec fault) {
    String mode = fault.params().text("mode");
    return FtgmSettings.mode(mode == null ? "ftgm" : mode.toLowerCase(Locale.ROOT));
  }

  @Override
  public String apply(FaultSpec fault, int step, long modelAt, RunningRack rack) throws Exception {
    McpMode mode = mode(fault);
    ActorRef<NicFaultDaemon.Command> daemon = Asks.find(rack.system(), ComponentKeys.nicDaemon(fault.target()), ASK);
    ActorRef<SriovNic.Command> nic = Asks.find(rack.system(), ComponentKeys.nic(fault.target()), ASK);
    daemon.tell(new NicFaultDaemon.SetMode(mode));
    // 0: at once, wherever the loop stands (a wall-time fault)
    nic.tell(new SriovNic.HangFirmware(Math.max(0, modelAt)));
    // Under the model-time kernel the hang enters the model at its time: once the NIC has taken it
    // (its answer comes after), what it sent its endpoint meanwhile is in the endpoint's books.
    Asks.<SriovNic.Command, SriovNic.FtgmState>ask(rack.system(), nic, SriovNic.GetFtgmState::new, ASK);
    rack.confirmInputs(List.of(fault.target()));
    return "NIC " + fault.target() + "'s firmware loop hung (" + mode.name().toLowerCase(Locale.ROOT) + " recovery)";
  }

  @Override
  public boolean takesLinkDown(FaultSpec fault, int step) {
    return false;
  }
}
