package io.rackfabric.host.ftgm;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The PF driver's lane of FAULT_DETECTED notifications after a recovery of the rack's NIC: the VF
 * owners' handlers run one at a time (as FTGM's port handlers do through the device driver), so
 * the next owner is told when the previous port reopened. Plain bookkeeping for {@link
 * NicFaultDaemon}; not thread-safe.
 */
final class VfNotifications {

  /** Tell the owner of {@code vf} at model time {@code at}. */
  record Next(int vf, long at) {}

  private final ArrayDeque<Integer> waiting = new ArrayDeque<>();
  private final List<Long> reopenedAt = new ArrayList<>();
  private long postedAt;
  private long freeAt;
  private boolean running;

  /** The daemon posted FAULT_DETECTED for {@code vf} at {@code at}: its owner waits its turn. */
  void posted(int vf, long at) {
    postedAt = at;
    freeAt = at;
    waiting.add(vf);
  }

  /** The running handler's port reopened at {@code at}: the lane is free from then. */
  void reopened(long at) {
    reopenedAt.add(at);
    freeAt = Math.max(freeAt, at);
    running = false;
  }

  /**
   * The owner to tell now, and when: no earlier than the post nor the last reopening; null while
   * a handler runs or nobody waits.
   */
  Next next() {
    if (running || waiting.isEmpty()) {
      return null;
    }
    running = true;
    return new Next(waiting.poll(), Math.max(postedAt, freeAt));
  }

  /** No handler runs and nobody waits: the recovery's notifications are over. */
  boolean idle() {
    return !running && waiting.isEmpty();
  }

  /** The reopenings of the recovery just over, in the order they came; forgets them. */
  List<Long> takeReopenings() {
    List<Long> out = List.copyOf(reopenedAt);
    reopenedAt.clear();
    return out;
  }
}
