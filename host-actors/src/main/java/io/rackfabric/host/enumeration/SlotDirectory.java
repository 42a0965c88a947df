package io.rackfabric.host.enumeration;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Which host sits in which slot, over the reservations of a slot-mode enumeration. A host plugged
 * in or pulled out changes only the occupant: the slot's bus range and block stay reserved, so the
 * notification to the other hosts names resources that were the slot's all along.
 *
 * <p>Mutable; owned by the management host's actor.
 */
public final class SlotDirectory {

  private final List<SlotReservation> reservations;
  private final TreeSet<Integer> slots = new TreeSet<>();
  private final TreeMap<Integer, String> occupants = new TreeMap<>();

  public SlotDirectory(List<SlotReservation> reservations) {
    this.reservations = List.copyOf(reservations);
    reservations.forEach(r -> slots.add(r.slot()));
  }

  /** The directory of an enumeration's slots, all empty (the caller names the hosts). */
  public static SlotDirectory of(EnumerationResult result) {
    return new SlotDirectory(result.slots());
  }

  /**
   * Host {@code host} was plugged into {@code slot}.
   *
   * @throws IllegalArgumentException naming the slot when it is not reserved, is taken, or the
   *     host already sits in another one
   */
  public SlotNotification hostAdded(int slot, String host) {
    checkSlot(slot);
    if (host == null || host.isBlank()) {
      throw new IllegalArgumentException("slot=" + slot + ": host name missing");
    }
    String there = occupants.get(slot);
    if (there != null) {
      throw new IllegalArgumentException("slot=" + slot + " already holds host " + there);
    }
    for (Map.Entry<Integer, String> e : occupants.entrySet()) {
      if (e.getValue().equals(host)) {
        throw new IllegalArgumentException("host=" + host + " already sits in slot " + e.getKey());
      }
    }
    List<String> others = List.copyOf(occupants.values());
    occupants.put(slot, host);
    return new SlotNotification(SlotNotification.Change.ADDED, slot, host, reserved(slot, true), others);
  }

  /**
   * The host in {@code slot} was pulled out.
   *
   * @throws IllegalArgumentException naming the slot when it is not reserved or is empty
   */
  public SlotNotification hostRemoved(int slot) {
    checkSlot(slot);
    String host = occupants.remove(slot);
    if (host == null) {
      throw new IllegalArgumentException("slot=" + slot + " is empty");
    }
    return new SlotNotification(SlotNotification.Change.REMOVED, slot, host, reserved(slot, false),
        List.copyOf(occupants.values()));
  }

  public Optional<String> occupant(int slot) {
    return Optional.ofNullable(occupants.get(slot));
  }

  /** Occupied slots and their hosts, in slot order. */
  public Map<Integer, String> occupants() {
    return new TreeMap<>(occupants);
  }

  /** Every reserved slot number, in order. */
  public List<Integer> slots() {
    return new ArrayList<>(slots);
  }

  /** What {@code slot} keeps in each group. */
  public List<SlotReservation> reservationsOf(int slot) {
    return reservations.stream().filter(r -> r.slot() == slot).toList();
  }

  private List<SlotReservation> reserved(int slot, boolean occupied) {
    return reservationsOf(slot).stream().map(r -> r.withOccupied(occupied)).toList();
  }

  private void checkSlot(int slot) {
    if (!slots.contains(slot)) {
      boolean contiguous = !slots.isEmpty() && slots.last() - slots.first() + 1 == slots.size();
      throw new IllegalArgumentException("slot=" + slot + " is not reserved (slots: "
          + (slots.isEmpty() ? "none" : contiguous ? slots.first() + ".." + slots.last() : slots.toString()) + ")");
    }
  }
}
