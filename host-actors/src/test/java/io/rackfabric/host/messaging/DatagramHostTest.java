package io.rackfabric.host.messaging;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import io.rackfabric.host.memory.Plane;
import io.rackfabric.host.messaging.SimulatedRack.Delivery;
import io.rackfabric.host.messaging.SimulatedRack.Landing;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The datagram software of whole hosts, over a simulated rack that loses what a failed link held. */
class DatagramHostTest {

  private static MessagingSettings settings(String overrides) {
    return MessagingSettings.create(ConfigFactory.parseString(overrides)
        .withFallback(ConfigFactory.defaultReference()));
  }

  private static final MessagingSettings DEFAULTS = settings("");

  /** A stream of distinct payloads of varying length, one per call. */
  private static final class Stream {
    final List<byte[]> sent = new ArrayList<>();
    final int from;
    final int to;

    Stream(int from, int to) {
      this.from = from;
      this.to = to;
    }

    void send(SimulatedRack rack, int count) {
      for (int i = 0; i < count; i++) {
        int n = sent.size();
        byte[] payload = ("from " + from + " #" + n + " " + "y".repeat((n * 131) % 3000))
            .getBytes(StandardCharsets.UTF_8);
        assertEquals(n, rack.host(from).send(to, payload, -1), "sequence of datagram " + n);
        sent.add(payload);
      }
    }

    boolean done(SimulatedRack rack) {
      return rack.deliveredTo(to, from).size() >= sent.size()
          && rack.host(from).stats().peer(to).outstanding() == 0
          && rack.host(from).stats().peer(to).pending() == 0;
    }

    /** Exactly what was sent, in order, each once; model times never go backwards. */
    void assertDelivered(SimulatedRack rack) {
      List<Delivery> got = rack.deliveredTo(to, from);
      assertEquals(sent.size(), got.size(), "delivered from " + from + " to " + to);
      long last = -1;
      for (int i = 0; i < sent.size(); i++) {
        assertEquals(i, got.get(i).sequence(), "sequence of delivery " + i);
        assertArrayEquals(sent.get(i), got.get(i).payload(), "datagram " + i);
        assertTrue(got.get(i).at() >= last, "delivery " + i + " at " + got.get(i).at() + " < " + last);
        last = got.get(i).at();
      }
    }
  }

  @Test
  void shouldDeliverEveryDatagramOnceInOrderWhenNothingIsLost() {
    SimulatedRack rack = new SimulatedRack(2, DEFAULTS);
    Stream s = new Stream(1, 2);
    s.send(rack, 60); // many more than the 8 buffers
    assertTrue(rack.runUntil(() -> s.done(rack), 5), rack.host(1).stats().toString());
    s.assertDelivered(rack);
    DatagramStats.PeerStats out = rack.host(1).stats().peer(2);
    assertEquals(0, out.retransmissions(), "retransmissions");
    assertEquals(60, out.acknowledged(), "acknowledged");
    assertEquals(60, rack.host(2).stats().peer(1).delivered(), "delivered by CH2's receiver");
    assertEquals(0, rack.writesLost, "writes lost");
  }

  private static long firstLanding(SimulatedRack rack, int host, QueueLayout.Region region) {
    QueueLayout q = rack.host(host).layout().queues();
    return rack.landings.stream()
        .filter(l -> l.host() == host && q.regionOf(l.address()) == region)
        .mapToLong(Landing::at).min().orElseThrow();
  }

  @Test
  void shouldDeliverAtTheDoorbellsArrivalPlusTheInterruptLatencyWhenDoorbellDriven() {
    MessagingSettings doorbell = settings("rackfabric.host.messaging.interrupt-latency = 3us");
    SimulatedRack rack = new SimulatedRack(2, doorbell);
    Stream s = new Stream(1, 2);
    s.send(rack, 1);
    assertTrue(rack.runUntil(() -> s.done(rack), 5));
    long bell = firstLanding(rack, 2, QueueLayout.Region.DOORBELL);
    assertEquals(bell + 3_000, rack.deliveredTo(2, 1).get(0).at(), "doorbell at " + bell);
  }

  @Test
  void shouldDeliverAtThePostQTailsArrivalPlusThePollLatencyWhenPolled() {
    MessagingSettings polled = settings("rackfabric.host.messaging { delivery = polled\n"
        + "poll-latency = 7us\ninterrupt-latency = 1ns }");
    SimulatedRack rack = new SimulatedRack(2, polled);
    Stream s = new Stream(1, 2);
    s.send(rack, 1);
    assertTrue(rack.runUntil(() -> s.done(rack), 5));
    long tail = firstLanding(rack, 2, QueueLayout.Region.POST_TAIL);
    assertEquals(tail + 7_000, rack.deliveredTo(2, 1).get(0).at(), "tail at " + tail);
  }

  @Test
  void shouldResendThroughTheSecondaryRangeAndLoseNothingWhenThePrimaryLinkFailsMidStream() {
    // A timeout far beyond the test: only the plane switch can recover.
    SimulatedRack rack = new SimulatedRack(2,
        settings("rackfabric.host.messaging { retransmit-timeout = 10s, retransmit-check = 1s }"));
    Stream s = new Stream(1, 2);
    s.send(rack, 60);
    assertTrue(rack.runUntil(() -> rack.deliveredTo(2, 1).size() >= 20, 0));
    rack.fail(2, Plane.PRIMARY); // CH2's primary link: CH1's writes and CH2's acks both cross it
    rack.settle(3);
    int before = rack.deliveredTo(2, 1).size();
    assertTrue(before < 60, "the failure lost nothing: " + before);
    assertTrue(rack.writesLost > 0, "writes lost");

    // The MH would notify both; CH2 switches its own view of CH1 too, its primary being dead.
    rack.host(2).usePlane(1, Plane.SECONDARY, -1);
    int resent = rack.host(1).usePlane(2, Plane.SECONDARY, -1);
    assertTrue(resent > 0, "resent " + resent);
    assertTrue(rack.runUntil(() -> s.done(rack), 5), rack.host(1).stats().toString());
    s.assertDelivered(rack);
    DatagramStats.PeerStats out = rack.host(1).stats().peer(2);
    assertEquals(0, out.timeouts(), "timeouts");
    assertEquals(Plane.SECONDARY, out.plane());
    assertEquals(1, out.planeChanges());
    assertTrue(out.retransmissions() >= resent, "retransmissions " + out.retransmissions());
    // Let anything still in flight land: nothing is delivered twice.
    rack.settle(3);
    s.assertDelivered(rack);
  }

  @Test
  void shouldRecoverByTheRetransmissionTimeoutWhenALinkFlapsAndNoOneSwitchesPlanes() {
    SimulatedRack rack = new SimulatedRack(2, DEFAULTS);
    Stream s = new Stream(1, 2);
    s.send(rack, 60);
    assertTrue(rack.runUntil(() -> rack.deliveredTo(2, 1).size() >= 20, 0));
    rack.fail(2, Plane.PRIMARY);
    // The timeout fires by the idle rule and resends into the dead link.
    assertTrue(rack.runUntil(() -> rack.host(1).stats().peer(2).timeouts() > 0, 10),
        rack.host(1).stats().toString());
    assertTrue(rack.writesLost > 0, "writes lost");
    rack.restore(2, Plane.PRIMARY);
    assertTrue(rack.runUntil(() -> s.done(rack), 20), rack.host(1).stats().toString());
    s.assertDelivered(rack);
    assertEquals(Plane.PRIMARY, rack.host(1).stats().peer(2).plane());
    rack.settle(3);
    s.assertDelivered(rack);
  }

  @Test
  void shouldKeepBothStreamsExactWhenTheMhAndAComputeHostSendToOneReceiver() {
    SimulatedRack rack = new SimulatedRack(2, DEFAULTS);
    Stream fromMh = new Stream(0, 2);
    Stream fromCh1 = new Stream(1, 2);
    for (int i = 0; i < 5; i++) {
      fromMh.send(rack, 10);
      fromCh1.send(rack, 10);
    }
    assertTrue(rack.runUntil(() -> fromMh.done(rack) && fromCh1.done(rack), 5));
    fromMh.assertDelivered(rack);
    fromCh1.assertDelivered(rack);
    assertEquals(50, rack.host(2).stats().peer(0).delivered());
    assertEquals(50, rack.host(2).stats().peer(1).delivered());
  }

  @Test
  void shouldFailAFreeQReadThatNeverCompletesAfterTheCompletionTimeoutAndCarryOn() {
    SimulatedRack rack = new SimulatedRack(2, DEFAULTS);
    rack.readsVanish(true);
    rack.fail(2, Plane.PRIMARY);
    Stream s = new Stream(1, 2);
    s.send(rack, 5);
    rack.settle(2);
    assertTrue(rack.readsLost > 0, "reads lost");
    assertTrue(rack.host(1).stats().peer(2).readTimeouts() > 0, "read timeouts");
    assertEquals(0, rack.deliveredTo(2, 1).size());
    rack.restore(2, Plane.PRIMARY);
    assertTrue(rack.runUntil(() -> s.done(rack), 10), rack.host(1).stats().toString());
    s.assertDelivered(rack);
  }

  @Test
  void shouldStopAfterAWindowWhileNobodyConsumesAndResumeWhenSomeoneDoes() {
    SimulatedRack rack = new SimulatedRack(2, settings("rackfabric.host.messaging.buffers = 4"));
    rack.host(2).setConsuming(false);
    Stream s = new Stream(1, 2);
    s.send(rack, 12);
    rack.settle(3);
    assertEquals(4, rack.deliveredTo(2, 1).size(), "delivered while the buffers are held");
    assertEquals(8, rack.host(1).stats().peer(2).pending(), "waiting for buffers");
    rack.host(2).setConsuming(true);
    assertTrue(rack.runUntil(() -> s.done(rack), 10), rack.host(1).stats().toString());
    s.assertDelivered(rack);
  }

  @Test
  void shouldRefuseBadPeersPlanesAndPayloadsNamingTheValue() {
    SimulatedRack rack = new SimulatedRack(2, DEFAULTS);
    DatagramHost ch1 = rack.host(1);
    assertTrue(assertThrows(IllegalArgumentException.class, () -> ch1.send(1, new byte[1], -1))
        .getMessage().contains("peer=1 is this host itself"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> ch1.send(3, new byte[1], -1))
        .getMessage().contains("peer=3 not in [0,2]"));
    String tooBig = assertThrows(IllegalArgumentException.class,
        () -> ch1.send(2, new byte[4081], -1)).getMessage();
    assertTrue(tooBig.contains("4081") && tooBig.contains("4080"), tooBig);
    String mh = assertThrows(IllegalArgumentException.class,
        () -> ch1.usePlane(0, Plane.SECONDARY, -1)).getMessage();
    assertTrue(mh.contains("peer=0") && mh.contains("PMS1 only"), mh);
    assertEquals(Plane.PRIMARY, ch1.plane(0), "a refused switch changes nothing");
    assertEquals(0, ch1.usePlane(2, Plane.PRIMARY, -1), "no change, nothing resent");
    assertFalse(ch1.stats().peer(2).planeChanges() > 0);
  }

  @Test
  void shouldStartModelTimeAtACommandsOwnModelTime() {
    SimulatedRack rack = new SimulatedRack(2, DEFAULTS);
    Stream s = new Stream(1, 2);
    rack.host(1).send(2, "late".getBytes(StandardCharsets.UTF_8), 5_000_000);
    s.sent.add("late".getBytes(StandardCharsets.UTF_8));
    assertTrue(rack.runUntil(() -> s.done(rack), 5));
    s.assertDelivered(rack);
    assertTrue(rack.deliveredTo(2, 1).get(0).at() > 5_000_000, "delivered after it was sent");
  }
}
