package io.rackfabric.fabric.link;

import java.util.function.IntPredicate;

/**
 * Which ingress port an egress serves next when several have a TLP waiting: round-robin among
 * those that have one that may go now, starting after the one served last (PCIe's default port
 * arbitration). Sources are the ingress port numbers 0..31 and {@link #OWN}, the egress port's
 * own TLPs (completions and messages it made); the turn goes OWN, 0, 1, ..., 31, OWN, ... So the
 * choice depends only on what is waiting and on the previous choice, never on the order in which
 * the TLPs reached the egress on the wall clock.
 */
public final class EgressArbiter {

  /** The source of a TLP the egress port itself made. */
  public static final int OWN = -1;
  /** Ingress ports 0..31 and OWN. */
  static final int SOURCES = 33;

  /** The slot (source + 1) served last; the turn starts after it. */
  private int last = SOURCES - 1;

  /** The slot of {@code source}: 0 for {@link #OWN}, 1 + port for an ingress port. */
  static int slot(int source) {
    if (source < OWN || source >= SOURCES - 1) {
      throw new IllegalArgumentException("source=" + source + " not in -1..31");
    }
    return source + 1;
  }

  /**
   * Grants the next turn: the first source after the one served last, cyclically, for which
   * {@code ready} holds (tested with slots, see {@link #slot}); returns its slot, or -1 when none
   * is ready (then the turn does not move).
   */
  int grant(IntPredicate ready) {
    for (int i = 1; i <= SOURCES; i++) {
      int s = (last + i) % SOURCES;
      if (ready.test(s)) {
        last = s;
        return s;
      }
    }
    return -1;
  }
}
