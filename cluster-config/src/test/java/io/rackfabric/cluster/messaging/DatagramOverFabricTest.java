package io.rackfabric.cluster.messaging;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import io.rackfabric.cluster.topology.TopologyException;
import io.rackfabric.fabric.port.LinkPort;
import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.stats.PortStats;
import io.rackfabric.fabric.switchchip.SwitchPort;
import io.rackfabric.host.memory.Plane;
import io.rackfabric.host.messaging.DatagramService;
import io.rackfabric.host.messaging.DatagramService.Delivered;
import io.rackfabric.host.messaging.DatagramStats;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The datagram service over the emulated Ladon testbed: CH1 streams to CH2 through two NTB hops
 * while CH2's primary cable fails, with and without a switch to the secondary range, and two
 * senders share one receiver. Each test gets a fresh rack, since the fault is not undone.
 */
class DatagramOverFabricTest {

  private static final int CH1 = 1;
  private static final int CH2 = 2;
  private static final int MH = 0;
  /** Datagrams sent before the fault: fewer than the window of 8 buffers. */
  private static final int FIRST = 3;

  private LadonTestbed rack;

  @BeforeEach
  void startRack() throws TopologyException {
    rack = new LadonTestbed();
    rack.awaitDataPlaneUp();
  }

  @AfterEach
  void stopRack() {
    rack.close();
  }

  /** Payloads of 40 to ~3000 bytes: most are split into several Max_Payload_Size writes. */
  private static byte[] payload(int from, int n) {
    return ("host " + from + " datagram " + n + " " + "z".repeat((n * 389) % 3000))
        .getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Sends datagrams {@code from..to-1} of host {@code host}'s stream and checks each is queued
   * with its sequence number.
   */
  private void stream(ActorRef<DatagramService.Command> sender, int host, int peer, List<byte[]> sent,
      int to) {
    TestProbe<DatagramService.SendReply> replies = rack.kit.createTestProbe();
    int from = sent.size();
    for (int n = from; n < to; n++) {
      byte[] p = payload(host, n);
      sent.add(p);
      sender.tell(new DatagramService.Send(peer, p, replies.ref()));
    }
    for (int n = from; n < to; n++) {
      DatagramService.Queued q = assertInstanceOf(DatagramService.Queued.class,
          replies.receiveMessage(LadonTestbed.WAIT));
      assertEquals(n, q.sequence(), "sequence of datagram " + n);
    }
  }

  /**
   * Starts CH1's stream to CH2 with a few datagrams, fewer than a window, and waits until they
   * are acknowledged. CH1's first FreeQ read took every buffer, so it now holds the rest in hand:
   * the next datagrams leave at once, without a read, and a failure before them is sure to hit
   * them. Returns the deliveries so far.
   */
  private List<Delivered> startStream(ActorRef<DatagramService.Command> ch1,
      ActorRef<DatagramService.Command> ch2, TestProbe<Delivered> deliveries, List<byte[]> sent) {
    rack.stats(ch2, CH1); // CH2's queues are set up before CH1's first read can reach them
    stream(ch1, CH1, CH2, sent, FIRST);
    List<Delivered> got = new ArrayList<>();
    receive(deliveries, got, FIRST);
    awaitAcknowledged(ch1, CH2, FIRST, deliveries);
    assertEquals(rack.messaging.buffers() - FIRST, rack.stats(ch1, CH2).peer(CH2).buffersInHand(),
        "buffers CH1 holds");
    return got;
  }

  /** Exactly {@code sent}, in order, each once, with model times that never go backwards. */
  private static void assertExactly(List<byte[]> sent, List<Delivered> got, int from) {
    List<Delivered> mine = got.stream().filter(d -> d.from() == from).toList();
    assertEquals(sent.size(), mine.size(), "datagrams delivered from host " + from);
    long last = 0;
    for (int n = 0; n < sent.size(); n++) {
      Delivered d = mine.get(n);
      assertEquals(n, d.sequence(), "sequence of delivery " + n + " from host " + from);
      assertArrayEquals(sent.get(n), d.payload(), "datagram " + n + " from host " + from);
      assertTrue(d.modelAt() >= last, "delivery " + n + " at model " + d.modelAt() + " < " + last);
      last = d.modelAt();
    }
  }

  private static void receive(TestProbe<Delivered> probe, List<Delivered> into, int total) {
    while (into.size() < total) {
      into.add(probe.receiveMessage(LadonTestbed.WAIT));
    }
  }

  /** Waits until the sender has everything acknowledged, then checks no late copy arrives. */
  private void awaitAcknowledged(ActorRef<DatagramService.Command> sender, int peer, int count,
      TestProbe<Delivered> deliveries) {
    TestProbe<DatagramStats> probe = rack.kit.createTestProbe();
    probe.awaitAssert(LadonTestbed.WAIT, () -> {
      DatagramStats.PeerStats s = rack.stats(sender, peer).peer(peer);
      assertEquals(count, s.acknowledged(), "acknowledged by host " + peer);
      assertEquals(0, s.outstanding(), "outstanding to host " + peer);
      return null;
    });
    deliveries.expectNoMessage(java.time.Duration.ofMillis(300));
  }

  private long lostOnCh2Primary(ActorRef<SwitchPort.Command> ntPriCh2,
      ActorRef<SwitchPort.Command> ch2RpPri) {
    return LadonTestbed.lost(rack.stats(ntPriCh2)) + LadonTestbed.lost(rack.stats(ch2RpPri));
  }

  @Test
  void shouldDeliverEveryDatagramOnceInOrderWhenCh2sPrimaryLinkFailsMidStreamAndCh1SwitchesPlanes() {
    ActorRef<DatagramService.Command> ch1 = rack.service("ch1");
    ActorRef<DatagramService.Command> ch2 = rack.service("ch2");
    TestProbe<Delivered> deliveries = rack.kit.createTestProbe();
    ch2.tell(new DatagramService.Subscribe(deliveries.ref()));
    // CH2's primary cable: nt-pri.ch2 (port 2 of the primary NTB chip) on the switch side,
    // ch2-rp.pri (port 1 of CH2's root ports) on the host side. The fault is injected at the
    // switch end, where CH1's datagrams to CH2 queue for the cable; the host end sees it go down.
    ActorRef<SwitchPort.Command> ntPriCh2 = rack.port("nt-pri", 2);
    ActorRef<SwitchPort.Command> ch2RpPri = rack.port("ch2-rp", 1);
    long lostBefore = lostOnCh2Primary(ntPriCh2, ch2RpPri);

    int total = 400;
    List<byte[]> sent = new ArrayList<>();
    List<Delivered> got = startStream(ch1, ch2, deliveries, sent);
    LinkPort.of(ntPriCh2).tell(new LinkPort.SetLink(false, got.get(got.size() - 1).modelAt(), rack.kit.system()));
    rack.awaitDown(ntPriCh2);
    rack.awaitDown(ch2RpPri);
    // The stream goes on before anyone is told: the buffers in hand go out through the primary
    // range into the dead link, the rest waits for FreeQ reads that fail there.
    stream(ch1, CH1, CH2, sent, total);
    TestProbe<PortStats> lost = rack.kit.createTestProbe();
    lost.awaitAssert(LadonTestbed.WAIT, () -> {
      assertTrue(lostOnCh2Primary(ntPriCh2, ch2RpPri) > lostBefore, "TLPs lost on the failed link");
      return null;
    });
    assertEquals(FIRST, rack.stats(ch1, CH2).peer(CH2).acknowledged(), "acknowledged while down");

    // The MH's fail-over notification, which the lead wires later: CH2 itself reaches everyone
    // through its secondary NTB from now on, and CH1 reaches CH2 through CH2's secondary range.
    DatagramService.PlaneSwitched ch2Switched = rack.usePlane(ch2, CH1, Plane.SECONDARY);
    assertTrue(ch2Switched.changed());
    DatagramService.PlaneSwitched ch1Switched = rack.usePlane(ch1, CH2, Plane.SECONDARY);
    assertTrue(ch1Switched.changed());
    assertEquals(rack.messaging.buffers() - FIRST, ch1Switched.resent(),
        "every datagram sent into the dead link resent at once");

    receive(deliveries, got, total);
    awaitAcknowledged(ch1, CH2, total, deliveries);
    assertExactly(sent, got, CH1);

    DatagramStats.PeerStats out = rack.stats(ch1, CH2).peer(CH2);
    assertEquals(Plane.SECONDARY, out.plane());
    assertTrue(out.retransmissions() > 0, "retransmissions " + out);
    long lostTlps = lostOnCh2Primary(ntPriCh2, ch2RpPri) - lostBefore;
    assertTrue(lostTlps > 0, "the fabric lost " + lostTlps + " TLPs");
    assertTrue(got.get(total - 1).modelAt() > ch1Switched.modelAt(), "delivered after the switch");
  }

  @Test
  void shouldRecoverByTheRetransmissionTimeoutWhenTheLinkComesBackWithoutAPlaneSwitch() {
    ActorRef<DatagramService.Command> ch1 = rack.service("ch1");
    ActorRef<DatagramService.Command> ch2 = rack.service("ch2");
    TestProbe<Delivered> deliveries = rack.kit.createTestProbe();
    ch2.tell(new DatagramService.Subscribe(deliveries.ref()));
    ActorRef<SwitchPort.Command> ntPriCh2 = rack.port("nt-pri", 2);
    ActorRef<SwitchPort.Command> ch2RpPri = rack.port("ch2-rp", 1);
    long lostBefore = lostOnCh2Primary(ntPriCh2, ch2RpPri);

    int total = 200;
    List<byte[]> sent = new ArrayList<>();
    List<Delivered> got = startStream(ch1, ch2, deliveries, sent);
    LinkPort.of(ntPriCh2).tell(new LinkPort.SetLink(false, got.get(got.size() - 1).modelAt(), rack.kit.system()));
    rack.awaitDown(ntPriCh2);
    rack.awaitDown(ch2RpPri);
    stream(ch1, CH1, CH2, sent, total);
    // While it is down, CH1's timeouts resend into it: lost, and counted by the fabric.
    TestProbe<DatagramStats> probe = rack.kit.createTestProbe();
    probe.awaitAssert(LadonTestbed.WAIT, () -> {
      assertTrue(rack.stats(ch1, CH2).peer(CH2).timeouts() > 0, "timeouts while the link is down");
      assertTrue(lostOnCh2Primary(ntPriCh2, ch2RpPri) > lostBefore, "TLPs lost on the failed link");
      return null;
    });
    LinkPort.of(ntPriCh2).tell(new LinkPort.SetLink(true, rack.stats(ch1, CH2).modelNow(), rack.kit.system()));
    rack.awaitState(ntPriCh2, DataLinkState.DL_ACTIVE);

    receive(deliveries, got, total);
    awaitAcknowledged(ch1, CH2, total, deliveries);
    assertExactly(sent, got, CH1);
    DatagramStats.PeerStats out = rack.stats(ch1, CH2).peer(CH2);
    assertEquals(Plane.PRIMARY, out.plane(), "nobody switched planes");
    assertEquals(0, out.planeChanges());
    assertTrue(out.retransmissions() > 0, "retransmissions " + out);
  }

  @Test
  void shouldKeepBothStreamsExactWhenTheMhAndCh1SendToCh2AtOnce() {
    ActorRef<DatagramService.Command> mh = rack.service("mmh");
    ActorRef<DatagramService.Command> ch1 = rack.service("ch1");
    ActorRef<DatagramService.Command> ch2 = rack.service("ch2");
    TestProbe<Delivered> deliveries = rack.kit.createTestProbe();
    ch2.tell(new DatagramService.Subscribe(deliveries.ref()));

    int each = 150;
    List<byte[]> fromMh = new ArrayList<>();
    List<byte[]> fromCh1 = new ArrayList<>();
    TestProbe<DatagramService.SendReply> replies = rack.kit.createTestProbe();
    for (int n = 0; n < each; n++) {
      fromMh.add(payload(MH, n));
      mh.tell(new DatagramService.Send(CH2, fromMh.get(n), replies.ref()));
      fromCh1.add(payload(CH1, n));
      ch1.tell(new DatagramService.Send(CH2, fromCh1.get(n), replies.ref()));
    }
    List<Delivered> got = new ArrayList<>();
    receive(deliveries, got, 2 * each);
    awaitAcknowledged(mh, CH2, each, deliveries);
    awaitAcknowledged(ch1, CH2, each, deliveries);
    assertExactly(fromMh, got, MH);
    assertExactly(fromCh1, got, CH1);
    DatagramStats atCh2 = rack.stats(ch2, MH);
    assertEquals(each, atCh2.peer(MH).delivered());
    assertEquals(each, atCh2.peer(CH1).delivered());
    for (int n = 0; n < 2 * each; n++) {
      assertInstanceOf(DatagramService.Queued.class, replies.receiveMessage(LadonTestbed.WAIT));
    }
  }

  @Test
  void shouldRefuseAPlaneTheMhDoesNotHaveAndASendToItselfNamingTheValue() {
    ActorRef<DatagramService.Command> ch1 = rack.service("ch1");
    TestProbe<DatagramService.PlaneReply> planes = rack.kit.createTestProbe();
    ch1.tell(new DatagramService.UsePlane(MH, Plane.SECONDARY, -1, planes.ref()));
    DatagramService.PlaneRefused refused =
        assertInstanceOf(DatagramService.PlaneRefused.class, planes.receiveMessage(LadonTestbed.WAIT));
    assertTrue(refused.reason().contains("peer=0"), refused.reason());
    TestProbe<DatagramService.SendReply> replies = rack.kit.createTestProbe();
    ch1.tell(new DatagramService.Send(CH1, new byte[8], replies.ref()));
    DatagramService.SendRefused self =
        assertInstanceOf(DatagramService.SendRefused.class, replies.receiveMessage(LadonTestbed.WAIT));
    assertTrue(self.reason().contains("peer=1 is this host itself"), self.reason());
  }
}
