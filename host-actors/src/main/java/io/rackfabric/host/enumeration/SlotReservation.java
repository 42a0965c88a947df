package io.rackfabric.host.enumeration;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.tlp.Bdf;

/**
 * What one slot keeps, occupied or not: the slot's function ID (a downstream port, or the slot
 * endpoint itself), the bus range reserved below it ({@code firstBus..lastBus}; for a slot that is
 * an endpoint on the switch's bus, that bus), and its address block.
 */
public record SlotReservation(
    String group, int slot, int bdf, int firstBus, int lastBus, AddressRange block, boolean occupied) {

  public String buses() {
    return firstBus == lastBus ? String.valueOf(firstBus) : firstBus + ".." + lastBus;
  }

  public SlotReservation withOccupied(boolean nowOccupied) {
    return new SlotReservation(group, slot, bdf, firstBus, lastBus, block, nowOccupied);
  }

  @Override
  public String toString() {
    return group + " slot " + slot + " (" + Bdf.format(bdf) + ", buses " + buses() + ", " + block + ")";
  }
}
