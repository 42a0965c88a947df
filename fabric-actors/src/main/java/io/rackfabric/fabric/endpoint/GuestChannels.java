package io.rackfabric.fabric.endpoint;

import io.rackfabric.fabric.time.PortTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An endpoint's guest channels ({@link GuestPeer}): the kernel channel each goes out on, and the
 * input channel each comes in on. Inputs are numbered after the link's and the siblings', in the
 * order of the peers' names, so that ties between messages due at the same model time are broken
 * the same way on every run. Not thread-safe: the endpoint actor's own.
 */
final class GuestChannels {

  /** Input channels of guest peers start here, clear of the link (0) and any sibling port (1 + n). */
  static final int FIRST_INPUT = 1 << 20;

  /** Where a message to {@code peer} goes out, and the least model time it takes. */
  record Out(int channel, long lookaheadNs) {}

  private final Map<String, Out> out = new HashMap<>();
  private final Map<String, Integer> in = new HashMap<>();
  private final int unknownInput;

  /** Declares a kernel channel to each peer on {@code time} (before it joins a keeper). */
  GuestChannels(List<GuestPeer> peers, PortTime time) {
    List<GuestPeer> sorted = peers.stream().sorted((a, b) -> a.peer().compareTo(b.peer())).toList();
    for (int i = 0; i < sorted.size(); i++) {
      GuestPeer p = sorted.get(i);
      if (out.containsKey(p.peer())) {
        throw new IllegalArgumentException("guest peer " + p.peer() + " declared twice");
      }
      out.put(p.peer(), new Out(time.declare(p.peer(), p.lookaheadNs()), p.lookaheadNs()));
      in.put(p.peer(), FIRST_INPUT + i);
    }
    unknownInput = FIRST_INPUT + sorted.size();
  }

  /** The channel to {@code peer}, or null when none was declared. */
  Out out(String peer) {
    return out.get(peer);
  }

  /** The input channel of messages from {@code peer}; one past the known peers' for a stranger. */
  int in(String peer) {
    return in.getOrDefault(peer, unknownInput);
  }

  boolean knows(String peer) {
    return in.containsKey(peer);
  }
}
