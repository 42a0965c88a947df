package io.rackfabric.host.enumeration;

import io.rackfabric.fabric.tlp.Bdf;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Slot mode's map (Multi-peer): each slot of a {@link SlotGroup} gets its bus range and address
 * block when the walk reaches the group's bridge, whether a device sits in the slot or not, so a
 * host plugged in later finds its numbers waiting. Kept for the result as {@link SlotReservation}s.
 */
final class SlotReservations {

  private record Reserved(SlotGroup group, SlotGroup.Slot slot, int bdf, int firstBus, int lastBus,
      ProbedFunction at) {}

  private final AllocationPolicy policy;
  private final ConfigRequests requests;
  private final List<Reserved> reserved = new ArrayList<>();
  private final Set<String> groupsSeen = new HashSet<>();

  SlotReservations(AllocationPolicy policy, ConfigRequests requests) {
    this.policy = policy;
    this.requests = requests;
  }

  /** Reserves the slots of the group below {@code bridge}, once, taking its buses from {@code scope}. */
  void reserveBelow(ProbedFunction bridge, BusScope scope) {
    Optional<SlotGroup> group = policy.slotsBelow(bridge.location);
    if (group.isPresent() && groupsSeen.add(group.get().name())) {
      reserve(group.get(), bridge, scope);
    }
  }

  private void reserve(SlotGroup group, ProbedFunction bridge, BusScope scope) {
    bridge.groupBelow = group;
    int first = -1;
    if (group.busesPerSlot() > 0) {
      int need = group.slots().size() * group.busesPerSlot();
      if (scope.next + need - 1 > scope.last) {
        requests.problem(bridge, "slot group " + group.name() + " needs " + need + " buses from " + scope.next
            + " but only buses up to " + scope.last + " are left; its bridges stay unnumbered");
      } else {
        first = scope.next;
        scope.next += need;
      }
    }
    for (int i = 0; i < group.slots().size(); i++) {
      SlotGroup.Slot slot = group.slots().get(i);
      int firstBus = first < 0 ? bridge.secondary : first + i * group.busesPerSlot();
      int lastBus = first < 0 ? bridge.secondary : firstBus + group.busesPerSlot() - 1;
      ProbedFunction at = bridge.child(slot.device(), 0);
      if (at != null) {
        at.inGroup = group;
        at.slot = slot;
        at.slotFirstBus = first < 0 ? -1 : firstBus;
        at.slotLastBus = lastBus;
      }
      reserved.add(new Reserved(group, slot, Bdf.of(bridge.secondary, slot.device(), 0), firstBus, lastBus, at));
    }
  }

  /** Reports the policy's groups that the walk found no bridge for. */
  void checkGroupsFound() {
    for (SlotGroup g : policy.slotGroups()) {
      if (!groupsSeen.contains(g.name())) {
        requests.problem("slot group " + g.name() + ": no bridge at " + (g.location().isEmpty() ? "the root's bus"
            : "location " + g.location()) + ", its slots are not reserved");
      }
    }
  }

  /** Each slot reserved, occupied when a device answered in it. */
  List<SlotReservation> reservations() {
    List<SlotReservation> slots = new ArrayList<>();
    for (Reserved r : reserved) {
      boolean occupied = r.at != null && (!r.at.kind.bridge() || !r.at.children.isEmpty());
      slots.add(new SlotReservation(r.group.name(), r.slot.slot(), r.bdf, r.firstBus, r.lastBus, r.slot.block(), occupied));
    }
    return slots;
  }
}
