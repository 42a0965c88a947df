package io.rackfabric.fabric.endpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.config.ConfigSpace;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * A root's completion timeout for configuration requests is a model-time decision under the
 * kernel: a request nobody completes (a switch drops one from below a downstream port) is answered
 * as completed by nobody exactly the timeout later, and a request completed in time takes its
 * timeout back, so the rack's clock does not move to it.
 */
class ConfigCompletionTimeoutTest {

  static final ActorTestKit testKit = FabricProbes.dataPlaneTestKit();
  static final FabricSettings settings = FabricSettings.create(testKit.system().settings().config());
  static final LinkParameters gen3x4 = LinkParameters.gen3x4();
  static final Duration WAIT = Duration.ofSeconds(10);

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  record Rack(ActorRef<MemoryEndpoint.Command> root, ActorRef<MemoryEndpoint.Command> device,
      ActorRef<TimeKeeper.Command> keeper) {}

  /** root - up [sw] down - device, all under one keeper. */
  static Rack rack(String p) {
    RoutingTable table = new RoutingTable(List.of(
        new PortConfig("up", 0, PortRole.UPSTREAM, 1,
            new BridgeRegisters(0, 1, 2, new AddressRange(0x1000_0000L, 0x10FF_FFFFL), null), null),
        new PortConfig("down", 1, PortRole.DOWNSTREAM, 1,
            new BridgeRegisters(1, 2, 2, new AddressRange(0x1000_0000L, 0x10FF_FFFFL), null), null)),
        List.of());
    ActorRef<TimeKeeper.Command> keeper = testKit.spawn(TimeKeeper.create(Set.of(
        p + "sw.up", p + "sw.down", p + "root", p + "dev")), p + "keeper");
    ActorRef<SwitchChip.Command> chip = testKit.spawn(SwitchChip.create(p + "sw", table, List.of(
        new SwitchChip.PortLink(0, gen3x4, p + "root"),
        new SwitchChip.PortLink(1, gen3x4, p + "dev")), settings), p + "sw");
    ActorRef<MemoryEndpoint.Command> root = testKit.spawn(MemoryEndpoint.create(p + "root", Bdf.of(0, 0, 0), true,
        List.of(new AddressRange(0, 0xF_FFFFL)), gen3x4, p + "sw.up", settings), p + "root");
    ActorRef<MemoryEndpoint.Command> device = testKit.spawn(MemoryEndpoint.create(p + "dev", Bdf.of(2, 0, 0), false,
        List.of(new AddressRange(0x1000_0000L, 0x10FF_FFFFL)), gen3x4, p + "sw.down", settings), p + "dev");
    FabricProbes.awaitActive(testKit, root);
    FabricProbes.awaitActive(testKit, device);
    chip.tell(new SwitchChip.Synchronize(keeper));
    for (ActorRef<MemoryEndpoint.Command> ep : List.of(root, device)) {
      ep.<PortMessage>unsafeUpcast().tell(new JoinKeeper(keeper));
    }
    assertEquals(4, idle(keeper).joined());
    return new Rack(root, device, keeper);
  }

  static TimeKeeper.Status idle(ActorRef<TimeKeeper.Command> keeper) {
    TestProbe<TimeKeeper.Status> probe = testKit.createTestProbe();
    keeper.tell(new TimeKeeper.AwaitIdle(probe.ref()));
    return probe.receiveMessage(WAIT);
  }

  @Test
  void shouldAnswerADroppedRequestAsCompletedByNobodyExactlyAtTheTimeoutWhenUnderTheKernel() {
    Rack r = rack("cto1-");
    long before = idle(r.keeper()).reached();
    TestProbe<MemoryEndpoint.ConfigResult> answer = testKit.createTestProbe();
    // A second root below the downstream port enumerating: the switch drops it without a word.
    r.device().tell(new MemoryEndpoint.ConfigRequest(Bdf.of(1, 0, 0), 1, ConfigSpace.REG_ID, null, answer.ref()));
    MemoryEndpoint.ConfigResult result = answer.receiveMessage(WAIT);
    assertNull(result.status(), result.toString());
    assertEquals(settings.completionTimeoutNs(), result.latencyNs());
    assertTrue(idle(r.keeper()).reached() >= before + settings.completionTimeoutNs(), "the rack waited it out");
  }

  @Test
  void shouldTakeTheTimeoutBackWhenTheCompletionComesFirst() {
    Rack r = rack("cto2-");
    TestProbe<MemoryEndpoint.ConfigResult> answer = testKit.createTestProbe();
    r.root().tell(new MemoryEndpoint.ConfigRequest(Bdf.of(2, 0, 0), 0, ConfigSpace.REG_ID, null, answer.ref()));
    MemoryEndpoint.ConfigResult result = answer.receiveMessage(WAIT);
    assertEquals(CompletionStatus.SUCCESSFUL, result.status());
    TimeKeeper.Status after = idle(r.keeper());
    assertTrue(after.reached() < settings.completionTimeoutNs(),
        "reached " + after.reached() + " ns: the clock must not move to the timeout");
    answer.expectNoMessage(Duration.ofMillis(200));
  }
}
