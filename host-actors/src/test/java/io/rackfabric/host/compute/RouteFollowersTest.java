package io.rackfabric.host.compute;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import io.rackfabric.fabric.endpoint.EndpointEvent;
import io.rackfabric.fabric.endpoint.GuestCall;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.host.failover.ControlWord;
import io.rackfabric.host.failover.LadonAddresses;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import io.rackfabric.host.memory.Plane;
import io.rackfabric.host.settings.HostSettings;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * A compute host's route followers (a datagram service beside it) act on a route change at its
 * model time: under the kernel the host answers its endpoint's call only once every follower has.
 */
class RouteFollowersTest {

  private static final ActorTestKit testKit = ActorTestKit.create();
  private static final HostSettings SETTINGS = HostSettings.create(testKit.system().settings().config());
  static final LadonAddresses ADDRESSES = new LadonAddresses(GlobalMemoryLayout.paper(3), 0x10000);
  static final Duration WAIT = Duration.ofSeconds(10);

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  record Ch2(ActorRef<ComputeHost.Command> host, ActorRef<GuestCall> guest) {}

  /** CH2 of {@link #ADDRESSES}, spawned on {@code kit} beside a probe for its root endpoint, attached as a guest. */
  static Ch2 attached(ActorTestKit kit, TestProbe<MemoryEndpoint.Command> root, boolean underKernel) {
    ActorRef<ComputeHost.Command> host = kit.spawn(ComputeHost.create("ch2", 2, ADDRESSES,
        Map.of("01:00.0", Plane.PRIMARY, "02:00.0", Plane.SECONDARY),
        HostSettings.create(kit.system().settings().config()), root.ref()));
    MemoryEndpoint.AttachGuest attach = root.expectMessageClass(MemoryEndpoint.AttachGuest.class, WAIT);
    root.expectMessageClass(MemoryEndpoint.Watch.class, WAIT);
    root.expectMessageClass(MemoryEndpoint.WatchErrors.class, WAIT);
    attach.guest().tell(new GuestCall.Attached(underKernel));
    return new Ch2(host, attach.guest());
  }

  /** CH2 beside a probe for its root endpoint, attached as a guest, with one route follower. */
  private static Ch2 ch2(TestProbe<MemoryEndpoint.Command> root, TestProbe<ComputeHost.RouteChanged> follower,
      boolean underKernel) {
    Ch2 ch2 = attached(testKit, root, underKernel);
    ch2.host().tell(new ComputeHost.FollowRoutes(follower.ref(), follower.ref()));
    return ch2;
  }

  /** The MH's notification that CH1's primary plane failed, landing in CH2's control page. */
  private static GuestCall.Event notification(long call, long at) {
    byte[] word = new ControlWord(ControlWord.Kind.ROUTE_CHANGE, 1, Plane.PRIMARY, 1).encode();
    return new GuestCall.Event(call, new EndpointEvent.MemoryWritten("ch2",
        ADDRESSES.controlPage() + LadonAddresses.NOTIFICATION, word.length, word, 0, at));
  }

  @Test
  void shouldAnswerTheCallOnlyAfterEveryFollowerActedWhenUnderTheKernel() {
    TestProbe<MemoryEndpoint.Command> root = testKit.createTestProbe();
    TestProbe<ComputeHost.RouteChanged> follower = testKit.createTestProbe();
    Ch2 ch2 = ch2(root, follower, true);
    ch2.guest().tell(notification(5, 40_000));

    ComputeHost.RouteChanged change = follower.receiveMessage(WAIT);
    assertEquals(1, change.target());
    assertEquals(Plane.SECONDARY, change.plane());
    // The acknowledgement to the MH is written, but the call stays open for the follower.
    root.expectMessageClass(MemoryEndpoint.Write.class, WAIT);
    root.expectNoMessage(Duration.ofMillis(300));
    ch2.host().tell(new ComputeHost.RouteFollowed(follower.ref()));
    assertEquals(5, root.expectMessageClass(MemoryEndpoint.GuestDone.class, WAIT).call());
  }

  @Test
  void shouldAnswerTheHeldCallWhenTheFollowerStopsBeforeFollowing() {
    TestProbe<MemoryEndpoint.Command> root = testKit.createTestProbe();
    TestProbe<ComputeHost.RouteChanged> follower = testKit.createTestProbe();
    Ch2 ch2 = ch2(root, follower, true);
    ch2.guest().tell(notification(7, 40_000));
    follower.receiveMessage(WAIT);
    root.expectMessageClass(MemoryEndpoint.Write.class, WAIT);
    follower.stop(); // a dead follower must not hold the endpoint for ever
    assertEquals(7, root.expectMessageClass(MemoryEndpoint.GuestDone.class, WAIT).call());
  }

  @Test
  void shouldAnswerTheCallAtOnceWhenFreeRunning() {
    TestProbe<MemoryEndpoint.Command> root = testKit.createTestProbe();
    TestProbe<ComputeHost.RouteChanged> follower = testKit.createTestProbe();
    Ch2 ch2 = ch2(root, follower, false);
    ch2.guest().tell(notification(6, 40_000));
    follower.receiveMessage(WAIT);
    root.expectMessageClass(MemoryEndpoint.Write.class, WAIT);
    assertInstanceOf(MemoryEndpoint.GuestDone.class, root.receiveMessage(WAIT), "no follower to wait for");
  }

  @Test
  void shouldAnswerAHoldAtOnceWhileACallWaitsForTheFollowersWhenUnderTheKernel() {
    TestProbe<MemoryEndpoint.Command> root = testKit.createTestProbe();
    TestProbe<ComputeHost.RouteChanged> follower = testKit.createTestProbe();
    Ch2 ch2 = ch2(root, follower, true);
    ch2.guest().tell(notification(5, 40_000));
    follower.receiveMessage(WAIT);
    root.expectMessageClass(MemoryEndpoint.Write.class, WAIT);

    // A hold is a notice outside model time: it waits for no follower, nor takes the held call's place.
    ch2.guest().tell(new GuestCall.Hold(9, 50_000));
    assertEquals(9, root.expectMessageClass(MemoryEndpoint.GuestDone.class, WAIT).call());
    ch2.host().tell(new ComputeHost.RouteFollowed(follower.ref()));
    assertEquals(5, root.expectMessageClass(MemoryEndpoint.GuestDone.class, WAIT).call());
  }

  @Test
  void shouldWriteTheAcknowledgementBeforeTellingTheFollowersWhenANotificationMovesATarget() {
    // One probe for the endpoint and the follower: what reaches it comes in the order it was sent.
    TestProbe<Object> both = testKit.createTestProbe();
    ActorRef<MemoryEndpoint.Command> root = both.ref().narrow();
    ActorRef<ComputeHost.Command> host = testKit.spawn(ComputeHost.create("ch2", 2, ADDRESSES,
        Map.of("01:00.0", Plane.PRIMARY, "02:00.0", Plane.SECONDARY), SETTINGS, root));
    MemoryEndpoint.AttachGuest attach = both.expectMessageClass(MemoryEndpoint.AttachGuest.class, WAIT);
    both.expectMessageClass(MemoryEndpoint.Watch.class, WAIT);
    both.expectMessageClass(MemoryEndpoint.WatchErrors.class, WAIT);
    attach.guest().tell(new GuestCall.Attached(true));
    ActorRef<ComputeHost.RouteChanged> follower = both.ref().narrow();
    host.tell(new ComputeHost.FollowRoutes(follower, follower));
    attach.guest().tell(notification(5, 40_000));

    MemoryEndpoint.Write ack = both.expectMessageClass(MemoryEndpoint.Write.class, WAIT);
    assertEquals(ADDRESSES.ackSlot(2, Plane.PRIMARY), ack.address(), "the acknowledgement to the MH");
    ComputeHost.RouteChanged change = both.expectMessageClass(ComputeHost.RouteChanged.class, WAIT);
    assertEquals(ack.at(), change.modelAt(), "both at the route list's update");
    host.tell(new ComputeHost.RouteFollowed(follower));
    assertEquals(5, both.expectMessageClass(MemoryEndpoint.GuestDone.class, WAIT).call());
  }
}
