package io.rackfabric.host.messaging;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.time.EventQueue;
import io.rackfabric.host.messaging.QueueLayout.Region;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.LongPredicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The FreeQ/PostQ protocol (sender and receiver state machines) over a link that loses, corrupts and fails. */
class DatagramProtocolTest {

  private static final long SENDER_BASE = 0x1_0000_0000L;
  private static final long RECEIVER_BASE = 0x2_0000_0000L;
  private static final long ACK = SENDER_BASE + 0x100;
  private static final int SENDER_INDEX = 1; // not 0, so index mistakes show
  private static final long DELAY_NS = 500;

  /** One sender, one receiver, the lossy link between them, and what was sent and delivered. */
  private static final class Rig {
    final EventQueue clock = new EventQueue();
    final QueueLayout layout;
    final LossyMemory link;
    final DatagramSender sender;
    final DatagramReceiver receiver;
    final List<byte[]> sent = new ArrayList<>();
    final List<byte[]> delivered = new ArrayList<>();
    final List<Long> sequences = new ArrayList<>();

    Rig(int buffers, long timeoutNs) {
      layout = QueueLayout.of(RECEIVER_BASE, 2, buffers);
      link = new LossyMemory(clock, DELAY_NS, SENDER_BASE, RECEIVER_BASE, (int) layout.size());
      receiver = new DatagramReceiver(layout, SENDER_INDEX, link.local(1), link.port(), ACK, clock,
          5_000, (seq, payload) -> {
            sequences.add(seq);
            delivered.add(payload);
          });
      receiver.start();
      sender = new DatagramSender(layout, SENDER_INDEX, link.port(), link.local(0), ACK, clock,
          new DatagramSender.Timing(timeoutNs, 1_000, 2_000));
      link.watch(layout.doorbellAddress(SENDER_INDEX), receiver::onDoorbell);
      link.watch(ACK, sender::onAckWritten);
    }

    Rig() {
      this(8, 20_000);
    }

    void send(int count) {
      for (int i = 0; i < count; i++) {
        int n = sent.size();
        byte[] payload = ("datagram " + n + " " + "x".repeat(n % 97)).getBytes(StandardCharsets.UTF_8);
        sent.add(payload);
        sender.send(payload);
      }
    }

    boolean runUntilAllDelivered(long forNs) {
      return clock.runUntil(() -> delivered.size() >= sent.size() && sender.outstanding() == 0,
          clock.now() + forNs);
    }

    /** Delivered equals sent: same datagrams, same order, none twice, sequence numbers 0..n-1. */
    void assertExactlyTheSentStream() {
      assertEquals(sent.size(), delivered.size(), "delivered count");
      for (int i = 0; i < sent.size(); i++) {
        assertArrayEquals(sent.get(i), delivered.get(i), "datagram " + i);
        assertEquals(i, sequences.get(i), "sequence of delivery " + i);
      }
    }

    LongPredicate region(Region region) {
      return address -> layout.regionOf(address) == region;
    }
  }

  @Test
  void shouldDeliverEveryDatagramOnceInOrderWhenNothingIsLost() {
    Rig rig = new Rig();
    rig.send(100); // many more than the 8 buffers: buffers go round the FreeQ
    assertTrue(rig.runUntilAllDelivered(10_000_000), rig.sender.toString());
    rig.assertExactlyTheSentStream();
    assertEquals(0, rig.sender.retransmissions(), "retransmissions");
    assertEquals(0, rig.link.writesLost(), "writes lost");
    assertEquals(100, rig.sender.acknowledged(), "acknowledged");
  }

  /** The kinds of posted write the protocol makes; the ack is in the sender's memory. */
  enum WriteKind { DATA, POST_ENTRY, POST_TAIL, DOORBELL, ACK }

  private static LongPredicate matcher(Rig rig, WriteKind kind) {
    switch (kind) {
      case DATA:
        return rig.region(Region.BUFFER);
      case POST_ENTRY:
        return rig.region(Region.POST_ENTRY);
      case POST_TAIL:
        return rig.region(Region.POST_TAIL);
      case DOORBELL:
        return rig.region(Region.DOORBELL);
      case ACK:
        return address -> address == ACK;
      default:
        throw new IllegalArgumentException("write kind " + kind);
    }
  }

  @ParameterizedTest
  @EnumSource(WriteKind.class)
  void shouldRecoverExactlyOnceInOrderWhenOneWriteOfAKindIsLostOnTheLastDatagram(WriteKind kind) {
    Rig rig = new Rig();
    rig.send(5);
    assertTrue(rig.runUntilAllDelivered(1_000_000));
    // The lost write belongs to the last datagram, so no later write can cover for it.
    rig.link.dropOnce(matcher(rig, kind));
    rig.send(1);
    assertTrue(rig.runUntilAllDelivered(1_000_000), kind + ": " + rig.sender);
    rig.assertExactlyTheSentStream();
    assertEquals(1, rig.link.writesLost(), "writes lost");
    // Let any late retransmission land: it must not deliver anything twice.
    rig.clock.runUntil(rig.clock.now() + 200_000);
    rig.assertExactlyTheSentStream();
  }

  @ParameterizedTest
  @EnumSource(WriteKind.class)
  void shouldRecoverExactlyOnceInOrderWhenOneWriteOfAKindIsLostMidStream(WriteKind kind) {
    Rig rig = new Rig();
    rig.send(3);
    rig.link.dropOnce(matcher(rig, kind));
    rig.send(30);
    assertTrue(rig.runUntilAllDelivered(1_000_000), kind + ": " + rig.sender);
    rig.clock.runUntil(rig.clock.now() + 200_000);
    rig.assertExactlyTheSentStream();
    assertEquals(1, rig.link.writesLost(), "writes lost");
  }

  @Test
  void shouldResendAtOnceAndLoseNothingWhenTheRouteChangesAfterALinkFailure() {
    Rig rig = new Rig(8, 1_000_000_000L); // a timeout far beyond the test: only routeChanged helps
    rig.send(50);
    rig.link.failBetween(1_200, 40_000); // datagrams are in flight at 1.2 us
    rig.clock.runUntil(60_000);
    assertTrue(rig.delivered.size() < 50, "the failure lost nothing: " + rig.delivered.size());
    assertTrue(rig.link.writesLost() > 0, "writes lost");
    int before = rig.delivered.size();

    rig.sender.routeChanged();
    assertTrue(rig.runUntilAllDelivered(1_000_000), rig.sender + " delivered " + before);
    rig.assertExactlyTheSentStream();
    assertEquals(0, rig.sender.timeouts(), "timeouts");
    assertTrue(rig.sender.retransmissions() > 0, "retransmissions");
  }

  @Test
  void shouldRecoverByTimeoutWhenALinkFailureLosesEverythingInFlightAndNoOneSaysSo() {
    Rig rig = new Rig();
    rig.send(50);
    rig.link.failBetween(1_200, 40_000);
    assertTrue(rig.runUntilAllDelivered(5_000_000), rig.sender.toString());
    rig.assertExactlyTheSentStream();
    assertTrue(rig.sender.timeouts() > 0, "timeouts");
  }

  @ParameterizedTest
  @ValueSource(longs = {20240601L, 7L, 1_000_003L})
  void shouldDeliverExactlyTheSentSequenceWhenFiveToTwentyPercentOfAccessesAreLost(long seed) {
    double rate = 0.05 + new Random(seed).nextDouble() * 0.15;
    Rig rig = new Rig();
    rig.link.randomLoss(seed, rate);
    rig.send(10_000);
    assertTrue(rig.runUntilAllDelivered(60_000_000_000L),
        "rate " + rate + ": " + rig.sender + ", " + rig.receiver);
    rig.clock.runUntil(rig.clock.now() + 200_000);
    rig.assertExactlyTheSentStream();
    assertTrue(rig.link.writesLost() > 10_000 * rate, "writes lost " + rig.link.writesLost());
    assertTrue(rig.sender.retransmissions() > 0, "retransmissions");
  }

  @Test
  void shouldStopWhenTheReceiverKeepsItsBuffersAndResumeWhenItReturnsThem() {
    Rig rig = new Rig(4, 20_000);
    rig.receiver.setReturningBuffers(false);
    rig.send(12);
    rig.clock.runUntil(1_000_000);
    assertEquals(4, rig.delivered.size(), "delivered with 4 buffers held");
    assertEquals(4, rig.sender.nextSequence(), "sent");
    assertEquals(8, rig.sender.pending(), "waiting for buffers");
    assertEquals(4, rig.receiver.heldBuffers(), "held");

    rig.receiver.setReturningBuffers(true);
    assertTrue(rig.runUntilAllDelivered(1_000_000), rig.sender.toString());
    rig.assertExactlyTheSentStream();
  }

  @Test
  void shouldNeverHaveMoreOutstandingThanBuffers() {
    Rig rig = new Rig(4, 20_000);
    rig.link.dropEvery(7);
    rig.send(200);
    int[] most = {0};
    assertTrue(rig.clock.runUntil(() -> {
      most[0] = Math.max(most[0], rig.sender.outstanding());
      return rig.delivered.size() == 200 && rig.sender.outstanding() == 0;
    }, 100_000_000));
    rig.assertExactlyTheSentStream();
    assertEquals(4, most[0], "most outstanding");
  }

  @Test
  void shouldProgressOnBuffersComingBackThroughTheFreeQWhenEveryAckWriteIsLost() {
    Rig rig = new Rig(4, 20_000);
    rig.link.dropAll(address -> address == ACK);
    rig.send(40);
    int[] most = {0};
    assertTrue(rig.clock.runUntil(() -> {
      most[0] = Math.max(most[0], rig.sender.outstanding());
      return rig.delivered.size() == 40;
    }, 100_000_000), rig.sender.toString());
    rig.clock.runUntil(rig.clock.now() + 500_000);
    rig.assertExactlyTheSentStream();
    assertEquals(0, rig.link.local(0).readLong(ACK), "ack word never written");
    assertTrue(most[0] <= 4, "most outstanding " + most[0]);
    // The last datagrams' buffers never come back to a sender with nothing more to send.
    assertTrue(rig.sender.acknowledged() >= 36, "acknowledged " + rig.sender.acknowledged());
  }

  @Test
  void shouldRejectACorruptedDataWriteByChecksumAndDeliverTheResentCopy() {
    Rig rig = new Rig();
    rig.send(2);
    assertTrue(rig.runUntilAllDelivered(1_000_000));
    rig.link.corruptOnce(rig.region(Region.BUFFER));
    rig.send(1);
    assertTrue(rig.runUntilAllDelivered(1_000_000), rig.sender.toString());
    rig.assertExactlyTheSentStream();
    assertEquals(1, rig.link.writesCorrupted(), "writes corrupted");
    assertEquals(1, rig.receiver.corruptDatagrams(), "corrupt datagrams seen");
    assertTrue(rig.sender.timeouts() > 0, "timeouts");
  }

  @Test
  void shouldRefuseADatagramLargerThanABufferNamingItsLength() {
    Rig rig = new Rig();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> rig.sender.send(new byte[4096]));
    assertTrue(e.getMessage().contains("4096") && e.getMessage().contains("4080"), e.getMessage());
    rig.sender.send(new byte[4080]);
    rig.sent.add(new byte[4080]);
    assertTrue(rig.runUntilAllDelivered(1_000_000));
    rig.assertExactlyTheSentStream();
  }
}
