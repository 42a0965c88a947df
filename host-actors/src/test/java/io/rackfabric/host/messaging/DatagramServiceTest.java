package io.rackfabric.host.messaging;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.fabric.endpoint.EndpointEvent;
import io.rackfabric.fabric.endpoint.GuestCall;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.fabric.tlp.CompletionStatus;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import io.rackfabric.host.memory.Plane;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The actor alone, its root endpoint played by a probe: what it asks of the endpoint, in what
 * order and at what model time, and what it makes of the endpoint's answers and events.
 */
class DatagramServiceTest {

  // No idle rule here: model time moves only with what the test sends, however slow it runs.
  private static final Config CONFIG = ConfigFactory.parseString(
      "akka.actor.serialize-messages = on\nrackfabric.host.messaging.idle-grace = 1h")
      .withFallback(ConfigFactory.load());
  private static final ActorTestKit testKit = ActorTestKit.create(CONFIG);
  private static final GlobalMemoryLayout MEMORY = GlobalMemoryLayout.paper(2);
  private static final MessagingSettings SETTINGS = MessagingSettings.create(CONFIG);
  private static final FabricSettings FABRIC = FabricSettings.create(CONFIG);
  private static final Duration WAIT = Duration.ofSeconds(10);

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  /** A CH2 service on a probe endpoint, past its start-up: the watch and the queue stores. */
  private static final class Ch2 {
    final TestProbe<MemoryEndpoint.Command> root = testKit.createTestProbe();
    final MessagingLayout layout = MessagingLayout.of(MEMORY, 2, SETTINGS);
    final QueueLayout queues = layout.queues();
    final ActorRef<DatagramService.Command> service =
        testKit.spawn(DatagramService.create(root.ref(), MEMORY, 2, SETTINGS, FABRIC));
    final ActorRef<EndpointEvent> events;
    final ActorRef<GuestCall> guest;
    final List<MemoryEndpoint.Store> stores = new ArrayList<>();

    Ch2() {
      this(true);
    }

    /** @param answerAttached whether the endpoint (the probe) says at once that it is free-running */
    Ch2(boolean answerAttached) {
      // A guest of its endpoint.
      MemoryEndpoint.AttachGuest attach = assertInstanceOf(MemoryEndpoint.AttachGuest.class,
          root.receiveMessage(WAIT), "the service attaches as a guest first");
      MemoryEndpoint.Watch watch = assertInstanceOf(MemoryEndpoint.Watch.class,
          root.receiveMessage(WAIT), "then the watch");
      assertTrue(attach.replyRefs().contains(watch.replyTo()), "what it watches reaches it as calls");
      guest = attach.guest();
      if (answerAttached) {
        guest.tell(new GuestCall.Attached(false)); // commands wait for this answer
      }
      assertEquals(layout.region(), watch.range());
      events = watch.replyTo();
      // Per sender (the MH and CH1): PostQ head, every FreeQ entry, the FreeQ tail.
      int expected = 2 * (1 + SETTINGS.buffers() + 1);
      for (int i = 0; i < expected; i++) {
        stores.add(assertInstanceOf(MemoryEndpoint.Store.class, root.receiveMessage(WAIT)));
      }
    }

    void land(long address, byte[] data, long at) {
      events.tell(new EndpointEvent.MemoryWritten("ch2", address, data.length, data, 0, at));
    }

    <T extends MemoryEndpoint.Command> T next(Class<T> type) {
      return assertInstanceOf(type, root.receiveMessage(WAIT));
    }
  }

  @Test
  void shouldSetUpAFullFreeQAndAnEmptyPostQForEverySenderInItsOwnMemory() {
    Ch2 ch2 = new Ch2();
    for (MemoryEndpoint.Store s : ch2.stores) {
      assertTrue(ch2.layout.region().containsAll(s.address(), s.data().length), "in the region");
    }
    for (int sender : new int[] {0, 1}) {
      long tail = ch2.queues.freeTailAddress(sender);
      MemoryEndpoint.Store last = ch2.stores.stream().filter(s -> s.address() == tail)
          .findFirst().orElseThrow();
      assertEquals(SETTINGS.buffers(), Words.getLong(last.data(), 0), "FreeQ tail of " + sender);
    }
  }

  @Test
  void shouldHoldADatagramUntilSubscribedAndDeliverItAtTheDoorbellPlusTheInterruptLatency() {
    Ch2 ch2 = new Ch2();
    // What CH1 writes for its datagram 0: data, PostQ entry, PostQ tail, doorbell.
    byte[] payload = "hello CH2".getBytes(StandardCharsets.UTF_8);
    long buffer = ch2.queues.bufferAddress(1, 0);
    ch2.land(buffer, DatagramHeader.encode(0, payload), 9_000);
    ch2.land(ch2.queues.postEntryAddress(1, 0), Words.ofLongs(buffer, 0), 9_300);
    ch2.land(ch2.queues.postTailAddress(1), Words.ofLong(1), 9_600);
    ch2.land(ch2.queues.doorbellAddress(1), Words.ofLong(1), 10_000);
    long seen = 10_000 + SETTINGS.interruptLatencyNs();

    // Delivered (into the wait list): the PostQ head moves on in CH2's memory, and the count is
    // acknowledged into CH1's memory through CH1's primary range.
    MemoryEndpoint.Store head = ch2.next(MemoryEndpoint.Store.class);
    assertEquals(ch2.queues.postHeadAddress(1), head.address());
    assertEquals(1, Words.getLong(head.data(), 0));
    MemoryEndpoint.Write ack = ch2.next(MemoryEndpoint.Write.class);
    assertEquals(ch2.layout.reach(1, ch2.layout.ackAddress(2), Plane.PRIMARY), ack.address());
    assertEquals(1, Words.getLong(ack.data(), 0));
    assertEquals(seen, ack.at());
    ch2.root.expectNoMessage(Duration.ofMillis(200)); // no buffer returned: nobody took it yet

    TestProbe<DatagramService.Delivered> app = testKit.createTestProbe();
    ch2.service.tell(new DatagramService.Subscribe(app.ref()));
    DatagramService.Delivered d = app.receiveMessage(WAIT);
    assertEquals(1, d.from());
    assertEquals(0, d.sequence());
    assertArrayEquals(payload, d.payload());
    assertEquals(seen, d.modelAt());
    // Now the buffer goes back: FreeQ entry, then FreeQ tail.
    MemoryEndpoint.Store entry = ch2.next(MemoryEndpoint.Store.class);
    assertEquals(ch2.queues.freeEntryAddress(1, SETTINGS.buffers()), entry.address());
    assertEquals(buffer, Words.getLong(entry.data(), 0));
    assertEquals(ch2.queues.freeTailAddress(1), ch2.next(MemoryEndpoint.Store.class).address());
  }

  @Test
  void shouldSendIntoABufferFromThePeersFreeQAndResendThroughTheSecondaryRangeWhenSwitched() {
    Ch2 ch2 = new Ch2();
    TestProbe<DatagramService.SendReply> replies = testKit.createTestProbe();
    byte[] payload = "to CH1".getBytes(StandardCharsets.UTF_8);
    ch2.service.tell(new DatagramService.Send(1, payload, 20_000, replies.ref()));
    DatagramService.Queued q = assertInstanceOf(DatagramService.Queued.class, replies.receiveMessage(WAIT));
    assertEquals(0, q.sequence());

    // The stream's ack word in CH2's own memory starts at 0; then one read of CH1's FreeQ (tail
    // and ring) for CH2's slot, through CH1's primary range.
    MemoryEndpoint.Store ackWord = ch2.next(MemoryEndpoint.Store.class);
    assertEquals(ch2.layout.ackAddress(1), ackWord.address());
    assertEquals(0, Words.getLong(ackWord.data(), 0));
    MemoryEndpoint.Read read = ch2.next(MemoryEndpoint.Read.class);
    long from = ch2.queues.freeTailAddress(2);
    assertEquals(ch2.layout.reach(1, from, Plane.PRIMARY), read.address());
    byte[] freeQ = new byte[read.length()];
    long buffer = ch2.queues.bufferAddress(2, 0);
    System.arraycopy(Words.ofLong(1), 0, freeQ, 0, 8);
    int slot = (int) (ch2.queues.freeEntryAddress(2, 0) - from);
    System.arraycopy(Words.ofLongs(buffer, 0), 0, freeQ, slot, 16);
    read.replyTo().tell(new MemoryEndpoint.ReadResult(read.address(), CompletionStatus.SUCCESSFUL,
        freeQ, 1_500));

    byte[] encoded = DatagramHeader.encode(0, payload);
    MemoryEndpoint.Write data = ch2.next(MemoryEndpoint.Write.class);
    assertEquals(ch2.layout.reach(1, buffer, Plane.PRIMARY), data.address());
    assertArrayEquals(encoded, data.data());
    assertEquals(20_000 + 1_500, data.at(), "sent when the FreeQ read completed");
    assertEquals(ch2.layout.reach(1, ch2.queues.postEntryAddress(2, 0), Plane.PRIMARY),
        ch2.next(MemoryEndpoint.Write.class).address());
    assertEquals(ch2.layout.reach(1, ch2.queues.postTailAddress(2), Plane.PRIMARY),
        ch2.next(MemoryEndpoint.Write.class).address());
    assertEquals(ch2.layout.reach(1, ch2.queues.doorbellAddress(2), Plane.PRIMARY),
        ch2.next(MemoryEndpoint.Write.class).address());

    TestProbe<DatagramService.PlaneReply> planes = testKit.createTestProbe();
    ch2.service.tell(new DatagramService.UsePlane(1, Plane.SECONDARY, 90_000, planes.ref()));
    DatagramService.PlaneSwitched switched =
        assertInstanceOf(DatagramService.PlaneSwitched.class, planes.receiveMessage(WAIT));
    assertEquals(1, switched.resent());
    assertEquals(90_000, switched.modelAt());
    MemoryEndpoint.Write again = ch2.next(MemoryEndpoint.Write.class);
    assertEquals(ch2.layout.reach(1, buffer, Plane.SECONDARY), again.address());
    assertArrayEquals(encoded, again.data());
    assertEquals(90_000, again.at());

    TestProbe<DatagramStats> stats = testKit.createTestProbe();
    ch2.service.tell(new DatagramService.GetStats(stats.ref()));
    DatagramStats.PeerStats toCh1 = stats.receiveMessage(WAIT).peer(1);
    assertEquals(Plane.SECONDARY, toCh1.plane());
    assertEquals(1, toCh1.transmissions());
    assertEquals(1, toCh1.retransmissions());
    assertEquals(1, toCh1.outstanding());
  }

  @Test
  void shouldSendAtItsWakeAndAnswerEachCallWhenADatagramIsStampedAheadUnderTheKernel() {
    Ch2 ch2 = new Ch2();
    ch2.guest.tell(new GuestCall.Attached(true));
    TestProbe<DatagramService.SendReply> replies = testKit.createTestProbe();
    byte[] payload = "later".getBytes(StandardCharsets.UTF_8);
    ch2.service.tell(new DatagramService.Send(1, payload, 20_000, replies.ref()));
    DatagramService.Queued q = assertInstanceOf(DatagramService.Queued.class, replies.receiveMessage(WAIT));
    assertEquals(0, q.sequence());
    assertEquals(20_000, q.modelAt());
    // Nothing leaves before the datagram's model time: the service asks to be woken then.
    MemoryEndpoint.WakeGuest wake = ch2.next(MemoryEndpoint.WakeGuest.class);
    assertEquals(20_000, wake.at());
    assertEquals(ch2.guest, wake.guest());
    ch2.root.expectNoMessage(Duration.ofMillis(200));

    ch2.guest.tell(new GuestCall.Wake(7, 20_000, wake.token()));
    assertEquals(ch2.layout.ackAddress(1), ch2.next(MemoryEndpoint.Store.class).address());
    MemoryEndpoint.Read read = ch2.next(MemoryEndpoint.Read.class);
    assertEquals(20_000, read.at(), "the FreeQ read leaves at the wake's model time");
    // The read's model-time completion timeout is a timer too: a wake for it, before the answer.
    assertTrue(ch2.next(MemoryEndpoint.WakeGuest.class).at() > 20_000, "the read's timeout is later");
    assertEquals(7, ch2.next(MemoryEndpoint.GuestDone.class).call(), "the wake answered after the read");

    byte[] freeQ = new byte[read.length()];
    long buffer = ch2.queues.bufferAddress(2, 0);
    long from = ch2.queues.freeTailAddress(2);
    System.arraycopy(Words.ofLong(1), 0, freeQ, 0, 8);
    System.arraycopy(Words.ofLongs(buffer, 0), 0, freeQ, (int) (ch2.queues.freeEntryAddress(2, 0) - from), 16);
    ch2.guest.tell(new GuestCall.ReadDone(8, new MemoryEndpoint.ReadResult(read.address(),
        CompletionStatus.SUCCESSFUL, freeQ, 1_500)));
    MemoryEndpoint.Write data = ch2.next(MemoryEndpoint.Write.class);
    assertEquals(20_000 + 1_500, data.at());
    for (int i = 0; i < 3; i++) {
      ch2.next(MemoryEndpoint.Write.class); // PostQ entry, PostQ tail, doorbell
    }
    assertEquals(8, ch2.next(MemoryEndpoint.GuestDone.class).call(), "the read's call answered after its writes");
  }

  @Test
  void shouldAnswerTheHoldItsEndpointPassesOnWhenFreeRunning() {
    Ch2 ch2 = new Ch2();
    ch2.guest.tell(new GuestCall.Hold(3, 40_000));
    assertEquals(3, ch2.next(MemoryEndpoint.GuestDone.class).call(), "the endpoint answers the hold once it has");
  }

  @Test
  void shouldHoldASendUntilTheEndpointSaysWhetherItRunsUnderTheKernel() {
    Ch2 ch2 = new Ch2(false);
    TestProbe<DatagramService.SendReply> replies = testKit.createTestProbe();
    ch2.service.tell(new DatagramService.Send(1, new byte[8], 20_000, replies.ref()));
    replies.expectNoMessage(Duration.ofMillis(200));
    ch2.root.expectNoMessage(Duration.ofMillis(1));
    ch2.guest.tell(new GuestCall.Attached(true));
    assertEquals(20_000, assertInstanceOf(DatagramService.Queued.class, replies.receiveMessage(WAIT)).modelAt());
    assertEquals(20_000, ch2.next(MemoryEndpoint.WakeGuest.class).at(), "taken as under the kernel: a wake");
  }

  @Test
  void shouldRefuseASendToItselfAndThePlaneTheMhDoesNotHaveNamingTheValue() {
    Ch2 ch2 = new Ch2();
    TestProbe<DatagramService.SendReply> replies = testKit.createTestProbe();
    ch2.service.tell(new DatagramService.Send(2, new byte[4], replies.ref()));
    DatagramService.SendRefused self =
        assertInstanceOf(DatagramService.SendRefused.class, replies.receiveMessage(WAIT));
    assertTrue(self.reason().contains("peer=2 is this host itself"), self.reason());
    ch2.service.tell(new DatagramService.Send(1, new byte[5000], replies.ref()));
    DatagramService.SendRefused big =
        assertInstanceOf(DatagramService.SendRefused.class, replies.receiveMessage(WAIT));
    assertTrue(big.reason().contains("5000"), big.reason());

    TestProbe<DatagramService.PlaneReply> planes = testKit.createTestProbe();
    ch2.service.tell(new DatagramService.UsePlane(0, Plane.SECONDARY, -1, planes.ref()));
    DatagramService.PlaneRefused refused =
        assertInstanceOf(DatagramService.PlaneRefused.class, planes.receiveMessage(WAIT));
    assertTrue(refused.reason().contains("peer=0"), refused.reason());
    ch2.root.expectNoMessage(Duration.ofMillis(200));
  }
}
