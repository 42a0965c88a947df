package io.rackfabric.fabric.endpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.link.FaultHorizon;
import io.rackfabric.fabric.link.LinkParameters;
import io.rackfabric.fabric.link.PortMessage;
import io.rackfabric.fabric.port.LinkPort;
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
 * Host software attached to an endpoint as its guest, under the model-time kernel: the endpoint
 * waits for the guest's answer before its next event, so what the guest does in reply enters the
 * model at the event's time. A hold of the endpoint's link reaches its guests too, as a notice
 * outside model time. A root and a device endpoint face each other on a bare link.
 */
class EndpointGuestTest {

  static final ActorTestKit testKit = FabricProbes.dataPlaneTestKit();
  static final FabricSettings settings = FabricSettings.create(testKit.system().settings().config());
  static final LinkParameters gen3x4 = LinkParameters.gen3x4();
  static final AddressRange BAR = new AddressRange(0x4000_0000L, 0x400F_FFFFL);
  static final AddressRange MAILBOX = new AddressRange(0x4008_0000L, 0x4008_00FFL);

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  /** A root {@code p}rc and a device {@code p}ep under one keeper (null: free-running). */
  record Rack(ActorRef<MemoryEndpoint.Command> rc, ActorRef<MemoryEndpoint.Command> ep,
      ActorRef<TimeKeeper.Command> keeper) {}

  static Rack rack(String p) {
    Rack free = freeRunning(p);
    ActorRef<MemoryEndpoint.Command> rc = free.rc();
    ActorRef<MemoryEndpoint.Command> ep = free.ep();
    ActorRef<TimeKeeper.Command> keeper = testKit.spawn(TimeKeeper.create(Set.of(p + "rc", p + "ep")), p + "keeper");
    for (ActorRef<MemoryEndpoint.Command> e : List.of(rc, ep)) {
      e.<PortMessage>unsafeUpcast().tell(new JoinKeeper(keeper));
    }
    TestProbe<TimeKeeper.Status> idle = testKit.createTestProbe();
    keeper.tell(new TimeKeeper.AwaitIdle(idle.ref()));
    assertEquals(2, idle.receiveMessage(Duration.ofSeconds(10)).joined());
    return new Rack(rc, ep, keeper);
  }

  /** The same two endpoints with their link up, under no keeper. */
  static Rack freeRunning(String p) {
    ActorRef<MemoryEndpoint.Command> rc = testKit.spawn(MemoryEndpoint.create(p + "rc", Bdf.of(0, 0, 0), true,
        List.of(new AddressRange(0, 0xF_FFFFL)), gen3x4, p + "ep", settings), p + "rc");
    ActorRef<MemoryEndpoint.Command> ep = testKit.spawn(MemoryEndpoint.create(p + "ep", Bdf.of(1, 0, 0), false,
        List.of(BAR), gen3x4, p + "rc", settings), p + "ep");
    FabricProbes.awaitActive(testKit, rc);
    FabricProbes.awaitActive(testKit, ep);
    return new Rack(rc, ep, null);
  }

  /** Attaches {@code guest} with a watch on the mailbox; returns the watch's reply address. */
  static void attach(Rack r, TestProbe<GuestCall> guest) {
    TestProbe<EndpointEvent> watchRef = testKit.createTestProbe(); // a guest's adapter: never told directly
    r.ep().tell(new MemoryEndpoint.AttachGuest(guest.ref(), List.of(watchRef.ref())));
    assertEquals(new GuestCall.Attached(true), guest.receiveMessage());
    r.ep().tell(new MemoryEndpoint.Watch(MAILBOX, watchRef.ref()));
  }

  @Test
  void shouldHandleNothingAfterACallUntilTheGuestAnswersWhenUnderTheKernel() {
    Rack r = rack("g1");
    TestProbe<GuestCall> guest = testKit.createTestProbe();
    attach(r, guest);
    r.rc().tell(new MemoryEndpoint.Write(0x4008_0000L, new byte[] {1, 2, 3, 4}, 10_000));
    r.rc().tell(new MemoryEndpoint.Write(0x4008_0010L, new byte[] {5, 6, 7, 8}, 20_000));

    GuestCall.Event first = assertInstanceOf(GuestCall.Event.class, guest.receiveMessage(Duration.ofSeconds(10)));
    assertEquals(10_000 + gen3x4.flightNs(12 + 4 + 8),
        ((EndpointEvent.MemoryWritten) first.event()).arrivedAt());
    // The second write waits, and so does the rack: it is not idle while the guest has the call.
    TestProbe<TimeKeeper.Status> idle = testKit.createTestProbe();
    r.keeper().tell(new TimeKeeper.AwaitIdle(idle.ref()));
    guest.expectNoMessage(Duration.ofMillis(300));
    idle.expectNoMessage(Duration.ZERO);

    r.ep().tell(new MemoryEndpoint.GuestDone(first.call()));
    GuestCall.Event second = assertInstanceOf(GuestCall.Event.class, guest.receiveMessage(Duration.ofSeconds(10)));
    assertEquals(0x4008_0010L, ((EndpointEvent.MemoryWritten) second.event()).address());
    r.ep().tell(new MemoryEndpoint.GuestDone(second.call()));
    assertEquals(0, idle.receiveMessage(Duration.ofSeconds(10)).stragglers());
  }

  @Test
  void shouldSendEachOfAGuestsWritesAtItsOwnModelTimeWhenAnsweringACall() {
    Rack r = rack("g2");
    TestProbe<GuestCall> guest = testKit.createTestProbe();
    attach(r, guest);
    TestProbe<EndpointEvent> rcWatch = testKit.createTestProbe();
    r.rc().tell(new MemoryEndpoint.Watch(new AddressRange(0x1000, 0x10FF), rcWatch.ref()));
    r.rc().tell(new MemoryEndpoint.Write(0x4008_0000L, new byte[] {1, 2, 3, 4}, 10_000));

    GuestCall.Event call = assertInstanceOf(GuestCall.Event.class, guest.receiveMessage(Duration.ofSeconds(10)));
    long seen = ((EndpointEvent.MemoryWritten) call.event()).arrivedAt();
    // The guest answers with two writes, the later-stamped one first: each must leave at its own
    // model time, the earlier one not queued behind the later on the wire.
    r.ep().tell(new MemoryEndpoint.Write(0x1000, new byte[] {9, 9, 9, 9}, seen + 2_000));
    r.ep().tell(new MemoryEndpoint.Write(0x1010, new byte[] {7, 7, 7, 7}, seen + 1_000));
    r.ep().tell(new MemoryEndpoint.GuestDone(call.call()));

    long flight = gen3x4.flightNs(12 + 4 + 8);
    EndpointEvent.MemoryWritten first = (EndpointEvent.MemoryWritten) rcWatch.receiveMessage(Duration.ofSeconds(10));
    assertEquals(0x1010, first.address(), "the earlier-stamped write arrives first");
    assertEquals(seen + 1_000 + flight, first.arrivedAt(), "left at its own model time");
    EndpointEvent.MemoryWritten second = (EndpointEvent.MemoryWritten) rcWatch.receiveMessage(Duration.ofSeconds(10));
    assertEquals(seen + 2_000 + flight, second.arrivedAt());
    TestProbe<TimeKeeper.Status> idle = testKit.createTestProbe();
    r.keeper().tell(new TimeKeeper.AwaitIdle(idle.ref()));
    assertEquals(0, idle.receiveMessage(Duration.ofSeconds(10)).stragglers());
  }

  @Test
  void shouldWakeTheGuestAtItsModelTimeWhenNothingElseIsPending() {
    Rack r = rack("g3");
    TestProbe<GuestCall> guest = testKit.createTestProbe();
    attach(r, guest);
    r.ep().tell(new MemoryEndpoint.WakeGuest(guest.ref(), 5_000_000_000L, 7));

    // Five model seconds of nothing: the rack jumps there.
    GuestCall.Wake wake = assertInstanceOf(GuestCall.Wake.class, guest.receiveMessage(Duration.ofSeconds(10)));
    assertEquals(5_000_000_000L, wake.at());
    assertEquals(7, wake.token());
    TestProbe<TimeKeeper.Status> idle = testKit.createTestProbe();
    r.keeper().tell(new TimeKeeper.AwaitIdle(idle.ref()));
    idle.expectNoMessage(Duration.ofMillis(200)); // the wake's call is open
    r.ep().tell(new MemoryEndpoint.GuestDone(wake.call()));
    assertTrue(idle.receiveMessage(Duration.ofSeconds(10)).idle());
  }

  @Test
  void shouldLeaveABackgroundWakeForLaterWhenTheRackIsReleasedAndRunItWhenADriverLimitsPastIt() {
    Rack r = rack("g4");
    TestProbe<GuestCall> guest = testKit.createTestProbe();
    attach(r, guest);
    r.ep().tell(new MemoryEndpoint.WakeGuest(guest.ref(), 5_000_000_000L, 8, true));

    // A heartbeat's timer alone is no work: the released rack is idle with it pending.
    TestProbe<TimeKeeper.Status> status = testKit.createTestProbe();
    status.awaitAssert(Duration.ofSeconds(10), () -> {
      r.keeper().tell(new TimeKeeper.GetStatus(status.ref()));
      TimeKeeper.Status s = status.receiveMessage(Duration.ofSeconds(5));
      assertEquals(5_000_000_000L, s.earliest());
      assertTrue(s.idle());
      return null;
    });
    guest.expectNoMessage(Duration.ofMillis(200));

    r.keeper().tell(new TimeKeeper.Limit(6_000_000_000L));
    GuestCall.Wake wake = assertInstanceOf(GuestCall.Wake.class, guest.receiveMessage(Duration.ofSeconds(10)));
    assertEquals(5_000_000_000L, wake.at());
    r.ep().tell(new MemoryEndpoint.GuestDone(wake.call()));
    r.keeper().tell(new TimeKeeper.Release());
  }

  @Test
  void shouldNeverCallAWakeAndGoIdleShortOfItsTimeWhenItIsCancelledBeforeIt() {
    Rack r = rack("g6");
    TestProbe<GuestCall> guest = testKit.createTestProbe();
    attach(r, guest);
    long at = 5_000_000_000L;
    // Held short of the wake, so the cancel reaches the endpoint before any grant could call it.
    r.keeper().tell(new TimeKeeper.Limit(at));
    r.ep().tell(new MemoryEndpoint.WakeGuest(guest.ref(), at, 9));
    r.ep().tell(new MemoryEndpoint.CancelWake(guest.ref(), 9));
    // The endpoint reports what it holds, as a run driver has it do after its input: the keeper
    // has heard of the wake and its cancel before it is released, so idle is not a stale view.
    TestProbe<TimeKeeper.Confirmed> confirmed = testKit.createTestProbe();
    r.ep().<PortMessage>unsafeUpcast().tell(new TimeKeeper.Confirm(confirmed.ref()));
    confirmed.receiveMessage(Duration.ofSeconds(10));
    r.keeper().tell(new TimeKeeper.Release());

    TestProbe<TimeKeeper.Status> idle = testKit.createTestProbe();
    r.keeper().tell(new TimeKeeper.AwaitIdle(idle.ref()));
    TimeKeeper.Status s = idle.receiveMessage(Duration.ofSeconds(10));
    assertTrue(s.idle());
    assertEquals(Long.MAX_VALUE, s.earliest(), "nothing pending");
    assertTrue(s.reached() < at, "reached=" + s.reached() + ": the rack ran on to the cancelled wake");
    guest.expectNoMessage(Duration.ofMillis(200));
  }

  @Test
  void shouldChangeNothingWhenTheCancelledWakeWasCalledAlreadyOrIsUnknown() {
    Rack r = rack("g7");
    TestProbe<GuestCall> guest = testKit.createTestProbe();
    TestProbe<GuestCall> other = testKit.createTestProbe();
    attach(r, guest);
    r.ep().tell(new MemoryEndpoint.WakeGuest(guest.ref(), 1_000_000, 1));
    r.ep().tell(new MemoryEndpoint.WakeGuest(guest.ref(), 2_000_000, 2));
    GuestCall.Wake first = assertInstanceOf(GuestCall.Wake.class, guest.receiveMessage(Duration.ofSeconds(10)));
    assertEquals(1, first.token());

    // Inside the call: the wake being called, a token never asked for, another guest's token 2.
    r.ep().tell(new MemoryEndpoint.CancelWake(guest.ref(), 1));
    r.ep().tell(new MemoryEndpoint.CancelWake(guest.ref(), 99));
    r.ep().tell(new MemoryEndpoint.CancelWake(other.ref(), 2));
    r.ep().tell(new MemoryEndpoint.GuestDone(first.call()));
    GuestCall.Wake second = assertInstanceOf(GuestCall.Wake.class, guest.receiveMessage(Duration.ofSeconds(10)));
    assertEquals(2, second.token());
    assertEquals(2_000_000, second.at());
    r.ep().tell(new MemoryEndpoint.GuestDone(second.call()));
    // After it was called, taking it back is no change either.
    r.ep().tell(new MemoryEndpoint.CancelWake(guest.ref(), 2));

    TestProbe<TimeKeeper.Status> idle = testKit.createTestProbe();
    r.keeper().tell(new TimeKeeper.AwaitIdle(idle.ref()));
    TimeKeeper.Status s = idle.receiveMessage(Duration.ofSeconds(10));
    assertTrue(s.idle());
    assertEquals(2_000_000, s.reached());
    guest.expectNoMessage(Duration.ofMillis(100));
    other.expectNoMessage(Duration.ZERO);
  }

  @Test
  void shouldGoOnWithoutAGuestThatStoppedWhileItsCallWasOpen() {
    Rack r = rack("g5");
    TestProbe<GuestCall> guest = testKit.createTestProbe();
    attach(r, guest);
    r.ep().tell(new MemoryEndpoint.WakeGuest(guest.ref(), 1_000_000, 1));
    r.ep().tell(new MemoryEndpoint.WakeGuest(guest.ref(), 2_000_000, 2));
    GuestCall.Wake first = assertInstanceOf(GuestCall.Wake.class, guest.receiveMessage(Duration.ofSeconds(10)));
    assertEquals(1, first.token());

    // The guest's software stops without answering: the endpoint goes on, and calls it no more.
    r.ep().tell(new MemoryEndpoint.DetachGuest(guest.ref()));
    TestProbe<TimeKeeper.Status> idle = testKit.createTestProbe();
    r.keeper().tell(new TimeKeeper.AwaitIdle(idle.ref()));
    TimeKeeper.Status s = idle.receiveMessage(Duration.ofSeconds(10));
    assertTrue(s.idle());
    assertEquals(Long.MAX_VALUE, s.earliest(), "the second wake was handled, as nobody's");
    guest.expectNoMessage(Duration.ofMillis(100));
  }

  @Test
  void shouldAnswerAHoldOnlyOnceTheGuestAnsweredItsHoldCallWhenAGuestIsAttached() {
    Rack r = freeRunning("h1");
    TestProbe<GuestCall> guest = testKit.createTestProbe();
    r.ep().tell(new MemoryEndpoint.AttachGuest(guest.ref(), List.of()));
    assertEquals(new GuestCall.Attached(false), guest.receiveMessage());
    TestProbe<FaultHorizon> horizon = testKit.createTestProbe();
    LinkPort.of(r.ep()).tell(new LinkPort.HoldFrom(40_000, horizon.ref()));

    GuestCall.Hold hold = assertInstanceOf(GuestCall.Hold.class, guest.receiveMessage(Duration.ofSeconds(10)));
    assertEquals(40_000, hold.modelAt());
    horizon.expectNoMessage(Duration.ofMillis(200)); // the guest has not got it in effect yet
    hold.answer(r.ep());
    assertEquals(new FaultHorizon(40_000), horizon.receiveMessage(Duration.ofSeconds(10)));
  }

  @Test
  void shouldAnswerAHoldAtOnceWhenNoGuestIsAttached() {
    Rack r = freeRunning("h2");
    TestProbe<FaultHorizon> horizon = testKit.createTestProbe();
    LinkPort.of(r.ep()).tell(new LinkPort.HoldFrom(Long.MAX_VALUE, horizon.ref()));
    assertEquals(new FaultHorizon(Long.MAX_VALUE), horizon.receiveMessage(Duration.ofSeconds(10)));
  }

  @Test
  void shouldAnswerAHoldWhenItsGuestStopsWithoutAnswering() {
    Rack r = freeRunning("h3");
    TestProbe<GuestCall> answering = testKit.createTestProbe();
    TestProbe<GuestCall> detached = testKit.createTestProbe();
    TestProbe<GuestCall> stopped = testKit.createTestProbe();
    for (TestProbe<GuestCall> g : List.of(answering, detached, stopped)) {
      r.ep().tell(new MemoryEndpoint.AttachGuest(g.ref(), List.of()));
      g.receiveMessage(); // Attached
    }
    TestProbe<FaultHorizon> horizon = testKit.createTestProbe();
    LinkPort.of(r.ep()).tell(new LinkPort.HoldFrom(40_000, horizon.ref()));
    assertInstanceOf(GuestCall.Hold.class, detached.receiveMessage(Duration.ofSeconds(10)));
    assertInstanceOf(GuestCall.Hold.class, stopped.receiveMessage(Duration.ofSeconds(10)));
    assertInstanceOf(GuestCall.Hold.class, answering.receiveMessage(Duration.ofSeconds(10))).answer(r.ep());

    // One guest says its software stopped, the other's actor just stops: neither is waited for.
    r.ep().tell(new MemoryEndpoint.DetachGuest(detached.ref()));
    horizon.expectNoMessage(Duration.ofMillis(200));
    stopped.stop();
    assertEquals(new FaultHorizon(40_000), horizon.receiveMessage(Duration.ofSeconds(10)));
  }

  @Test
  void shouldGoOnWithItsEventsWhileAHoldCallIsOpenWhenUnderTheKernel() {
    Rack r = rack("h4");
    TestProbe<GuestCall> guest = testKit.createTestProbe();
    attach(r, guest);
    TestProbe<FaultHorizon> horizon = testKit.createTestProbe();
    LinkPort.of(r.ep()).tell(new LinkPort.HoldFrom(Long.MAX_VALUE, horizon.ref()));
    GuestCall.Hold hold = assertInstanceOf(GuestCall.Hold.class, guest.receiveMessage(Duration.ofSeconds(10)));

    // A notice outside model time: the endpoint's next event is called while the hold is open,
    // and the rack goes idle once that event's call alone is answered (were the hold waited on
    // like a call in model time, the endpoint would stay suspended).
    r.rc().tell(new MemoryEndpoint.Write(0x4008_0000L, new byte[] {1, 2, 3, 4}, 10_000));
    GuestCall.Event event = assertInstanceOf(GuestCall.Event.class, guest.receiveMessage(Duration.ofSeconds(10)));
    event.answer(r.ep());
    TestProbe<TimeKeeper.Status> idle = testKit.createTestProbe();
    r.keeper().tell(new TimeKeeper.AwaitIdle(idle.ref()));
    assertTrue(idle.receiveMessage(Duration.ofSeconds(10)).idle());
    horizon.expectNoMessage(Duration.ZERO);
    hold.answer(r.ep());
    assertEquals(new FaultHorizon(Long.MAX_VALUE), horizon.receiveMessage(Duration.ofSeconds(10)));
  }
}
