package io.rackfabric.host.nic;

import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The card's ports as the message firmware keeps them (FTGM section 3.1): whether each is open,
 * its send tokens in the order the host posted them and the receive buffers it offers, and the
 * page hash, which says whose buffers the card may DMA and so which ports may open. The firmware
 * serves the ports' send queues in turn, so that one busy port cannot starve the others.
 */
final class PortQueues {

  private static final class Port {
    boolean open;
    final ArrayDeque<SendToken> sends = new ArrayDeque<>();
    final ArrayDeque<ReceiveToken> receives = new ArrayDeque<>();
  }

  private final Map<Integer, Port> ports = new TreeMap<>();
  private final Set<Integer> pageHash = new TreeSet<>();
  /** Where the round over the ports goes on; survives a clear, as the card's counter would. */
  private int nextPort;

  /** The driver loaded the page hash entries of {@code pagePorts}' buffers. */
  void addPages(Set<Integer> pagePorts) {
    pageHash.addAll(pagePorts);
  }

  /** Opens (or reopens) {@code port}; false, and nothing changes, when its pages are not in the page hash. */
  boolean open(int port) {
    if (!pageHash.contains(port)) {
      return false;
    }
    portAt(port).open = true;
    return true;
  }

  boolean isOpen(int port) {
    Port p = ports.get(port);
    return p != null && p.open;
  }

  /** Queues a send token, also on a port not (yet) open: a recovery restores tokens before reopening. */
  void addSend(SendToken token) {
    portAt(token.port()).sends.add(token);
  }

  /** Queues a receive buffer, also on a port not (yet) open. */
  void addReceive(ReceiveToken token) {
    portAt(token.port()).receives.add(token);
  }

  /** The next send token, taken from the first open port with one after the port served last; null if none. */
  SendToken nextSend() {
    List<Integer> ids = List.copyOf(ports.keySet());
    for (int i = 0; i < ids.size(); i++) {
      int id = ids.get((nextPort + i) % ids.size());
      Port p = ports.get(id);
      if (p.open && !p.sends.isEmpty()) {
        nextPort = (ids.indexOf(id) + 1) % ids.size();
        return p.sends.poll();
      }
    }
    return null;
  }

  /** The first of {@code port}'s receive buffers that holds {@code length} bytes, taken; null if none does. */
  ReceiveToken takeReceive(int port, int length) {
    Port p = ports.get(port);
    if (p == null) {
      return null;
    }
    Iterator<ReceiveToken> it = p.receives.iterator();
    while (it.hasNext()) {
      ReceiveToken t = it.next();
      if (t.size() >= length) {
        it.remove();
        return t;
      }
    }
    return null;
  }

  Set<Integer> openPorts() {
    Set<Integer> open = new TreeSet<>();
    ports.forEach((id, p) -> {
      if (p.open) {
        open.add(id);
      }
    });
    return open;
  }

  /** The card's memory was lost: no port, no token, no page hash entry. */
  void clear() {
    ports.clear();
    pageHash.clear();
  }

  private Port portAt(int port) {
    return ports.computeIfAbsent(port, p -> new Port());
  }
}
