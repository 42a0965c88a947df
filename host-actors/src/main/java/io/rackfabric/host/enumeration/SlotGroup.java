package io.rackfabric.host.enumeration;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.address.Addresses;
import java.util.ArrayList;
import java.util.List;

/**
 * Slots with pre-assigned resources (Multi-peer Figs. 4 and 6): the functions at the listed device
 * numbers on the secondary bus of the bridge at {@code location} (a switch's internal bus). Each
 * slot keeps its address block, and when it is a downstream port {@code busesPerSlot} bus numbers,
 * whether or not anything is plugged in, so adding or removing a host never renumbers another.
 * Slots that are endpoints on the bus itself (NTB ports of a Ladon switch) take no bus:
 * {@code busesPerSlot} 0.
 *
 * @param location the bridge above the slots, as {@code 00.0/03.0/00.0}: device.function of each
 *     function on the way down from the root's bus ({@link Enumerator#location})
 * @param prefetchable whether the blocks are prefetchable memory (64-bit) or memory (below 4 GiB)
 * @param shared a block every slot's function decodes at once, or null: a BAR that its slot's own
 *     block cannot take goes here, at the same offset for every slot. Only a multicast group makes
 *     sense of that (Ladon's multicast page: each CH's NTB port has a second BAR on the plane's
 *     page, which the NTB chip copies writes to; see host-actors LadonAddresses). Reserved, and
 *     forwarded by the bridge above the slots, like the slots' blocks.
 */
public record SlotGroup(String name, String location, int busesPerSlot, boolean prefetchable, List<Slot> slots,
    AddressRange shared) {

  /** Slot {@code slot} is the function at {@code device}; its block is its share of the space. */
  public record Slot(int slot, int device, AddressRange block) {
    public Slot {
      if (slot < 1) {
        throw new IllegalArgumentException("slot=" + slot + " must be 1 or more");
      }
      if (device < 0 || device > 31) {
        throw new IllegalArgumentException("slot " + slot + ": device=" + device + " not in [0,31]");
      }
    }
  }

  public SlotGroup {
    slots = List.copyOf(slots);
    if (busesPerSlot < 0 || busesPerSlot > 255) {
      throw new IllegalArgumentException("group " + name + ": buses-per-slot=" + busesPerSlot + " not in [0,255]");
    }
    if (slots.isEmpty()) {
      throw new IllegalArgumentException("group " + name + " has no slots");
    }
    for (int i = 0; i < slots.size(); i++) {
      for (int j = i + 1; j < slots.size(); j++) {
        Slot a = slots.get(i);
        Slot b = slots.get(j);
        if (a.slot() == b.slot() || a.device() == b.device()) {
          throw new IllegalArgumentException("group " + name + ": slots " + a.slot() + " and " + b.slot()
              + " share a slot number or device " + a.device());
        }
        if (a.block().overlaps(b.block())) {
          throw new IllegalArgumentException("group " + name + ": blocks of slots " + a.slot() + " "
              + a.block() + " and " + b.slot() + " " + b.block() + " overlap");
        }
      }
    }
    for (Slot s : slots) {
      if (shared != null && s.block().overlaps(shared)) {
        throw new IllegalArgumentException("group " + name + ": shared block " + shared + " overlaps slot "
            + s.slot() + " " + s.block());
      }
    }
    if (!prefetchable) {
      if (shared != null && Long.compareUnsigned(shared.limit(), 0xFFFF_FFFFL) > 0) {
        throw new IllegalArgumentException("group " + name + ": shared block " + shared
            + " is memory but ends above 4GiB");
      }
      for (Slot s : slots) {
        if (Long.compareUnsigned(s.block().limit(), 0xFFFF_FFFFL) > 0) {
          throw new IllegalArgumentException("group " + name + ": slot " + s.slot() + " block " + s.block()
              + " is memory but ends above 4GiB");
        }
      }
    }
  }

  /** A group without a shared block. */
  public SlotGroup(String name, String location, int busesPerSlot, boolean prefetchable, List<Slot> slots) {
    this(name, location, busesPerSlot, prefetchable, slots, null);
  }

  /** Every block the group reserves: its slots' and the shared one. */
  public List<AddressRange> blocks() {
    List<AddressRange> out = new ArrayList<>();
    slots.forEach(s -> out.add(s.block()));
    if (shared != null) {
      out.add(shared);
    }
    return out;
  }

  /**
   * {@code count} slots numbered 1.. at devices {@code firstDevice}.., block k at {@code base +
   * (k-1) * blockSize}: the layout of Multi-peer Fig. 4 (16 slots of 1 MiB from 0x80000000).
   */
  public static SlotGroup uniform(String name, String location, int firstDevice, int count, int busesPerSlot,
      long base, long blockSize, boolean prefetchable) {
    if (count < 1 || firstDevice + count > 32) {
      throw new IllegalArgumentException("group " + name + ": count=" + count + " slots from device "
          + firstDevice + " do not fit devices 0..31");
    }
    if (blockSize <= 0 || Long.bitCount(blockSize & 0xFFFFF) != 0) {
      throw new IllegalArgumentException("group " + name + ": block-size=" + Addresses.hex(blockSize)
          + " is not a positive multiple of 1MiB (a bridge window's granule)");
    }
    List<Slot> slots = new ArrayList<>();
    for (int k = 0; k < count; k++) {
      slots.add(new Slot(k + 1, firstDevice + k, AddressRange.ofSize(base + k * blockSize, blockSize)));
    }
    return new SlotGroup(name, location, busesPerSlot, prefetchable, slots);
  }

  /** The span of every block, the shared one too: what the bridge above the slots must forward. */
  public AddressRange span() {
    long lo = slots.get(0).block().base();
    long hi = slots.get(0).block().limit();
    for (AddressRange b : blocks()) {
      lo = Long.compareUnsigned(b.base(), lo) < 0 ? b.base() : lo;
      hi = Long.compareUnsigned(b.limit(), hi) > 0 ? b.limit() : hi;
    }
    return new AddressRange(lo, hi);
  }

  public Slot slotAtDevice(int device) {
    for (Slot s : slots) {
      if (s.device() == device) {
        return s;
      }
    }
    return null;
  }
}
