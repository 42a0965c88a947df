package io.rackfabric.fabric.endpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.typed.ActorRef;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** The calls an endpoint keeps open to its guests: notices (holds) beside calls in model time. */
class EndpointGuestsTest {

  static final ActorTestKit testKit = ActorTestKit.create();

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  static ActorRef<GuestCall> guest() {
    return testKit.<GuestCall>createTestProbe().ref();
  }

  @Test
  void shouldRunTheHoldsEndOnlyOnceEveryGuestAnsweredItsNoticeWhenTwoGuestsAreAttached() {
    EndpointGuests guests = new EndpointGuests();
    ActorRef<GuestCall> a = guest();
    ActorRef<GuestCall> b = guest();
    guests.attach(a, List.of());
    guests.attach(b, List.of());
    AtomicInteger ended = new AtomicInteger();
    Map<ActorRef<GuestCall>, Long> calls = guests.openNotices(ended::incrementAndGet);

    assertEquals(List.of(a, b), List.copyOf(calls.keySet()));
    assertFalse(guests.answered(calls.get(a)), "a notice is no call in model time");
    assertEquals(0, ended.get());
    guests.answered(calls.get(a)); // answered twice: still waits for b
    assertEquals(0, ended.get());
    guests.answered(calls.get(b));
    assertEquals(1, ended.get());
  }

  @Test
  void shouldKeepACallInModelTimeOpenWhileANoticeIsAnsweredWhenBothAreOpen() {
    EndpointGuests guests = new EndpointGuests();
    ActorRef<GuestCall> a = guest();
    guests.attach(a, List.of());
    long call = guests.open(a);
    AtomicInteger ended = new AtomicInteger();
    long notice = guests.openNotices(ended::incrementAndGet).get(a);

    assertFalse(guests.answered(notice));
    assertEquals(1, ended.get());
    assertEquals(1, guests.openCalls(), "the event's call is still open");
    assertTrue(guests.answered(call), "the last call in model time");
  }

  @Test
  void shouldEndAHoldAtOnceWithoutGuestsAndWhenItsLastGuestDetaches() {
    EndpointGuests guests = new EndpointGuests();
    AtomicInteger ended = new AtomicInteger();
    assertTrue(guests.openNotices(ended::incrementAndGet).isEmpty());
    assertEquals(1, ended.get(), "nobody to wait for");

    ActorRef<GuestCall> a = guest();
    guests.attach(a, List.of());
    guests.openNotices(ended::incrementAndGet);
    assertFalse(guests.detach(a), "no call in model time was open");
    assertEquals(2, ended.get());
  }
}
