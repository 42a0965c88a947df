package io.rackfabric.loadtests.scenario.fault;

import io.rackfabric.cluster.node.RequesterIdPlan;
import io.rackfabric.loadtests.scenario.language.FaultSpec;
import io.rackfabric.loadtests.scenario.language.Param;
import io.rackfabric.loadtests.scenario.language.ParamType;
import io.rackfabric.loadtests.scenario.language.Params;
import io.rackfabric.loadtests.scenario.language.ScenarioContext;
import io.rackfabric.loadtests.scenario.language.Target;
import io.rackfabric.cluster.topology.RouteExplainer;
import io.rackfabric.cluster.topology.RouteExplanation;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.address.Addresses;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.endpoint.PendingReads;
import io.rackfabric.loadtests.scenario.api.FaultType;
import io.rackfabric.loadtests.scenario.api.RunningRack;
import java.util.Arrays;
import java.util.List;

/**
 * {@code rogue-dma}: compute host TARGET, gone rogue, writes and reads another host's memory at
 * {@code to} (an address as TARGET issues it, so through its NTB) without any page opened to it:
 * WRITES posted writes and READS reads of SIZE bytes, one after the other from {@code to}, all at
 * the fault's time. In a rack with a management host the target host's IOMMU denies them: each
 * read is answered with Unsupported Request, each write dropped, both counted under TARGET's
 * requester ID at the target ({@code unauthorized-dma-blocked}, the {@code iommu} figures).
 */
public final class RogueDmaFault implements FaultType {

  /** The byte a rogue write carries: what a write that got through would leave behind. */
  static final byte JUNK = 0x5A;

  /**
   * Where a rogue-dma fault's accesses go: the host it attacks, where the first lands in its memory
   * ({@code victimAddress}), and how many of each kind.
   */
  public record Aim(String rogue, String victim, long address, long victimAddress, long writes, long reads,
      int size) {}

  @Override
  public String name() {
    return "rogue-dma";
  }

  @Override
  public String summary() {
    return "host TARGET writes and reads another host's memory at TO without a page opened to it";
  }

  @Override
  public List<Param> params() {
    return List.of(
        Param.required("to", ParamType.TEXT, "the address TARGET issues the accesses to (through its NTB)"),
        Param.optional("writes", ParamType.COUNT, 0L, "posted writes of SIZE bytes from TO on"),
        Param.optional("reads", ParamType.COUNT, 0L, "reads of SIZE bytes from TO on, at most "
            + PendingReads.TAGS + " (one tag each)"),
        Param.optional("size", ParamType.COUNT, 64L, "bytes per access, 1 to 4096"));
  }

  @Override
  public Target target() {
    return Target.COMPONENT;
  }

  @Override
  public void check(FaultSpec fault, ScenarioContext context, Reporter report) {
    try {
      aim(fault, context.topology());
    } catch (IllegalArgumentException e) {
      String key = e.getMessage().substring(0, Math.max(0, e.getMessage().indexOf('=')));
      report.problem(List.of("writes", "reads", "size").contains(key) ? key : "to", e.getMessage());
    }
  }

  /**
   * The accesses {@code fault} makes and the host they hit, checked: TARGET is a host that the
   * victim denies by default (both hosts of a rack with a management host), every access routes
   * to the victim, and there is at least one.
   *
   * @throws IllegalArgumentException naming the bad value
   */
  public static Aim aim(FaultSpec fault, Topology topology) {
    Params p = fault.params();
    long address;
    try {
      address = Addresses.parse(p.text("to"));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("to=" + p.text("to") + ": " + e.getMessage());
    }
    long writes = p.number("writes", 0);
    long reads = p.number("reads", 0);
    long size = p.number("size", 64);
    if (size < 1 || size > 4096) {
      throw new IllegalArgumentException("size=" + size + " not in [1,4096]");
    }
    if (writes + reads < 1) {
      throw new IllegalArgumentException("writes=" + writes + ", reads=" + reads + ": nothing to send");
    }
    if (reads > PendingReads.TAGS) {
      throw new IllegalArgumentException("reads=" + reads + " exceeds the " + PendingReads.TAGS
          + " tags one requester has outstanding at once");
    }
    String rogue = fault.target();
    RouteExplainer routes = new RouteExplainer(topology);
    long last = address + (Math.max(writes, reads) - 1) * size + size - 1;
    String victim = null;
    long victimAddress = -1;
    for (long a : new long[] {address, last}) {
      RouteExplanation e = routes.explain(rogue, a, false);
      if (e.outcome().kind() != RouteExplanation.Kind.DELIVERED || e.target().equals(rogue)) {
        throw new IllegalArgumentException("to=" + Addresses.hex(a) + ": no route from " + rogue
            + " to another host's memory: " + e.ending());
      }
      if (victim != null && !victim.equals(e.target())) {
        throw new IllegalArgumentException("to=" + Addresses.hex(address) + ": the accesses start in " + victim
            + " and end in " + e.target() + "; keep them in one host");
      }
      victim = e.target();
      if (victimAddress < 0) {
        victimAddress = e.outcome().address();
      }
    }
    var target = RequesterIdPlan.of(topology).isolationPlan().target(victim);
    if (target.isEmpty() || !target.get().arrivalIds().containsKey(rogue)) {
      throw new IllegalArgumentException("to=" + Addresses.hex(address) + " reaches " + victim + ", which does not"
          + " deny " + rogue + " by default: both must be hosts of a rack with a management host (global-memory)");
    }
    return new Aim(rogue, victim, address, victimAddress, writes, reads, (int) size);
  }

  @Override
  public String apply(FaultSpec fault, int step, long modelAt, RunningRack rack) throws Exception {
    Aim a = aim(fault, rack.topology());
    var ep = rack.endpoint(a.rogue());
    byte[] junk = new byte[a.size()];
    Arrays.fill(junk, JUNK);
    // Negative modelAt (a wall-time fault): each access at the rogue's own model clock.
    for (long k = 0; k < a.writes(); k++) {
      ep.tell(new MemoryEndpoint.Write(a.address() + k * a.size(), junk, modelAt));
    }
    // The answers are not needed here: the victim counts what it denied, the rogue what failed.
    for (long k = 0; k < a.reads(); k++) {
      ep.tell(new MemoryEndpoint.Read(a.address() + k * a.size(), a.size(), modelAt, rack.system().ignoreRef()));
    }
    return a.rogue() + " sent " + a.writes() + " write(s) and " + a.reads() + " read(s) of " + a.size()
        + " bytes to " + a.victim() + " at " + Addresses.hex(a.address()) + ", no page open to it";
  }

  @Override
  public boolean takesLinkDown(FaultSpec fault, int step) {
    return false;
  }
}
