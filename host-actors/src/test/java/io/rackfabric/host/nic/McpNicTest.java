package io.rackfabric.host.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.link.LinkParameters;
import io.rackfabric.fabric.routing.BridgeRegisters;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.PortRole;
import io.rackfabric.fabric.routing.RoutingTable;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.fabric.switchchip.SwitchChip;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.fabric.tlp.CompletionStatus;
import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.host.ftgm.FtgmSettings;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The message firmware as an actor on the fabric: its host DMA crosses a switch to the MH's
 * memory and back in model time, and its watchdog interrupts the host when the loop hangs.
 */
class McpNicTest {

  static final ActorTestKit testKit = ActorTestKit.create(ConfigFactory.parseString(
      "akka.actor.serialize-messages = on").withFallback(ConfigFactory.load()));
  static final FabricSettings FABRIC = FabricSettings.create(testKit.system().settings().config());
  static final McpTiming TIMING = FtgmSettings.create(testKit.system().settings().config()).timing();
  static final LinkParameters GEN3X4 = LinkParameters.gen3x4();
  static final AddressRange NIC_BAR = AddressRange.ofSize(0xE000_0000L, 0x10_0000L);

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  /** mh (root, memory at 0) - up [sw] nic: the NIC's endpoint, and the firmware on it. */
  static ActorRef<McpNic.Command> rig(String p, McpMode mode, ActorRef<McpNic.Output> outputs) {
    RoutingTable table = new RoutingTable(List.of(
        new PortConfig("up", 0, PortRole.UPSTREAM, 1,
            new BridgeRegisters(0, 1, 2, new AddressRange(0xE000_0000L, 0xE00F_FFFFL), null), null),
        new PortConfig("nic", 1, PortRole.DOWNSTREAM, 1,
            new BridgeRegisters(1, 2, 2, new AddressRange(0xE000_0000L, 0xE00F_FFFFL), null), null)),
        List.of());
    testKit.spawn(SwitchChip.create(p + "sw", table, List.of(
        new SwitchChip.PortLink(0, GEN3X4, p + "mh"),
        new SwitchChip.PortLink(1, GEN3X4, p + "nic")), FABRIC), p + "sw");
    ActorRef<MemoryEndpoint.Command> mh = testKit.spawn(MemoryEndpoint.create(p + "mh", Bdf.of(0, 0, 0), true,
        List.of(new AddressRange(0, 0x0FFF_FFFFL)), GEN3X4, p + "sw.up", FABRIC), p + "mh");
    ActorRef<MemoryEndpoint.Command> nic = testKit.spawn(MemoryEndpoint.create(p + "nic", Bdf.of(2, 0, 0), false,
        List.of(NIC_BAR), GEN3X4, p + "sw.nic", FABRIC), p + "nic");
    awaitActive(mh);
    awaitActive(nic);
    return testKit.spawn(McpNic.create(p + "card", mode, TIMING, nic, outputs), p + "card");
  }

  static void awaitActive(ActorRef<MemoryEndpoint.Command> ep) {
    TestProbe<EndpointStats> probe = testKit.createTestProbe();
    probe.awaitAssert(Duration.ofSeconds(10), () -> {
      ep.tell(new MemoryEndpoint.GetStats(probe.ref()));
      assertEquals(DataLinkState.DL_ACTIVE, probe.receiveMessage().link().state());
      return null;
    });
  }

  static SendToken token(long payload) {
    return new SendToken(0, "remote", 0, -1, payload, 64, 0x1000);
  }

  @Test
  void shouldReadTheSendBufferThroughTheFabricBeforeTransmittingWhenTheHostPostsASend() {
    TestProbe<McpNic.Output> out = testKit.createTestProbe();
    ActorRef<McpNic.Command> card = rig("s-", McpMode.GM, out.ref());
    card.tell(new McpNic.Boot(Set.of(0), Set.of("remote"), 0));
    card.tell(new McpNic.PostSend(token(7), 1_000));
    McpNic.Transmitted tx = out.expectMessageClass(McpNic.Transmitted.class, Duration.ofSeconds(5));
    assertEquals(7, tx.packet().payload());
    assertEquals(McpPacket.Kind.DATA, tx.packet().kind());
    // the send DMA is a read of host memory across the switch: its round trip is in the time
    long dma = tx.at() - 1_000 - TIMING.packetNs();
    assertTrue(dma > 0 && dma < 10_000, "DMA took " + dma + "ns of model time");
  }

  @Test
  void shouldAckOnlyOnceTheMessageIsInTheHostBufferWhenUnderFtgm() {
    TestProbe<McpNic.Output> out = testKit.createTestProbe();
    ActorRef<McpNic.Command> card = rig("r-", McpMode.FTGM, out.ref());
    card.tell(new McpNic.Boot(Set.of(0), Set.of("remote"), 0));
    card.tell(new McpNic.ProvideReceive(new ReceiveToken(0, 0x2000, 64), 100));
    McpPacket data = new McpPacket(McpPacket.Kind.DATA, "remote", 0, "r-card", 0, 0, 42, 64, false, false);
    card.tell(new McpNic.PacketArrived(data, 5_000));
    McpNic.Output first = out.receiveMessage(Duration.ofSeconds(5));
    McpNic.Output second = out.receiveMessage(Duration.ofSeconds(5));
    McpNic.Transmitted ack = (McpNic.Transmitted) (first instanceof McpNic.Transmitted ? first : second);
    McpNic.Posted received = (McpNic.Posted) (first instanceof McpNic.Posted ? first : second);
    assertEquals(McpPacket.Kind.ACK, ack.packet().kind());
    assertTrue(received.event() instanceof PortEvent.MessageReceived, received.toString());
    // the commit point: the write into host memory and the read behind it came back first
    long dma = ack.at() - 5_000 - TIMING.packetNs() - TIMING.ftgmExtraNs();
    assertTrue(dma > 0 && dma < 10_000, "the ACK waited " + dma + "ns of model time for the DMA");
    assertEquals(received.at(), ack.at());
  }

  @Test
  void shouldInterruptTheHostWhenTheWatchdogRunsOutAfterTheLoopHangs() {
    TestProbe<McpNic.Output> out = testKit.createTestProbe();
    ActorRef<McpNic.Command> card = rig("h-", McpMode.FTGM, out.ref());
    card.tell(new McpNic.Boot(Set.of(0), Set.of("remote"), 0));
    card.tell(new McpNic.Inject(FaultCategory.INTERFACE_HANG, FaultPoint.TOKEN_TAKEN));
    card.tell(new McpNic.PostSend(token(1).withSeq(0), 1_000));
    card.tell(new McpNic.AdvanceTo(5_000_000));
    McpNic.Interrupted irq = out.expectMessageClass(McpNic.Interrupted.class, Duration.ofSeconds(5));
    assertEquals(McpFirmware.Interrupt.WATCHDOG, irq.cause());
    assertEquals(TIMING.watchdogNs(), irq.at(), "the loop hung before its first L_timer: IT1 from the load");
    TestProbe<McpNic.Status> status = testKit.createTestProbe();
    card.tell(new McpNic.GetStatus(status.ref()));
    assertTrue(status.receiveMessage().hung());
  }

  @Test
  void shouldKeepTheWatchdogQuietWhenTheLoopRuns() {
    TestProbe<McpNic.Output> out = testKit.createTestProbe();
    ActorRef<McpNic.Command> card = rig("q-", McpMode.FTGM, out.ref());
    card.tell(new McpNic.Boot(Set.of(0), Set.of("remote"), 0));
    card.tell(new McpNic.AdvanceTo(5_000_000));
    TestProbe<McpNic.Status> status = testKit.createTestProbe();
    card.tell(new McpNic.GetStatus(status.ref()));
    McpNic.Status s = status.receiveMessage();
    assertEquals(5_000_000 / (TIMING.lTimerIntervalNs() + TIMING.lTimerNs()), s.lTimerCalls());
    out.expectNoMessage(Duration.ofMillis(200));
  }

  @Test
  void shouldCreditEachDmaItsOwnAnswerWhenASendAndAReceiveDmaAreOutAtOnce() {
    TestProbe<McpNic.Output> out = testKit.createTestProbe();
    TestProbe<MemoryEndpoint.Command> endpoint = testKit.createTestProbe();
    ActorRef<McpNic.Command> card = testKit.spawn(McpNic.create("two-card", McpMode.GM, TIMING, endpoint.ref(),
        out.ref()));
    card.tell(new McpNic.Boot(Set.of(0), Set.of("remote"), 0));
    card.tell(new McpNic.PostSend(token(9), 1_000));
    MemoryEndpoint.Read send = endpoint.expectMessageClass(MemoryEndpoint.Read.class);
    card.tell(new McpNic.ProvideReceive(new ReceiveToken(0, 0x2000, 64), 1_100));
    card.tell(new McpNic.PacketArrived(
        new McpPacket(McpPacket.Kind.DATA, "remote", 0, "two-card", 0, 0, 42, 64, false, false), 1_200));
    endpoint.expectMessageClass(MemoryEndpoint.Write.class);
    MemoryEndpoint.Read receive = endpoint.expectMessageClass(MemoryEndpoint.Read.class);
    // The send's read answered after the receive's DMA went out: it is still the send's.
    send.replyTo().tell(new MemoryEndpoint.ReadResult(send.address(), CompletionStatus.SUCCESSFUL, new byte[64], 500));
    McpNic.Transmitted tx = dataSent(out);
    assertEquals(9, tx.packet().payload(), "the send's packet, after its own DMA");
    assertTrue(tx.at() >= 1_000 + 500 + TIMING.packetNs(), "after the send's own DMA: " + tx.at());
    receive.replyTo().tell(new MemoryEndpoint.ReadResult(receive.address(), CompletionStatus.SUCCESSFUL, new byte[4],
        300));
    McpNic.Posted posted = out.expectMessageClass(McpNic.Posted.class, Duration.ofSeconds(5));
    assertTrue(posted.event() instanceof PortEvent.MessageReceived, posted.toString());
  }

  /** The next DATA packet the card put on the wire (GM acknowledges a received packet at once: skipped). */
  private static McpNic.Transmitted dataSent(TestProbe<McpNic.Output> out) {
    while (true) {
      McpNic.Output o = out.receiveMessage(Duration.ofSeconds(5));
      if (o instanceof McpNic.Transmitted t && t.packet().kind() == McpPacket.Kind.DATA) {
        return t;
      }
    }
  }
}
