package io.rackfabric.host.enumeration;

import java.util.List;

/**
 * Slot-based assignment (Multi-peer): each group's slots keep their bus range and address block
 * whether occupied or not; whatever lies outside the groups is assigned as {@link
 * DynamicAllocation} does, around the blocks.
 */
public record SlotAllocation(Apertures apertures, List<SlotGroup> slotGroups) implements AllocationPolicy {

  public SlotAllocation {
    if (apertures == null) {
      throw new IllegalArgumentException("apertures missing");
    }
    slotGroups = List.copyOf(slotGroups);
    for (int i = 0; i < slotGroups.size(); i++) {
      for (int j = i + 1; j < slotGroups.size(); j++) {
        SlotGroup a = slotGroups.get(i);
        SlotGroup b = slotGroups.get(j);
        if (a.location().equals(b.location())) {
          throw new IllegalArgumentException("groups " + a.name() + " and " + b.name() + " are both at "
              + a.location());
        }
        if (a.name().equals(b.name())) {
          throw new IllegalArgumentException("two groups named " + a.name());
        }
        for (var s : a.blocks()) {
          for (var t : b.blocks()) {
            if (s.overlaps(t)) {
              throw new IllegalArgumentException("group " + a.name() + " block " + s + " overlaps group "
                  + b.name() + " block " + t);
            }
          }
        }
      }
    }
  }

  @Override
  public Mode mode() {
    return Mode.SLOT;
  }
}
