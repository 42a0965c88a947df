package io.rackfabric.cluster.topology;

import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.PortRole;
import java.util.List;
import java.util.Optional;

/**
 * The switch a root sits on: the one whose upstream port the root is linked to, with the
 * downstream ports of that port's virtual switch. For a compute host these are its root ports
 * (one per plane), for the management host the ports toward each plane's switch; host software
 * reads the AER of these ports, so fail-over needs them.
 */
public record RootSwitch(SwitchSpec chip, PortConfig up, List<PortConfig> downstream) {

  public RootSwitch {
    downstream = List.copyOf(downstream);
  }

  /** The switch below root {@code rootId}, or empty when the root is not linked to an upstream port. */
  public static Optional<RootSwitch> of(Topology topology, String rootId) {
    LinkSpec link = topology.linkAt(rootId).orElse(null);
    if (link == null) {
      return Optional.empty();
    }
    String upEnd = link.other(rootId);
    SwitchSpec chip = topology.switchSpec(LinkSpec.componentOf(upEnd)).orElse(null);
    PortConfig up = chip == null ? null : chip.ports().stream()
        .filter(p -> LinkSpec.end(chip.id(), p.name()).equals(upEnd)).findFirst().orElse(null);
    if (up == null || up.role() != PortRole.UPSTREAM) {
      return Optional.empty();
    }
    return Optional.of(new RootSwitch(chip, up, chip.ports().stream()
        .filter(p -> p.role() == PortRole.DOWNSTREAM && p.virtualSwitch() == up.virtualSwitch())
        .toList()));
  }

  /** Whether downstream port {@code p}'s prefetchable window holds {@code address}. */
  public static boolean holds(PortConfig p, long address) {
    return p.bridge().prefetchable() != null && p.bridge().prefetchable().contains(address);
  }
}
