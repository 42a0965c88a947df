package io.rackfabric.fabric.switchchip;

import static org.junit.jupiter.api.Assertions.assertEquals;

import akka.actor.Address;
import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.control.ForeignRefs;
import io.rackfabric.fabric.routing.BridgeRegisters;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.PortRole;
import io.rackfabric.fabric.routing.RoutingTable;
import io.rackfabric.fabric.settings.FabricSettings;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** A partition change (fencing) is applied from this node and dropped from a foreign member. */
class ReassignPortsGuardTest {

  static final ActorTestKit testKit = ActorTestKit.create();
  static final FabricSettings settings = FabricSettings.create(testKit.system().settings().config());

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  static ActorRef<SwitchChip.Command> chip(String id) {
    RoutingTable table = new RoutingTable(List.of(
        new PortConfig("up", 0, PortRole.UPSTREAM, 1,
            new BridgeRegisters(0, 1, 2, new AddressRange(0x1000_0000L, 0x1FFF_FFFFL), null), null),
        new PortConfig("down", 1, PortRole.DOWNSTREAM, 1,
            new BridgeRegisters(1, 2, 2, new AddressRange(0x1000_0000L, 0x10FF_FFFFL), null), null)),
        List.of());
    return testKit.spawn(SwitchChip.create(id, table, List.of(), settings), id);
  }

  static int virtualSwitchOf(ActorRef<SwitchChip.Command> chip, int port) {
    TestProbe<RoutingTable> probe = testKit.createTestProbe();
    chip.tell(new SwitchChip.GetRoutingTable(probe.ref()));
    return probe.receiveMessage().port(port).virtualSwitch();
  }

  @Test
  void shouldDropAReassignmentWhenItComesFromAForeignMember() {
    ActorRef<SwitchChip.Command> chip = chip("rgForeign");
    ActorRef<RoutingTable> stranger = ForeignRefs.<RoutingTable>at(new Address("akka", "rack", "10.0.0.66", 25520),
        "rogue");
    chip.tell(new SwitchChip.ReassignPorts(List.of(1), 2, stranger));
    assertEquals(1, virtualSwitchOf(chip, 1), "the port stays in its partition");
  }

  @Test
  void shouldApplyAReassignmentWhenItComesFromThisNode() {
    ActorRef<SwitchChip.Command> chip = chip("rgLocal");
    TestProbe<RoutingTable> local = testKit.createTestProbe();
    chip.tell(new SwitchChip.ReassignPorts(List.of(1), 2, local.ref()));
    assertEquals(2, local.receiveMessage().port(1).virtualSwitch());
    assertEquals(2, virtualSwitchOf(chip, 1));
  }
}
