package io.rackfabric.host.nic;

import java.util.List;

/**
 * The NIC's register file as its firmware applies posted writes to it: the PF's registers (each
 * VF's owners and enable) from the PF's owner only, a VF's transmit registers from the requesters
 * its owners match while it is enabled. Everything else is ignored and counted, never thrown.
 */
final class RegisterWrites {

  private final RegisterMap map;
  private final int pfOwner;
  private final NicSettings settings;
  private final TxQueue[] queues;
  private long foreignPfWrites;
  private long malformedWrites;
  private long otherRegisterWrites;

  RegisterWrites(RegisterMap map, int pfOwner, NicSettings settings, TxQueue[] queues) {
    this.map = map;
    this.pfOwner = pfOwner;
    this.settings = settings;
    this.queues = queues;
  }

  /**
   * Applies one posted write of {@code requester} that arrived at {@code arrivedAt}; returns the
   * doorbells (TDT writes) it rang on a queue that took it, each of which costs the firmware its
   * processing time.
   */
  int apply(long address, byte[] data, int requester, long arrivedAt) {
    List<RegisterMap.Access> accesses;
    try {
      accesses = map.decode(address, data);
    } catch (IllegalArgumentException e) {
      malformedWrites++;
      return 0;
    }
    if (accesses.get(0).register().pf()) {
      if (requester != pfOwner) {
        foreignPfWrites++;
        return 0;
      }
      accesses.forEach(a -> applyPf(a, arrivedAt));
      return 0;
    }
    TxQueue q = queues[accesses.get(0).vf()];
    boolean doorbell = accesses.stream().anyMatch(a -> a.register() == RegisterMap.Register.TDT);
    if (!q.enabled) {
      q.disabledWrites++;
    } else if (!q.ownedBy(requester)) {
      if (doorbell) {
        q.foreignDoorbells++;
      } else {
        q.foreignWrites++;
      }
    } else {
      int rung = 0;
      for (RegisterMap.Access a : accesses) {
        rung += applyVf(q, a) ? 1 : 0;
      }
      return rung;
    }
    return 0;
  }

  private void applyPf(RegisterMap.Access a, long arrivedAt) {
    switch (a.register()) {
      case VF_OWNER0 -> queues[a.vf()].owner0 = RequesterMatch.decode(a.value());
      case VF_OWNER1 -> queues[a.vf()].owner1 = RequesterMatch.decode(a.value());
      case VF_CTRL -> {
        TxQueue q = queues[a.vf()];
        boolean enable = (a.value() & RegisterMap.VF_CTRL_ENABLE) != 0;
        if (enable && !q.enabled) {
          q.enabled = true;
          q.assignedAt = arrivedAt;
        } else if (!enable && q.enabled) {
          q.disable();
        }
      }
      default -> otherRegisterWrites++;
    }
  }

  /** True for a doorbell (TDT), taken or counted as bad. */
  private boolean applyVf(TxQueue q, RegisterMap.Access a) {
    int v = a.value();
    switch (a.register()) {
      case TDBAL -> q.baseLow = v;
      case TDBAH -> q.baseHigh = v;
      case TDLEN -> {
        if (v < 1 || v > settings.maxRing()) {
          q.badRings++;
          q.restart(0);
        } else {
          q.restart(v);
        }
      }
      case TDWBAL -> q.writeBackLow = v;
      case TDWBAH -> q.writeBackHigh = v;
      case TDH -> {
        // recovery: the driver puts the ring back where its last write-back left it (empty there)
        if (q.length == 0 || v < 0 || v >= q.length) {
          q.badDoorbells++;
        } else {
          q.head = v;
          q.tail = v;
          q.generation++;
        }
      }
      case TDT -> {
        if (q.length == 0 || v < 0 || v >= q.length) {
          q.badDoorbells++;
        } else {
          q.tail = v;
          q.doorbells++;
        }
        return true;
      }
      default -> otherRegisterWrites++;
    }
    return false;
  }

  long foreignPfWrites() {
    return foreignPfWrites;
  }

  long malformedWrites() {
    return malformedWrites;
  }

  long otherRegisterWrites() {
    return otherRegisterWrites;
  }
}
