package io.rackfabric.loadtests.scenario;

import akka.actor.typed.ActorRef;
import io.rackfabric.cluster.topology.LinkSpec;
import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.link.LinkErrors;
import io.rackfabric.fabric.port.LinkPort;
import io.rackfabric.loadtests.harness.Asks;
import io.rackfabric.loadtests.harness.RackHorizon;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A running rack's links as the run driver works them: taking a link down or up at a model time
 * (and waiting until both ends took it), injecting link errors, holding every link end at a model
 * time when the rack runs free of the kernel, and waiting for a link to come up. Its faults are
 * kept in {@link FaultedEnds}.
 */
final class RackLinks {

  private static final Duration ASK = Duration.ofSeconds(5);
  /** A PhysicalDown is one message away; this much wall time means the partner is stuck. */
  private static final Duration LINK_DOWN_TIMEOUT = Duration.ofSeconds(10);

  private final LiveRack rack;
  private final FaultedEnds faults;

  RackLinks(LiveRack rack, FaultedEnds faults) {
    this.rack = rack;
    this.faults = faults;
  }

  void setLink(String end, boolean up, long modelAt) throws Exception {
    long at = Math.max(0, modelAt);
    linkSide(end).tell(new LinkPort.SetLink(up, at, rack.system()));
    String partner = rack.topology().linkAt(end).map(l -> l.other(end)).orElse(null);
    if (up) {
      faults.linkUp(end);
    } else {
      faults.linkDown(end);
      if (partner != null) {
        awaitDown(end, partner);
      }
    }
  }

  /** The link side of link end {@code end}: an endpoint's or a switch port's. */
  private ActorRef<LinkPort.Command> linkSide(String end) throws Exception {
    return LinkSpec.portOf(end) == null ? LinkPort.of(rack.endpoint(end)) : LinkPort.of(rack.port(end));
  }

  void injectLinkErrors(String end, LinkErrors errors) throws Exception {
    Asks.<LinkPort.Command, LinkErrors>ask(rack.system(), linkSide(end), r -> new LinkPort.InjectLinkErrors(errors, r), ASK);
    faults.touched(end);
  }

  void holdFrom(long modelAt) throws Exception {
    if (rack.clock.running()) {
      // The fabric runs under the kernel: holding it at a model time is the kernel's limit (a
      // link-level horizon would release held TLPs outside the kernel's rounds), and host software
      // paces itself by wakes of its endpoint, which the limit holds too.
      if (modelAt == Long.MAX_VALUE) {
        rack.clock.release();
      } else {
        rack.clock.limit(modelAt);
      }
      return;
    }
    // Free-running: every link end, and through its endpoint the host software that is its guest.
    List<ActorRef<LinkPort.Command>> ends = new ArrayList<>();
    for (LinkSpec l : rack.topology().links()) {
      for (String end : List.of(l.a(), l.b())) {
        if (!rack.reachable(LinkSpec.componentOf(end))) {
          continue; // a stopped end or one on a killed node sends nothing
        }
        ends.add(linkSide(end));
      }
    }
    RackHorizon.holdFrom(rack.system(), ends, modelAt, ASK);
  }

  /**
   * Waits until neither end of the link is active: the partner has taken the down. Without this,
   * requests the run issues next (stamped after the fault) could cross the link ahead of the
   * partner's PhysicalDown, and its model clock would pass the fault's time before it noticed.
   */
  void awaitDown(String end, String partner) throws Exception {
    Duration timeout = LINK_DOWN_TIMEOUT;
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      DataLinkState a = stateOf(end);
      DataLinkState b = stateOf(partner);
      if (a != DataLinkState.DL_ACTIVE && b != DataLinkState.DL_ACTIVE) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the link " + end + " -- " + partner + " did not go down within " + timeout
            + " (" + a + ", " + b + ")");
      }
      Thread.sleep(5); // polling two ends' state: a link end has no request that answers on down
    }
  }

  /** An end's link state; an end that can no longer answer counts as down. */
  private DataLinkState stateOf(String end) throws Exception {
    String owner = LinkSpec.portOf(end) == null ? end : LinkSpec.componentOf(end);
    if (!rack.reachable(owner)) {
      return DataLinkState.DL_INACTIVE;
    }
    return LinkSpec.portOf(end) == null ? rack.endpointStats(end).link().state() : rack.portStats(end).state();
  }

  /**
   * Waits until both ends of the link at {@code end} trained (DL_Active, or DL_Protected under a
   * fabric manager, which activates it later in model time). A training runs on wall-clock timers
   * and a port sends its state change to its device manager only when it ends: the run's report of
   * every member after the cut ({@link FaultSteps#applyModelFaults}) must come after that.
   */
  void awaitLinkUp(String end, Duration timeout) throws Exception {
    String partner = rack.topology().linkAt(end).map(l -> l.other(end)).orElse(end);
    // An endpoint says when its link is up; a switch port has no such request: polled.
    String endpointEnd = LinkSpec.portOf(end) == null ? end : LinkSpec.portOf(partner) == null ? partner : null;
    if (endpointEnd != null) {
      Asks.awaitLinkActive(rack.system(), rack.endpoint(endpointEnd), timeout);
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      DataLinkState a = stateOf(end);
      DataLinkState b = stateOf(partner);
      if (trained(a) && trained(b)) {
        break;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the link " + end + " -- " + partner + " did not come up within " + timeout
            + " (" + a + ", " + b + ")");
      }
      Thread.sleep(20); // polling two ends' state: a switch port has no request that answers on link-up
    }
  }

  private static boolean trained(DataLinkState s) {
    return s == DataLinkState.DL_ACTIVE || s == DataLinkState.DL_PROTECTED;
  }
}
