package io.rackfabric.fabric.endpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.link.FaultHorizon;
import io.rackfabric.fabric.link.LinkParameters;
import io.rackfabric.fabric.link.PortMessage;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.fabric.testing.FabricProbes;
import io.rackfabric.fabric.time.JoinKeeper;
import io.rackfabric.fabric.time.TimeKeeper;
import io.rackfabric.fabric.tlp.Bdf;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Guests of two endpoints that no link joins talk over a guest channel: under the kernel the
 * message is a model-time event of the receiving endpoint, the channel's lookahead after it was
 * sent, and the receiver does not run past it meanwhile, whatever was queued there first.
 */
class GuestChannelTest {

  static final ActorTestKit testKit = FabricProbes.dataPlaneTestKit();
  static final FabricSettings settings = FabricSettings.create(testKit.system().settings().config());
  static final LinkParameters gen3x4 = LinkParameters.gen3x4();
  static final long LOOKAHEAD = 1_000;

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  /** A root and a device on one link; the device has guest channels to {@code peers}. */
  record Pair(ActorRef<MemoryEndpoint.Command> rc, ActorRef<MemoryEndpoint.Command> ep) {}

  static Pair pair(String p, List<GuestPeer> peers) {
    ActorRef<MemoryEndpoint.Command> rc = testKit.spawn(MemoryEndpoint.create(p + "rc", Bdf.of(0, 0, 0), true,
        List.of(new AddressRange(0, 0xF_FFFFL)), gen3x4, p + "ep", settings), p + "rc");
    ActorRef<MemoryEndpoint.Command> ep = testKit.spawn(MemoryEndpoint.create(p + "ep", Bdf.of(1, 0, 0), false,
        List.of(new AddressRange(0x4000_0000L, 0x400F_FFFFL)), gen3x4, p + "rc", settings,
        InboundAccessCheck.allowAll(), peers), p + "ep");
    FabricProbes.awaitActive(testKit, rc);
    FabricProbes.awaitActive(testKit, ep);
    return new Pair(rc, ep);
  }

  static ActorRef<TimeKeeper.Command> keeper(String name, Pair... pairs) {
    Set<String> members = new java.util.HashSet<>();
    for (Pair p : pairs) {
      members.add(p.rc().path().name());
      members.add(p.ep().path().name());
    }
    ActorRef<TimeKeeper.Command> keeper = testKit.spawn(TimeKeeper.create(members), name);
    for (Pair p : pairs) {
      for (ActorRef<MemoryEndpoint.Command> e : List.of(p.rc(), p.ep())) {
        e.<PortMessage>unsafeUpcast().tell(new JoinKeeper(keeper));
      }
    }
    TestProbe<TimeKeeper.Status> idle = testKit.createTestProbe();
    keeper.tell(new TimeKeeper.AwaitIdle(idle.ref()));
    assertEquals(members.size(), idle.receiveMessage(Duration.ofSeconds(10)).joined());
    return keeper;
  }

  static TestProbe<GuestCall> attach(ActorRef<MemoryEndpoint.Command> ep, boolean underKernel) {
    TestProbe<GuestCall> guest = testKit.createTestProbe();
    ep.tell(new MemoryEndpoint.AttachGuest(guest.ref(), List.of()));
    assertEquals(new GuestCall.Attached(underKernel), guest.receiveMessage());
    return guest;
  }

  record Wake(ActorRef<MemoryEndpoint.Command> endpoint, MemoryEndpoint.WakeGuest wake) {}

  /**
   * Puts {@code wakes} into the held rack as a run driver would, in the order given, has their
   * endpoints confirm them, and lets the rack run.
   */
  static void wakeInHeldRack(ActorRef<TimeKeeper.Command> keeper, Wake... wakes) {
    TestProbe<TimeKeeper.Status> held = testKit.createTestProbe();
    keeper.tell(new TimeKeeper.HoldBefore(1, held.ref()));
    held.receiveMessage(Duration.ofSeconds(10));
    for (Wake w : wakes) {
      w.endpoint().tell(w.wake());
    }
    TestProbe<TimeKeeper.Confirmed> confirmed = testKit.createTestProbe();
    for (ActorRef<MemoryEndpoint.Command> e : java.util.Arrays.stream(wakes).map(Wake::endpoint).distinct().toList()) {
      e.<PortMessage>unsafeUpcast().tell(new TimeKeeper.Confirm(confirmed.ref()));
      confirmed.receiveMessage(Duration.ofSeconds(10));
    }
    keeper.tell(new TimeKeeper.Release());
  }

  @Test
  void shouldHandTheMessageToThePeersGuestAtItsDueTimeBeforeTheLaterWakeQueuedThereFirst() {
    Pair x = pair("c1x", List.of(new GuestPeer("c1yep", LOOKAHEAD)));
    Pair y = pair("c1y", List.of(new GuestPeer("c1xep", LOOKAHEAD)));
    ActorRef<TimeKeeper.Command> keeper = keeper("c1keeper", x, y);
    TestProbe<GuestCall> gx = attach(x.ep(), true);
    TestProbe<GuestCall> gy = attach(y.ep(), true);
    // Both wakes enter the model together, as a run driver puts input into a held rack; y's is
    // queued first in wall time, and is later in model time than x's message will be.
    wakeInHeldRack(keeper, new Wake(y.ep(), new MemoryEndpoint.WakeGuest(gy.ref(), 11_500, 1)),
        new Wake(x.ep(), new MemoryEndpoint.WakeGuest(gx.ref(), 10_000, 2)));

    GuestCall.Wake wx = assertInstanceOf(GuestCall.Wake.class, gx.receiveMessage(Duration.ofSeconds(10)));
    assertEquals(10_000, wx.at());
    x.ep().tell(new MemoryEndpoint.SendToPeer("c1yep", y.ep(), gy.ref(), new FaultHorizon(42), wx.at()));
    x.ep().tell(new MemoryEndpoint.GuestDone(wx.call()));

    GuestCall.FromPeer got = assertInstanceOf(GuestCall.FromPeer.class, gy.receiveMessage(Duration.ofSeconds(10)));
    assertEquals(10_000 + LOOKAHEAD, got.at());
    assertEquals("c1xep", got.from());
    assertEquals(new FaultHorizon(42), got.payload());
    y.ep().tell(new MemoryEndpoint.GuestDone(got.call()));
    GuestCall.Wake wy = assertInstanceOf(GuestCall.Wake.class, gy.receiveMessage(Duration.ofSeconds(10)));
    assertEquals(11_500, wy.at());
    y.ep().tell(new MemoryEndpoint.GuestDone(wy.call()));

    TestProbe<TimeKeeper.Status> idle = testKit.createTestProbe();
    keeper.tell(new TimeKeeper.AwaitIdle(idle.ref()));
    TimeKeeper.Status s = idle.receiveMessage(Duration.ofSeconds(10));
    assertEquals(0, s.stragglers(), "nothing reached an endpoint behind its clock");
  }

  @Test
  void shouldHandAMessageToANeighbourGuestOfTheSameEndpointAtItsOwnTimeWithoutAChannel() {
    Pair x = pair("c5x", List.of());
    ActorRef<TimeKeeper.Command> keeper = keeper("c5keeper", x);
    TestProbe<GuestCall> first = attach(x.ep(), true);
    TestProbe<GuestCall> second = attach(x.ep(), true);
    wakeInHeldRack(keeper, new Wake(x.ep(), new MemoryEndpoint.WakeGuest(first.ref(), 3_000, 1)),
        new Wake(x.ep(), new MemoryEndpoint.WakeGuest(second.ref(), 9_000, 2)));

    GuestCall.Wake w = assertInstanceOf(GuestCall.Wake.class, first.receiveMessage(Duration.ofSeconds(10)));
    GuestAddress neighbour = GuestAddress.of(x.ep(), second.ref());
    assertEquals("c5xep", neighbour.endpoint());
    x.ep().tell(neighbour.send(new FaultHorizon(5), 6_000));
    x.ep().tell(new MemoryEndpoint.GuestDone(w.call()));

    // Due at its sending time, before the neighbour's own later wake.
    GuestCall.FromPeer got = assertInstanceOf(GuestCall.FromPeer.class, second.receiveMessage(Duration.ofSeconds(10)));
    assertEquals(6_000, got.at());
    assertEquals("c5xep", got.from());
    x.ep().tell(new MemoryEndpoint.GuestDone(got.call()));
    GuestCall.Wake later = assertInstanceOf(GuestCall.Wake.class, second.receiveMessage(Duration.ofSeconds(10)));
    assertEquals(9_000, later.at());
    x.ep().tell(new MemoryEndpoint.GuestDone(later.call()));

    TestProbe<TimeKeeper.Status> idle = testKit.createTestProbe();
    keeper.tell(new TimeKeeper.AwaitIdle(idle.ref()));
    assertEquals(0, idle.receiveMessage(Duration.ofSeconds(10)).stragglers());
  }

  @Test
  void shouldDropAMessageToAPeerWithNoChannelAndStayIdleWhenAGuestNamesAStranger() {
    Pair x = pair("c2x", List.of());
    Pair y = pair("c2y", List.of());
    ActorRef<TimeKeeper.Command> keeper = keeper("c2keeper", x, y);
    TestProbe<GuestCall> gy = attach(y.ep(), true);
    x.ep().tell(new MemoryEndpoint.SendToPeer("c2yep", y.ep(), gy.ref(), new FaultHorizon(1), 5_000));

    TestProbe<TimeKeeper.Status> idle = testKit.createTestProbe();
    keeper.tell(new TimeKeeper.AwaitIdle(idle.ref()));
    assertEquals(true, idle.receiveMessage(Duration.ofSeconds(10)).idle());
    gy.expectNoMessage(Duration.ofMillis(200));
    // The endpoint is still there and answers.
    TestProbe<io.rackfabric.fabric.stats.EndpointStats> stats = testKit.createTestProbe();
    x.ep().tell(new MemoryEndpoint.GetStats(stats.ref()));
    stats.receiveMessage(Duration.ofSeconds(5));
  }

  @Test
  void shouldDeliverAtOnceStampedWithTheLookaheadWhenFreeRunning() {
    Pair x = pair("c3x", List.of(new GuestPeer("c3yep", LOOKAHEAD)));
    Pair y = pair("c3y", List.of(new GuestPeer("c3xep", LOOKAHEAD)));
    TestProbe<GuestCall> gy = attach(y.ep(), false);
    x.ep().tell(new MemoryEndpoint.SendToPeer("c3yep", y.ep(), gy.ref(), new FaultHorizon(7), 2_000));

    GuestCall.FromPeer got = assertInstanceOf(GuestCall.FromPeer.class, gy.receiveMessage(Duration.ofSeconds(10)));
    assertEquals(2_000 + LOOKAHEAD, got.at());
    assertEquals(new FaultHorizon(7), got.payload());
  }

  @Test
  void shouldRefuseAGuestPeerWithoutALookahead() {
    org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> new GuestPeer("p", 0));
    org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> new GuestPeer(" ", 5));
  }
}
