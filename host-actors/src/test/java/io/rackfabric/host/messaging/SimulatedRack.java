package io.rackfabric.host.messaging;

import io.rackfabric.fabric.endpoint.SparseMemory;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import io.rackfabric.host.memory.NtbHop;
import io.rackfabric.host.memory.Plane;
import io.rackfabric.host.memory.Resolution;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * A rack of {@link DatagramHost}s over a discrete-event stand-in for the fabric: addresses resolve
 * through the global memory layout, every NTB hop costs {@code HOP_NS} plus a nanosecond per byte,
 * writes and reads on one path stay in order, and a compute host's link of either plane can be
 * taken down (everything on or entering it is lost) and brought back. When no event is left, the
 * wall clock jumps by a grace period and every host gets its idle call, as the actor's timer does.
 */
final class SimulatedRack {

  static final long HOP_NS = 600;

  /** One delivery to the application. */
  record Delivery(int to, int from, long sequence, byte[] payload, long at) {}

  /** One write landing in a host's region: which host, the local address, the model time. */
  record Landing(int host, long address, long at) {}

  private record Event(long at, long order, Runnable task) {}

  final GlobalMemoryLayout memory;
  final MessagingSettings settings;
  final List<Delivery> deliveries = new ArrayList<>();
  final List<Landing> landings = new ArrayList<>();
  private final Node[] nodes;
  private final PriorityQueue<Event> events = new PriorityQueue<>((a, b) ->
      a.at() != b.at() ? Long.compare(a.at(), b.at()) : Long.compare(a.order(), b.order()));
  private final Set<String> down = new HashSet<>();
  private long order;
  private long wall;
  private boolean readsVanish;

  long writesLost;
  long readsLost;
  long readsRefused;

  SimulatedRack(int computeHosts, MessagingSettings settings) {
    this.memory = GlobalMemoryLayout.paper(computeHosts);
    this.settings = settings;
    this.nodes = new Node[computeHosts + 1];
    for (int h = 0; h <= computeHosts; h++) {
      nodes[h] = new Node(h);
    }
    for (Node n : nodes) {
      n.host.start();
    }
  }

  DatagramHost host(int h) {
    return nodes[h].host;
  }

  /** Takes CH {@code ch}'s link of {@code plane} down: in flight and new traffic over it is lost. */
  void fail(int ch, Plane plane) {
    down.add(ch + "/" + plane);
  }

  void restore(int ch, Plane plane) {
    down.remove(ch + "/" + plane);
  }

  /** Reads over a failed link get no completion at all (else Unsupported Request at once). */
  void readsVanish(boolean on) {
    readsVanish = on;
  }

  List<Delivery> deliveredTo(int to, int from) {
    return deliveries.stream().filter(d -> d.to() == to && d.from() == from).toList();
  }

  /** Runs events, and idle rounds when there are none, until {@code done} or the rounds run out. */
  boolean runUntil(BooleanSupplier done, int idleRounds) {
    int rounds = 0;
    while (!done.getAsBoolean()) {
      Event e = events.poll();
      if (e != null) {
        e.task().run();
        continue;
      }
      if (rounds++ >= idleRounds) {
        return false;
      }
      wall += settings.idleGrace().toNanos();
      for (Node n : nodes) {
        n.host.idle();
      }
    }
    return true;
  }

  /** Runs until nothing is left to do within {@code idleRounds} idle rounds. */
  void settle(int idleRounds) {
    runUntil(() -> false, idleRounds);
  }

  private boolean blocked(Resolution r) {
    for (NtbHop hop : r.hops()) {
      if (down.contains(hop.host() + "/" + hop.plane())) {
        return true;
      }
    }
    return false;
  }

  private void at(long time, Runnable task) {
    events.add(new Event(time, order++, task));
  }

  private final class Node implements HostFabric {
    final int self;
    final SparseMemory dram = new SparseMemory();
    final DatagramHost host;
    /** Per path (target host and plane): when its last request arrives, to keep them in order. */
    final Map<String, Long> lastArrival = new HashMap<>();

    Node(int self) {
      this.self = self;
      EventClock clock = new EventClock(() -> wall, 1.0);
      host = new DatagramHost(MessagingLayout.of(memory, self, settings), settings, 256, clock, this,
          (from, sequence, payload, at) ->
              deliveries.add(new Delivery(self, from, sequence, payload, at)));
    }

    private long arrival(Resolution r, int bytes, long at) {
      String path = r.host() + "/" + r.plane();
      long t = Math.max(at + r.hops().size() * HOP_NS + bytes, lastArrival.getOrDefault(path, 0L));
      lastArrival.put(path, t);
      return t;
    }

    @Override
    public void write(long address, byte[] data, long at) {
      Resolution r = memory.resolve(self, address);
      if (!r.mapped() || blocked(r)) {
        writesLost++;
        return;
      }
      long t = arrival(r, data.length, at);
      at(t, () -> {
        if (blocked(r)) {
          writesLost++; // queued on the link when it went down
          return;
        }
        Node target = nodes[r.host()];
        target.dram.write(r.offset(), data);
        landings.add(new Landing(r.host(), r.offset(), t));
        target.host.onMemoryWritten(r.offset(), data, t);
      });
    }

    @Override
    public void read(long address, int length, long at, ReadDone done) {
      Resolution r = memory.resolve(self, address);
      if (!r.mapped() || blocked(r)) {
        refuseOrLose(done, at);
        return;
      }
      long t = arrival(r, 0, at);
      at(t, () -> {
        if (blocked(r)) {
          refuseOrLose(done, t);
          return;
        }
        byte[] data = nodes[r.host()].dram.read(r.offset(), length);
        long back = t + r.hops().size() * HOP_NS + length;
        at(back, () -> done.completed(data, back));
      });
    }

    private void refuseOrLose(ReadDone done, long at) {
      if (readsVanish) {
        readsLost++;
      } else {
        readsRefused++;
        at(at, () -> done.failed("Unsupported Request", at));
      }
    }

    @Override
    public void store(long address, byte[] data) {
      dram.write(address, data);
    }
  }
}
