package io.rackfabric.fabric.switchchip;

import io.rackfabric.fabric.management.ManagementAgent;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.RoutingTable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.TreeSet;
import java.util.List;
import java.util.Set;

/**
 * Which routing table a switch port routes by at a model time. The chip keeps no model clock: it
 * publishes every table at once, but a virtual-switch reassignment stamped with the model time it
 * takes effect at (the management host's partition update, see {@link SwitchChip.ReassignPorts})
 * is held here until the port's clock reaches it, so that which TLPs go by the old table and which
 * by the new is a function of model time, not of when the chip's message arrived.
 *
 * <p>The rule: a move due at t is in force for every event the port handles at t or later, and for
 * none before, whatever the order of the events at t ({@link #reach} runs before each one). Moves
 * due at the same time take effect in the order they came from the chip. A table published at once
 * (a configuration write, an NTB entry) is adopted at once, except that every port a pending move
 * names keeps the virtual switch now in force: the chip's table already holds the move, and a
 * configuration write never changes a virtual switch itself.
 *
 * <p>Not thread-safe: the port actor's own.
 */
final class TableInForce {

  /** {@code ports} go to {@code virtualSwitch} at model time {@code effectiveAt}; {@code seq}: arrival. */
  private record Move(long effectiveAt, long seq, List<Integer> ports, int virtualSwitch) {}

  private final List<Move> pending = new ArrayList<>();
  /**
   * Windows the fabric manager wrote, in force here since their model time: a table the chip
   * publishes at once (which may have left the chip before it learnt of them) carries them too.
   */
  private final java.util.Map<Integer, ManagementAgent.WindowOrder> written = new java.util.TreeMap<>();
  private RoutingTable table;
  private long seq;

  TableInForce(RoutingTable table) {
    this.table = table;
  }

  /** The table the port routes by now. */
  RoutingTable table() {
    return table;
  }

  /** Moves not yet in force. */
  int pending() {
    return pending.size();
  }

  /** The chip published {@code chipTable} at once; returns the table now in force. */
  RoutingTable published(RoutingTable chipTable) {
    Set<Integer> held = new TreeSet<>();
    pending.forEach(m -> held.addAll(m.ports()));
    RoutingTable next = chipTable;
    for (int n : held) {
      PortConfig now = table.port(n);
      PortConfig published = next.port(n);
      if (now != null && published != null && published.virtualSwitch() != now.virtualSwitch()) {
        next = next.withPort(published.withVirtualSwitch(now.virtualSwitch()));
      }
    }
    table = withWritten(next);
    return table;
  }

  /**
   * NTB port {@code o.port()}'s windows are the order's from now on (the port's clock is at their
   * model time); true when the table in force changed.
   */
  boolean windows(ManagementAgent.WindowOrder o) {
    written.put(o.port(), o);
    RoutingTable before = table;
    table = withWritten(table);
    return !table.equals(before);
  }

  private RoutingTable withWritten(RoutingTable t) {
    RoutingTable next = t;
    for (java.util.Map.Entry<Integer, ManagementAgent.WindowOrder> e : written.entrySet()) {
      PortConfig p = next.port(e.getKey());
      if (p != null && p.ntb() != null && (!p.ntb().linkBars().equals(e.getValue().linkBars())
          || !p.ntb().virtualBars().equals(e.getValue().virtualBars()))) {
        next = next.withPort(p.withNtb(p.ntb().withBars(e.getValue().linkBars(), e.getValue().virtualBars())));
      }
    }
    return next;
  }

  /** {@code ports} move to {@code virtualSwitch} once the port's clock reaches {@code effectiveAt}. */
  void schedule(long effectiveAt, List<Integer> ports, int virtualSwitch) {
    pending.add(new Move(effectiveAt, seq++, List.copyOf(ports), virtualSwitch));
    pending.sort(Comparator.comparingLong(Move::effectiveAt).thenComparingLong(Move::seq));
  }

  /**
   * The port's clock is at {@code now}: every move due by then takes effect, in order. Returns
   * true when the table in force differs
   * from the one before.
   */
  boolean reach(long now) {
    RoutingTable before = table;
    while (!pending.isEmpty() && pending.get(0).effectiveAt() <= now) {
      Move m = pending.remove(0);
      for (int n : m.ports()) {
        PortConfig p = table.port(n);
        if (p != null && p.virtualSwitch() != m.virtualSwitch()) {
          table = table.withPort(p.withVirtualSwitch(m.virtualSwitch()));
        }
      }
    }
    return !table.equals(before);
  }
}
