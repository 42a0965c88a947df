package io.rackfabric.loadtests.scenario;

import akka.actor.typed.ActorRef;
import io.rackfabric.cluster.lending.LoanFailover;
import io.rackfabric.cluster.lending.LoanPlanException;
import io.rackfabric.cluster.lending.LoanPlanner;
import io.rackfabric.cluster.lending.LoanPlanner.BarView;
import io.rackfabric.cluster.lending.LoanPlanner.LoanPlan;
import io.rackfabric.cluster.node.ComponentKeys;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.host.memory.Plane;
import io.rackfabric.loadtests.harness.Asks;
import io.rackfabric.loadtests.scenario.api.RunningRack;
import io.rackfabric.loadtests.scenario.language.LoanStep;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The BAR windows of a scenario's loans, gated closed at every borrower's root before anything
 * runs (Device Lending section 4: a borrower reaches a lent device's BARs only between the hot-add
 * of an accepted borrow and the hot-remove of its return). The windows of a (device, borrower)
 * pair are every address the borrower reaches the device's BARs through: the loan's as {@code rack
 * lend} finds it and, in a Ladon rack, the same BARs through the secondary plane
 * ({@link LoanFailover}), where a loan moves when the borrower's primary link fails.
 */
final class LoanWindows {

  private static final Duration ASK = Duration.ofSeconds(10);

  private LoanWindows() {}

  /** The windows to gate: for each host that borrows in {@code steps}, each device it borrows. */
  static Map<String, Map<String, List<AddressRange>>> of(Topology topology, List<LoanStep> steps) {
    Map<String, Set<String>> borrowed = new LinkedHashMap<>();
    for (LoanStep s : steps) {
      if (s.kind() == LoanStep.Kind.BORROW) {
        borrowed.computeIfAbsent(s.host(), h -> new LinkedHashSet<>()).add(s.device());
      }
    }
    LoanPlanner planner = new LoanPlanner(topology);
    Map<String, Map<String, List<AddressRange>>> out = new LinkedHashMap<>();
    borrowed.forEach((host, devices) -> {
      for (String device : devices) {
        List<AddressRange> windows = new ArrayList<>();
        try {
          windows.addAll(ranges(planner.plan(device, host)));
        } catch (LoanPlanException e) {
          continue; // a borrow the topology cannot carry: the controller refuses it, nothing opens
        }
        if (topology.globalMemorySpec() != null && topology.globalMemorySpec().computeHosts().contains(host)) {
          try {
            ranges(new LoanFailover(planner).afterLinkDown(device, host, host, Plane.PRIMARY).after()).stream()
                .filter(r -> windows.stream().noneMatch(r::overlaps)).forEach(windows::add);
          } catch (LoanPlanException e) {
            // no secondary path: the loan's own windows are all there is
          }
        }
        out.computeIfAbsent(host, h -> new LinkedHashMap<>()).put(device, List.copyOf(windows));
      }
    });
    return out;
  }

  private static List<AddressRange> ranges(LoanPlan plan) {
    List<AddressRange> out = new ArrayList<>();
    for (BarView b : plan.bars()) {
      out.add(AddressRange.ofSize(b.borrowerSide(), b.lenderSide().size()));
    }
    return out;
  }

  /** Gates the windows of {@code steps}' borrows at their borrowers' roots; returns when applied. */
  static void gate(RunningRack rack, List<LoanStep> steps, PrintStream progress) throws Exception {
    for (var host : of(rack.topology(), steps).entrySet()) {
      ActorRef<MemoryEndpoint.Command> root = Asks.find(rack.system(), ComponentKeys.endpoint(host.getKey()), ASK);
      for (var device : host.getValue().entrySet()) {
        MemoryEndpoint.BarWindowsChanged r = Asks.<MemoryEndpoint.Command, MemoryEndpoint.BarWindowsChanged>ask(
            rack.system(), root, ref -> new MemoryEndpoint.GateBarWindows(device.getKey(), device.getValue(), ref), ASK);
        if (!r.accepted()) {
          throw new IllegalStateException("host=" + host.getKey() + " could not gate the BAR windows of device="
              + device.getKey() + ": " + r.detail());
        }
        progress.printf("  loans: %s reaches %s's BARs at %s only while it holds the loan%n", host.getKey(),
            device.getKey(), device.getValue());
      }
    }
  }
}
