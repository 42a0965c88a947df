package io.rackfabric.fabric.rootcomplex;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.endpoint.EndpointEvent;
import io.rackfabric.fabric.endpoint.InboundAccessCheck;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.link.LinkParameters;
import io.rackfabric.fabric.link.PortMessage;
import io.rackfabric.fabric.routing.BridgeRegisters;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.PortRole;
import io.rackfabric.fabric.routing.RoutingTable;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.fabric.switchchip.SwitchChip;
import io.rackfabric.fabric.testing.FabricProbes;
import io.rackfabric.fabric.time.JoinKeeper;
import io.rackfabric.fabric.time.TimeKeeper;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.fabric.tlp.CompletionStatus;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Device Lending sections 6 and 7.1 on a small fabric under the model-time kernel: endpoints A and
 * B below one switch, a root above it. With ACS redirect on the downstream ports and a relaying
 * root, A's read of B's BAR goes up through the root and back down, split into 64-byte reads; the
 * same fabric without them takes the shortest path across the switch.
 */
class PeerReadThroughRootTest {

  static final LinkParameters GEN3X4 = LinkParameters.gen3x4();
  static final AddressRange BELOW_SWITCH = new AddressRange(0x1000_0000L, 0x1FFF_FFFFL);
  static final AddressRange BAR_A = new AddressRange(0x1000_0000L, 0x10FF_FFFFL);
  static final AddressRange BAR_B = new AddressRange(0x1100_0000L, 0x11FF_FFFFL);
  static final long READ_AT = 1_000;
  static final long WRITE_AT = 200_000;
  static final long READ_ADDRESS = BAR_B.base() + 0x1000;
  static final long WRITE_ADDRESS = BAR_B.base() + 0x8000;

  /** What one run measured, all in model time. */
  record Outcome(long readLatency, byte[] data, long readsServedAtB, long writeArrivedAt, int writeRequester,
      long stragglers) {}

  static byte[] pattern(int n) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) (i * 7 + 3);
    }
    return b;
  }

  /** One run in a fresh actor system, every message serialized as across JVMs. */
  static Outcome run(boolean throughRoot) {
    ActorTestKit kit = FabricProbes.dataPlaneTestKit();
    try {
      return run(kit, throughRoot);
    } finally {
      kit.shutdownTestKit();
    }
  }

  static Outcome run(ActorTestKit kit, boolean throughRoot) {
    FabricSettings settings = FabricSettings.create(kit.system().settings().config());
    RoutingTable table = new RoutingTable(List.of(
        new PortConfig("up", 0, PortRole.UPSTREAM, 1, new BridgeRegisters(0, 1, 3, BELOW_SWITCH, null), null),
        new PortConfig("a", 1, PortRole.DOWNSTREAM, 1, new BridgeRegisters(1, 2, 2, BAR_A, null), null, throughRoot),
        new PortConfig("b", 2, PortRole.DOWNSTREAM, 1, new BridgeRegisters(1, 3, 3, BAR_B, null), null, throughRoot)),
        List.of());
    ActorRef<TimeKeeper.Command> keeper = kit.spawn(TimeKeeper.create(Set.of(
        "sw.up", "sw.a", "sw.b", "root", "epA", "epB")), "keeper");
    ActorRef<SwitchChip.Command> chip = kit.spawn(SwitchChip.create("sw", table, List.of(
        new SwitchChip.PortLink(0, GEN3X4, "root"),
        new SwitchChip.PortLink(1, GEN3X4, "epA"),
        new SwitchChip.PortLink(2, GEN3X4, "epB")), settings), "sw");
    ActorRef<MemoryEndpoint.Command> root = kit.spawn(MemoryEndpoint.create("root", Bdf.of(0, 0, 0), true,
        List.of(new AddressRange(0, 0xF_FFFFL)), GEN3X4, "sw.up", settings, InboundAccessCheck.allowAll(),
        List.of(), throughRoot ? RootRelay.Setup.untranslated(List.of(BELOW_SWITCH)) : null), "root");
    ActorRef<MemoryEndpoint.Command> epA = kit.spawn(MemoryEndpoint.create("epA", Bdf.of(2, 0, 0), false,
        List.of(BAR_A), GEN3X4, "sw.a", settings), "epA");
    ActorRef<MemoryEndpoint.Command> epB = kit.spawn(MemoryEndpoint.create("epB", Bdf.of(3, 0, 0), false,
        List.of(BAR_B), GEN3X4, "sw.b", settings), "epB");
    List<ActorRef<MemoryEndpoint.Command>> endpoints = List.of(root, epA, epB);
    for (ActorRef<MemoryEndpoint.Command> ep : endpoints) {
      FabricProbes.awaitActive(kit, ep);
    }
    epB.tell(new MemoryEndpoint.Store(READ_ADDRESS, pattern(256)));
    TestProbe<EndpointEvent> watch = kit.createTestProbe();
    epB.tell(new MemoryEndpoint.Watch(AddressRange.ofSize(WRITE_ADDRESS, 4), watch.ref()));
    chip.tell(new SwitchChip.Synchronize(keeper));
    for (ActorRef<MemoryEndpoint.Command> ep : endpoints) {
      ep.<PortMessage>unsafeUpcast().tell(new JoinKeeper(keeper));
    }
    TestProbe<TimeKeeper.Status> idle = kit.createTestProbe();
    keeper.tell(new TimeKeeper.AwaitIdle(idle.ref()));
    assertEquals(6, idle.receiveMessage(Duration.ofSeconds(10)).joined());

    // A's read and, later, its write enter the model at their stamps: hold, send, confirm, release.
    TestProbe<TimeKeeper.Status> held = kit.createTestProbe();
    keeper.tell(new TimeKeeper.HoldBefore(READ_AT, held.ref()));
    held.receiveMessage(Duration.ofSeconds(10));
    TestProbe<MemoryEndpoint.ReadResult> result = kit.createTestProbe();
    epA.tell(new MemoryEndpoint.Read(READ_ADDRESS, 256, READ_AT, result.ref()));
    epA.tell(new MemoryEndpoint.Write(WRITE_ADDRESS, new byte[] {1, 2, 3, 4}, WRITE_AT));
    TestProbe<TimeKeeper.Confirmed> confirmed = kit.createTestProbe();
    epA.<PortMessage>unsafeUpcast().tell(new TimeKeeper.Confirm(confirmed.ref()));
    confirmed.receiveMessage(Duration.ofSeconds(10));
    keeper.tell(new TimeKeeper.Release());

    MemoryEndpoint.ReadResult read = result.receiveMessage(Duration.ofSeconds(30));
    assertEquals(CompletionStatus.SUCCESSFUL, read.status());
    EndpointEvent.MemoryWritten written = watch.expectMessageClass(EndpointEvent.MemoryWritten.class,
        Duration.ofSeconds(30));
    keeper.tell(new TimeKeeper.AwaitIdle(idle.ref()));
    TimeKeeper.Status status = idle.receiveMessage(Duration.ofSeconds(30));
    return new Outcome(read.latencyNs(), read.data(), FabricProbes.stats(kit, epB).readsServed(), written.arrivedAt(),
        written.requester(), status.stragglers());
  }

  @Test
  void shouldSplitThePeerReadAtTheRootAndTakeLongerWhenAcsRedirectsItThroughARelayingRoot() {
    Outcome direct = run(false);
    Outcome relayed = run(true);
    Outcome again = run(true);

    assertArrayEquals(pattern(256), direct.data());
    assertArrayEquals(pattern(256), relayed.data(), "the root's 64-byte reads reassembled in A's request");
    assertEquals(1, direct.readsServedAtB(), "the shortest path: B serves A's one read");
    assertEquals(4, relayed.readsServedAtB(), "through the root: B serves four 64-byte reads");
    assertEquals(0, relayed.stragglers(), "every event was handled in model-time order");

    long relayLatency = FabricSettings.create(ConfigFactory.load()).rootComplex().latencyNs();
    assertTrue(relayed.readLatency() > direct.readLatency() + 2 * relayLatency,
        "relayed " + relayed.readLatency() + " ns vs direct " + direct.readLatency()
            + " ns: the root is crossed down and up, and two more links each way");
    assertTrue(relayed.writeArrivedAt() > direct.writeArrivedAt() + relayLatency,
        "the posted write crossed the root: " + relayed.writeArrivedAt() + " vs " + direct.writeArrivedAt());
    assertEquals(Bdf.of(2, 0, 0), relayed.writeRequester(), "a relayed write keeps A's requester ID");

    assertEquals(relayed.readLatency(), again.readLatency(), "the same model times in a fresh system");
    assertEquals(relayed.writeArrivedAt(), again.writeArrivedAt());
    assertEquals(relayed.readsServedAtB(), again.readsServedAtB());
  }
}
