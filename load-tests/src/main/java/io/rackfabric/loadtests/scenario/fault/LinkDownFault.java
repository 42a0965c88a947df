package io.rackfabric.loadtests.scenario.fault;

import io.rackfabric.loadtests.scenario.language.FaultSpec;
import io.rackfabric.loadtests.scenario.language.Target;
import io.rackfabric.loadtests.scenario.api.FaultType;
import io.rackfabric.loadtests.scenario.api.RunningRack;

/**
 * {@code link-down}: the link at a port or endpoint goes down (a cable pulled at that end). The
 * end sends the surprise down to its partner; a switch port reports ERR_FATAL to its domain's
 * root; TLPs queued at either end are lost, later ones are refused there.
 */
public final class LinkDownFault implements FaultType {

  @Override
  public String name() {
    return "link-down";
  }

  @Override
  public String summary() {
    return "take the link at TARGET down (it stays down unless a link-up follows)";
  }

  @Override
  public Target target() {
    return Target.LINK_END;
  }

  @Override
  public String apply(FaultSpec fault, int step, long modelAt, RunningRack rack) throws Exception {
    rack.setLink(fault.target(), false, modelAt);
    String partner = rack.topology().linkAt(fault.target()).orElseThrow().other(fault.target());
    return "link " + fault.target() + " -- " + partner + " down at " + fault.target();
  }
}
