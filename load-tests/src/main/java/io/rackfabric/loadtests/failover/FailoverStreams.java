package io.rackfabric.loadtests.failover;

import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.Props;
import akka.actor.typed.javadsl.Behaviors;
import io.rackfabric.cluster.node.ComponentKeys;
import io.rackfabric.cluster.topology.GlobalMemorySpec;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.link.PortMessage;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.fabric.time.TimeKeeper;
import io.rackfabric.host.compute.ComputeHost;
import io.rackfabric.host.messaging.DatagramService;
import io.rackfabric.host.messaging.DatagramStats;
import io.rackfabric.host.messaging.MessagingSettings;
import io.rackfabric.host.messaging.RouteFollower;
import io.rackfabric.loadtests.harness.Asks;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

/**
 * Two datagram streams across a fail-over (the Multi-peer datagram service over Ladon section
 * 5.3): the failing CH and a peer CH each run the FreeQ/PostQ service next to their root endpoint, following their host's
 * route changes, and send each other one datagram per interval of model time from before the
 * fault until after it. What the fabric loses on the failed link is sent again over the other
 * plane; the result says how much that took and checks that each stream arrived once and in order.
 */
public final class FailoverStreams {

  /** One direction's outcome. {@code duplicates} and {@code outOfOrder} must be 0. */
  public record Stream(int from, int to, long sent, long delivered, long duplicates, long outOfOrder,
      long transmissions, long retransmissions, long timeouts, long planeChanges, long tlpsSent) {}

  /** Bytes per datagram. */
  static final int PAYLOAD = 256;

  private final ActorSystem<?> system;
  private final int a;
  private final int b;
  private final long count;
  private final Map<Integer, ActorRef<DatagramService.Command>> services;
  private final Map<Integer, ActorRef<MemoryEndpoint.Command>> roots;
  private final Map<Integer, ConcurrentLinkedQueue<DatagramService.Delivered>> received;

  private FailoverStreams(ActorSystem<?> system, int a, int b, long count,
      Map<Integer, ActorRef<DatagramService.Command>> services,
      Map<Integer, ActorRef<MemoryEndpoint.Command>> roots,
      Map<Integer, ConcurrentLinkedQueue<DatagramService.Delivered>> received) {
    this.system = system;
    this.a = a;
    this.b = b;
    this.count = count;
    this.services = services;
    this.roots = roots;
    this.received = received;
  }

  /**
   * Starts the services of CHs {@code a} and {@code b} (1-based) beside their root endpoints,
   * each following its host's routes and delivering to a collector.
   */
  static FailoverStreams start(ActorSystem<?> system, GlobalMemorySpec spec, int a, int b, long count,
      Map<Integer, ActorRef<ComputeHost.Command>> chs, Duration step) throws Exception {
    MessagingSettings messaging = MessagingSettings.create(system.settings().config());
    FabricSettings fabric = FabricSettings.create(system.settings().config());
    Map<Integer, ActorRef<DatagramService.Command>> services = new LinkedHashMap<>();
    Map<Integer, ActorRef<MemoryEndpoint.Command>> roots = new LinkedHashMap<>();
    Map<Integer, ConcurrentLinkedQueue<DatagramService.Delivered>> received = new LinkedHashMap<>();
    for (int ch : List.of(a, b)) {
      String id = spec.computeHosts().get(ch - 1);
      ActorRef<MemoryEndpoint.Command> root = Asks.find(system, ComponentKeys.endpoint(id), step);
      ActorRef<DatagramService.Command> service = system.systemActorOf(
          DatagramService.create(root, spec.layout(), ch, messaging, fabric), "datagrams-" + id, Props.empty());
      system.systemActorOf(RouteFollower.create(chs.get(ch), ch, service), "routes-" + id, Props.empty());
      ConcurrentLinkedQueue<DatagramService.Delivered> got = new ConcurrentLinkedQueue<>();
      ActorRef<DatagramService.Delivered> collector = system.systemActorOf(
          Behaviors.receiveMessage(d -> {
            got.add(d);
            return Behaviors.same();
          }), "delivered-" + id, Props.empty());
      service.tell(new DatagramService.Subscribe(collector));
      services.put(ch, service);
      roots.put(ch, root);
      received.put(ch, got);
    }
    return new FailoverStreams(system, a, b, count, services, roots, received);
  }

  /**
   * Queues {@code count} datagrams each way, the k-th stamped {@code from + k * interval}. Under
   * the model-time kernel each waits in its service for its model time (a wake of the root
   * endpoint), and the endpoints have reported those wakes to the keeper when this returns.
   */
  void send(long from, long intervalNs, Duration step) throws Exception {
    List<CompletableFuture<DatagramService.SendReply>> replies = new ArrayList<>();
    for (long k = 0; k < count; k++) {
      long at = from + k * intervalNs;
      for (int[] pair : new int[][] {{a, b}, {b, a}}) {
        byte[] payload = ByteBuffer.allocate(PAYLOAD).putLong(k).putInt(pair[0]).array();
        replies.add(Asks.askAsync(system, services.get(pair[0]),
            r -> new DatagramService.Send(pair[1], payload, at, r), step));
      }
    }
    for (CompletableFuture<DatagramService.SendReply> r : replies) {
      if (r.get(step.toMillis(), TimeUnit.MILLISECONDS) instanceof DatagramService.SendRefused refused) {
        throw new IllegalStateException("host " + refused.host() + " refused a datagram to " + refused.peer()
            + ": " + refused.reason());
      }
    }
    // Every service has asked its endpoint for its wakes before it answered (one JVM: the asks are
    // in the endpoint's mailbox), so the endpoints' reports now include them.
    for (ActorRef<MemoryEndpoint.Command> root : roots.values()) {
      Asks.<PortMessage, TimeKeeper.Confirmed>ask(system, root.unsafeUpcast(), TimeKeeper.Confirm::new, step);
    }
  }

  /** A number that moves whenever either service sends, receives or resends anything. */
  long activity(Duration step) throws Exception {
    long sum = 0;
    for (var s : services.values()) {
      DatagramStats st = Asks.ask(system, s, DatagramService.GetStats::new, step);
      for (DatagramStats.PeerStats p : st.peers()) {
        sum += p.tlpsSent() + p.delivered() + p.acksWritten() + p.readsIssued() + p.acknowledged();
      }
    }
    return sum;
  }

  /** Waits until both streams delivered every datagram, then reads what it took. */
  List<Stream> await(Duration limit, Duration step) throws Exception {
    long deadline = System.nanoTime() + limit.toNanos();
    while (received.get(a).size() < count || received.get(b).size() < count) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the datagram streams did not finish within " + limit + ": CH" + b
            + " has " + received.get(b).size() + " of " + count + " from CH" + a + ", CH" + a + " has "
            + received.get(a).size() + " of " + count + " from CH" + b);
      }
      Thread.sleep(20); // polling collectors fed by the services: they answer nothing on "done"
    }
    List<Stream> out = new ArrayList<>();
    for (int[] pair : new int[][] {{a, b}, {b, a}}) {
      DatagramStats sender = Asks.ask(system, services.get(pair[0]), DatagramService.GetStats::new, step);
      DatagramStats.PeerStats p = sender.peer(pair[1]);
      long duplicates = 0;
      long outOfOrder = 0;
      long expected = 0;
      Set<Long> seen = new HashSet<>();
      for (DatagramService.Delivered d : received.get(pair[1])) {
        if (d.from() != pair[0]) {
          continue;
        }
        long k = ByteBuffer.wrap(d.payload()).getLong();
        if (!seen.add(k)) {
          duplicates++;
        } else if (k != expected) {
          outOfOrder++;
        }
        expected = k + 1;
      }
      out.add(new Stream(pair[0], pair[1], p.queued(), seen.size(), duplicates, outOfOrder, p.transmissions(),
          p.retransmissions(), p.timeouts(), p.planeChanges(), p.tlpsSent()));
    }
    return out;
  }
}
