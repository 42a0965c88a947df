package io.rackfabric.host.enumeration;

import io.rackfabric.fabric.config.ConfigSpace;
import io.rackfabric.fabric.tlp.Bdf;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Re-enumerates one slot of each group that has it, after a host was plugged in or pulled out
 * (Multi-peer): the slot's buses and block are the previous run's, not derived again, and nothing
 * outside the slot is touched.
 */
final class SlotRescan {

  record Rescan(SlotReservation reservation, SlotGroup group, SlotGroup.Slot slot) {}

  private final EnumerationResult previous;
  private final ConfigRequests requests;
  private final FabricWalk walk;
  private final BarAssignment assignment;
  private final RegisterProgramming programming;
  private final Map<SlotReservation, ProbedFunction> rescanned = new LinkedHashMap<>();

  SlotRescan(EnumerationResult previous, ConfigRequests requests, FabricWalk walk, BarAssignment assignment,
      RegisterProgramming programming) {
    this.previous = previous;
    this.requests = requests;
    this.walk = walk;
    this.assignment = assignment;
    this.programming = programming;
  }

  /**
   * What to rescan for {@code slot}: each group's reservation and slot.
   *
   * @throws IllegalArgumentException when {@code previous} has no reservation for the slot or the
   *     policy lacks one of its groups
   */
  static List<Rescan> plan(EnumerationResult previous, AllocationPolicy policy, int slot) {
    List<SlotReservation> mine = previous.slot(slot);
    if (mine.isEmpty()) {
      throw new IllegalArgumentException("slot=" + slot + " is reserved in no group of the previous enumeration"
          + " (slots: " + previous.slots().stream().map(SlotReservation::slot).distinct().sorted().toList() + ")");
    }
    List<Rescan> rescans = new ArrayList<>();
    for (SlotReservation r : mine) {
      SlotGroup group = policy.slotGroups().stream().filter(g -> g.name().equals(r.group())).findFirst()
          .orElseThrow(() -> new IllegalArgumentException("slot group '" + r.group() + "' of slot=" + slot
              + " is not in the policy (groups: " + policy.slotGroups().stream().map(SlotGroup::name).toList() + ")"));
      SlotGroup.Slot def = group.slots().stream().filter(s -> s.slot() == slot).findFirst()
          .orElseThrow(() -> new IllegalArgumentException("slot group '" + group.name() + "' has no slot=" + slot));
      rescans.add(new Rescan(r, group, def));
    }
    return rescans;
  }

  /** Starts the rescan of one group's slot. */
  void start(Rescan r) {
    SlotReservation res = r.reservation();
    ProbedFunction groupBridge = ProbedFunction.synthetic(r.group().location(), Bdf.bus(res.bdf()));
    groupBridge.groupBelow = r.group(); // the reserved ranges are the previous run's, not re-derived
    String at = Enumerator.location(r.group().location(), r.slot().device(), 0);
    rescanned.put(res, groupBridge);
    if (r.group().busesPerSlot() > 0) {
      FunctionNode old = previous.at(at).filter(n -> n.kind().bridge()).orElse(null);
      if (old == null) {
        requests.problem("slot " + res.slot() + " of group " + r.group().name() + ": no bridge at " + at);
        return;
      }
      ProbedFunction port = new ProbedFunction(groupBridge, r.slot().device(), 0);
      port.kind = old.kind();
      port.vendor = old.vendor();
      port.deviceId = old.device();
      port.classCode = old.classCode();
      port.inGroup = r.group();
      port.slot = r.slot();
      port.secondary = res.firstBus();
      port.subordinate = res.lastBus();
      port.fixedBuses = true;
      groupBridge.children.add(port);
      walk.enterScope(port.secondary + 1, port.subordinate);
      int value = FabricWalk.buses(port.bus(), port.secondary, port.subordinate);
      programming.expect(port, ConfigSpace.REG_BUSES, value);
      requests.then(() -> walk.scanBus(port, port.kind == FunctionKind.UPSTREAM_PORT), walk::leaveScope,
          () -> rescanProgram(port));
    } else {
      requests.then(() -> walk.probe(groupBridge, r.slot().device(), 0, true), () -> {
        ProbedFunction found = groupBridge.child(r.slot().device(), 0);
        if (found == null) {
          return;
        }
        found.inGroup = r.group();
        found.slot = r.slot();
        if (found.kind.bridge()) {
          requests.problem(found, "bridge in slot " + res.slot() + " of group " + r.group().name()
              + ", which reserves no buses: not scanned");
          found.skipped = true;
          return;
        }
        rescanProgram(found);
      });
    }
  }

  private void rescanProgram(ProbedFunction slotFunction) {
    assignment.placeSlot(slotFunction);
    programming.programAndVerify(List.of(slotFunction));
  }

  /** The previous result with the rescanned slots' functions replaced. */
  EnumerationResult finish(List<Rescan> rescans) {
    List<FunctionNode> functions = previous.functions();
    List<SlotReservation> slots = new ArrayList<>(previous.slots());
    for (Rescan r : rescans) {
      ProbedFunction groupBridge = rescanned.get(r.reservation());
      if (groupBridge == null) {
        continue;
      }
      ProbedFunction found = groupBridge.child(r.slot().device(), 0);
      FunctionNode node = found == null ? null : FunctionTree.toNode(found);
      functions = FunctionTree.replaceChild(functions, r.group().location(),
          Enumerator.location(r.group().location(), r.slot().device(), 0), node);
      boolean occupied = found != null && (!found.kind.bridge() || !found.children.isEmpty());
      slots.replaceAll(s -> s.equals(r.reservation()) ? s.withOccupied(occupied) : s);
    }
    return new EnumerationResult(previous.root(), previous.mode(), functions, slots, requests.problems(),
        requests.requests(), requests.modelNs());
  }
}
