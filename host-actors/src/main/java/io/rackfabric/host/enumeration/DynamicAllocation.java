package io.rackfabric.host.enumeration;

import java.util.List;

/** Classic depth-first assignment: nothing reserved, everything packed in found order. */
public record DynamicAllocation(Apertures apertures) implements AllocationPolicy {

  public DynamicAllocation {
    if (apertures == null) {
      throw new IllegalArgumentException("apertures missing");
    }
  }

  @Override
  public Mode mode() {
    return Mode.DYNAMIC;
  }

  @Override
  public List<SlotGroup> slotGroups() {
    return List.of();
  }
}
