package io.rackfabric.fabric.switchchip;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.config.ConfigSpace;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.link.LinkParameters;
import io.rackfabric.fabric.routing.BridgeRegisters;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.PortRole;
import io.rackfabric.fabric.routing.RoutingTable;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.fabric.stats.PortStats;
import io.rackfabric.fabric.testing.FabricProbes;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.fabric.tlp.CompletionStatus;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * One switch chip partitioned as in Ladon section 4.3.1: VS1 has the master root (scRc) on port 0 and
 * three downstream ports with an endpoint each; VS2 has only its upstream port 4 with the backup
 * root (scBmh). Both upstream ports carry the same bus numbers and window, as the BMH mirrors the
 * MMH's enumeration. Windows are 1 MiB aligned so configuration writes can express them.
 */
class SwitchChipTest {

  static final ActorTestKit testKit = FabricProbes.dataPlaneTestKit();
  static final FabricSettings settings = FabricSettings.create(testKit.system().settings().config());
  static final LinkParameters gen3x4 = LinkParameters.gen3x4();

  static final AddressRange SWITCH_WINDOW = new AddressRange(0x0100_0000L, 0x05FF_FFFFL);
  static final BridgeRegisters PORT2_BRIDGE =
      new BridgeRegisters(1, 3, 3, new AddressRange(0x0200_0000L, 0x02FF_FFFFL), null);

  static ActorRef<SwitchChip.Command> chip;
  static ActorRef<MemoryEndpoint.Command> rc;
  static ActorRef<MemoryEndpoint.Command> bmh;
  static ActorRef<MemoryEndpoint.Command> epA;
  static ActorRef<MemoryEndpoint.Command> epB;
  static ActorRef<MemoryEndpoint.Command> epC;

  @BeforeAll
  static void buildFabric() {
    RoutingTable table = new RoutingTable(List.of(
        new PortConfig("up", 0, PortRole.UPSTREAM, 1, new BridgeRegisters(0, 1, 5, SWITCH_WINDOW, null), null),
        new PortConfig("a", 1, PortRole.DOWNSTREAM, 1,
            new BridgeRegisters(1, 2, 2, new AddressRange(0x0100_0000L, 0x01FF_FFFFL), null), null),
        new PortConfig("b", 2, PortRole.DOWNSTREAM, 1, PORT2_BRIDGE, null),
        new PortConfig("c", 3, PortRole.DOWNSTREAM, 1,
            new BridgeRegisters(1, 4, 4, new AddressRange(0x0300_0000L, 0x03FF_FFFFL), null), null),
        new PortConfig("up2", 4, PortRole.UPSTREAM, 2, new BridgeRegisters(0, 1, 5, SWITCH_WINDOW, null), null)),
        List.of());
    chip = testKit.spawn(SwitchChip.create("scsw", table, List.of(
        new SwitchChip.PortLink(0, gen3x4, "scRc"),
        new SwitchChip.PortLink(1, gen3x4, "scA"),
        new SwitchChip.PortLink(2, gen3x4, "scB"),
        new SwitchChip.PortLink(3, gen3x4, "scC"),
        new SwitchChip.PortLink(4, gen3x4, "scBmh")), settings), "scsw");
    // The master root also owns [0x0600_0000, 0x06FF_FFFF]: outside the switch's window at first.
    rc = testKit.spawn(MemoryEndpoint.create("scRc", Bdf.of(0, 0, 0), true,
        List.of(new AddressRange(0x0, 0xF_FFFFL), new AddressRange(0x0500_0000L, 0x05FF_FFFFL)),
        gen3x4, "scsw.up", settings), "scRc");
    bmh = testKit.spawn(MemoryEndpoint.create("scBmh", Bdf.of(0, 0, 0), true,
        List.of(new AddressRange(0x0, 0xF_FFFFL)), gen3x4, "scsw.up2", settings), "scBmh");
    epA = testKit.spawn(MemoryEndpoint.create("scA", Bdf.of(2, 0, 0), false,
        List.of(new AddressRange(0x0100_0000L, 0x01FF_FFFFL)), gen3x4, "scsw.a", settings), "scA");
    epB = testKit.spawn(MemoryEndpoint.create("scB", Bdf.of(3, 0, 0), false,
        List.of(new AddressRange(0x0200_0000L, 0x02FF_FFFFL)), gen3x4, "scsw.b", settings), "scB");
    // C owns two BARs; only the first is behind its port's window until the root moves the window.
    epC = testKit.spawn(MemoryEndpoint.create("scC", Bdf.of(4, 0, 0), false,
        List.of(new AddressRange(0x0300_0000L, 0x03FF_FFFFL), new AddressRange(0x0400_0000L, 0x04FF_FFFFL)),
        gen3x4, "scsw.c", settings), "scC");
    for (ActorRef<MemoryEndpoint.Command> ep : List.of(rc, bmh, epA, epB, epC)) {
      awaitActive(ep);
    }
  }

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  static void awaitActive(ActorRef<MemoryEndpoint.Command> ep) {
    FabricProbes.awaitActive(testKit, ep);
  }

  static PortStats portStats(int number) {
    return FabricProbes.portStats(testKit, chip, number);
  }

  static EndpointStats stats(ActorRef<MemoryEndpoint.Command> ep) {
    return FabricProbes.stats(testKit, ep);
  }

  static RoutingTable table() {
    TestProbe<RoutingTable> probe = testKit.createTestProbe();
    chip.tell(new SwitchChip.GetRoutingTable(probe.ref()));
    return probe.receiveMessage();
  }

  static RoutingTable reassign(int port, int virtualSwitch) {
    TestProbe<RoutingTable> probe = testKit.createTestProbe();
    chip.tell(new SwitchChip.ReassignPorts(List.of(port), virtualSwitch, probe.ref()));
    return probe.receiveMessage();
  }

  static void awaitData(ActorRef<MemoryEndpoint.Command> ep, long address, byte[] expected) {
    FabricProbes.awaitData(testKit, ep, address, expected);
  }

  static byte[] peek(ActorRef<MemoryEndpoint.Command> ep, long address, int length) {
    return FabricProbes.peek(testKit, ep, address, length);
  }

  static MemoryEndpoint.ConfigResult config(int target, int type, int register, Integer value) {
    TestProbe<MemoryEndpoint.ConfigResult> probe = testKit.createTestProbe();
    rc.tell(new MemoryEndpoint.ConfigRequest(target, type, register, value, probe.ref()));
    return probe.receiveMessage();
  }

  /** The memory base/limit register value for a 1 MiB aligned window, as PCIe encodes it. */
  static int memoryRegister(long base, long limit) {
    return (int) (((base >>> 16) & 0xFFF0) | (((limit >>> 16) & 0xFFF0) << 16));
  }

  @Test
  void shouldPutAStampedReassignmentInForceAtOnceWhenThePortsRunFree() {
    long later = 10_000_000_000L; // far past anything this free-running fabric's writes carry
    TestProbe<RoutingTable> probe = testKit.createTestProbe();
    chip.tell(new SwitchChip.ReassignPorts(List.of(2), 2, later, probe.ref()));
    assertEquals(2, probe.receiveMessage().port(2).virtualSwitch());

    long droppedBefore = portStats(1).droppedPosted();
    epA.tell(new MemoryEndpoint.Write(0x0200_0400L, new byte[] {4, 4, 4, 4}));
    TestProbe<PortStats> dropped = testKit.createTestProbe();
    dropped.awaitAssert(() -> {
      assertEquals(droppedBefore + 1, portStats(1).droppedPosted(), "no model clock to wait for");
      return null;
    });

    chip.tell(new SwitchChip.ReassignPorts(List.of(2), 1, later, probe.ref()));
    assertEquals(1, probe.receiveMessage().port(2).virtualSwitch());
    byte[] after = {5, 5, 5, 5};
    epA.tell(new MemoryEndpoint.Write(0x0200_0500L, after));
    awaitData(epB, 0x0200_0500L, after);
  }

  @Test
  void shouldRefuseAReassignmentStampedBeforeModelTimeZero() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new SwitchChip.ReassignPorts(List.of(2), 2, -5, null));
    assertEquals("effectiveAt=-5 ns is negative (AT_ONCE is -1)", e.getMessage());
  }

  @Test
  void shouldStopForwardingBetweenVirtualSwitchesWhenPortIsReassignedAndRestoreItWhenMovedBack() {
    byte[] before = {1, 1, 1, 1};
    epA.tell(new MemoryEndpoint.Write(0x0200_0100L, before));
    awaitData(epB, 0x0200_0100L, before);

    RoutingTable moved = reassign(2, 2);
    assertEquals(2, moved.port(2).virtualSwitch());
    assertEquals(PORT2_BRIDGE, moved.port(2).bridge(), "reassignment must not touch the port's window");
    assertEquals(1, moved.port(1).virtualSwitch());
    assertEquals(moved, table());

    // A's write to B's window is now claimed by no port of VS1 (the address is inside VS1's
    // switch window): dropped and counted at A's port, never delivered.
    long droppedBefore = portStats(1).droppedPosted();
    long receivedBefore = stats(epB).writesReceived();
    epA.tell(new MemoryEndpoint.Write(0x0200_0200L, new byte[] {2, 2, 2, 2}));
    TestProbe<PortStats> dropped = testKit.createTestProbe();
    dropped.awaitAssert(() -> {
      assertEquals(droppedBefore + 1, portStats(1).droppedPosted());
      return null;
    });
    assertEquals(receivedBefore, stats(epB).writesReceived());
    assertArrayEquals(new byte[4], peek(epB, 0x0200_0200L, 4));
    // And a read across the partition boundary is answered with Unsupported Request.
    TestProbe<MemoryEndpoint.ReadResult> read = testKit.createTestProbe();
    epA.tell(new MemoryEndpoint.Read(0x0200_0100L, 4, read.ref()));
    assertEquals(CompletionStatus.UNSUPPORTED_REQUEST, read.receiveMessage().status());

    // The moved port now forms a hierarchy with VS2's root, through the same window.
    byte[] fromBmh = {3, 3, 3, 3};
    bmh.tell(new MemoryEndpoint.Write(0x0200_0300L, fromBmh));
    awaitData(epB, 0x0200_0300L, fromBmh);
    bmh.tell(new MemoryEndpoint.Read(0x0200_0300L, 4, read.ref()));
    MemoryEndpoint.ReadResult viaVs2 = read.receiveMessage();
    assertEquals(CompletionStatus.SUCCESSFUL, viaVs2.status());
    assertArrayEquals(fromBmh, viaVs2.data());

    RoutingTable back = reassign(2, 1);
    assertEquals(1, back.port(2).virtualSwitch());
    assertEquals(PORT2_BRIDGE, back.port(2).bridge(), "moving back must not touch the port's window");
    byte[] after = {4, 4, 4, 4};
    epA.tell(new MemoryEndpoint.Write(0x0200_0400L, after));
    awaitData(epB, 0x0200_0400L, after);
    epA.tell(new MemoryEndpoint.Read(0x0200_0400L, 4, read.ref()));
    assertArrayEquals(after, read.receiveMessage().data());
    // VS2's root no longer reaches it: its upstream port has no downstream port left.
    bmh.tell(new MemoryEndpoint.Read(0x0200_0400L, 4, read.ref()));
    assertEquals(CompletionStatus.UNSUPPORTED_REQUEST, read.receiveMessage().status());
  }

  @Test
  void shouldRouteByNewWindowWhenRootWritesDownstreamPortMemoryRegister() {
    int port3 = Bdf.of(1, 3, 0); // type 1 to the internal bus: device = downstream port number
    assertEquals(memoryRegister(0x0300_0000L, 0x03FF_FFFFL), config(port3, 1, ConfigSpace.REG_MEMORY, null).value());
    // Before: C's second BAR is behind no window, so a write to it from the root is dropped.
    long droppedBefore = portStats(0).droppedPosted();
    rc.tell(new MemoryEndpoint.Write(0x0400_0010L, new byte[] {9, 9, 9, 9}));
    TestProbe<PortStats> dropped = testKit.createTestProbe();
    dropped.awaitAssert(() -> {
      assertEquals(droppedBefore + 1, portStats(0).droppedPosted());
      return null;
    });

    MemoryEndpoint.ConfigResult written =
        config(port3, 1, ConfigSpace.REG_MEMORY, memoryRegister(0x0400_0000L, 0x04FF_FFFFL));
    assertEquals(CompletionStatus.SUCCESSFUL, written.status());

    assertEquals(new AddressRange(0x0400_0000L, 0x04FF_FFFFL), table().port(3).bridge().memory());
    assertEquals(memoryRegister(0x0400_0000L, 0x04FF_FFFFL), config(port3, 1, ConfigSpace.REG_MEMORY, null).value());
    byte[] data = {5, 6, 7, 8};
    rc.tell(new MemoryEndpoint.Write(0x0400_0020L, data));
    awaitData(epC, 0x0400_0020L, data);
    assertArrayEquals(new byte[4], peek(epC, 0x0400_0010L, 4), "the earlier write must stay dropped");
    // The old window is no longer C's.
    TestProbe<MemoryEndpoint.ReadResult> read = testKit.createTestProbe();
    rc.tell(new MemoryEndpoint.Read(0x0300_0000L, 4, read.ref()));
    assertEquals(CompletionStatus.UNSUPPORTED_REQUEST, read.receiveMessage().status());

    config(port3, 1, ConfigSpace.REG_MEMORY, memoryRegister(0x0300_0000L, 0x03FF_FFFFL));
    assertEquals(new AddressRange(0x0300_0000L, 0x03FF_FFFFL), table().port(3).bridge().memory());
  }

  @Test
  void shouldSendUpstreamWhatLeavesTheShrunkWindowWhenRootWritesUpstreamPortMemoryRegister() {
    int upstream = Bdf.of(0, 0, 0); // type 0: the upstream port's own registers
    assertEquals(memoryRegister(0x0100_0000L, 0x05FF_FFFFL),
        config(upstream, 0, ConfigSpace.REG_MEMORY, null).value());
    // Inside the switch's window and claimed by no port: an endpoint's read gets UR at its port.
    TestProbe<MemoryEndpoint.ReadResult> read = testKit.createTestProbe();
    epA.tell(new MemoryEndpoint.Read(0x0500_0000L, 4, read.ref()));
    assertEquals(CompletionStatus.UNSUPPORTED_REQUEST, read.receiveMessage().status());

    assertEquals(CompletionStatus.SUCCESSFUL,
        config(upstream, 0, ConfigSpace.REG_MEMORY, memoryRegister(0x0100_0000L, 0x04FF_FFFFL)).status());
    assertEquals(new AddressRange(0x0100_0000L, 0x04FF_FFFFL), table().port(0).bridge().memory());
    assertEquals(SWITCH_WINDOW, table().port(4).bridge().memory(), "VS2's upstream port is another bridge");

    // Now the address is outside the switch: routed upstream to the root, which owns it.
    byte[] data = {7, 7, 7, 7};
    epA.tell(new MemoryEndpoint.Write(0x0500_0040L, data));
    awaitData(rc, 0x0500_0040L, data);
    epA.tell(new MemoryEndpoint.Read(0x0500_0040L, 4, read.ref()));
    MemoryEndpoint.ReadResult r = read.receiveMessage();
    assertEquals(CompletionStatus.SUCCESSFUL, r.status());
    assertArrayEquals(data, r.data());

    config(upstream, 0, ConfigSpace.REG_MEMORY, memoryRegister(0x0100_0000L, 0x05FF_FFFFL));
    assertEquals(SWITCH_WINDOW, table().port(0).bridge().memory());
  }

  @Test
  void shouldAnswerEndpointIdWhenRootReadsBelowADownstreamPortWithType1() {
    // Bus 3 is port 2's secondary bus: the port turns the type 1 request into type 0 for B.
    MemoryEndpoint.ConfigResult id = config(Bdf.of(3, 0, 0), 1, ConfigSpace.REG_ID, null);
    assertEquals(CompletionStatus.SUCCESSFUL, id.status());
    assertEquals((ConfigSpace.DEVICE_MEMORY << 16) | ConfigSpace.VENDOR_EMULATED, id.value());
    MemoryEndpoint.ConfigResult port = config(Bdf.of(1, 2, 0), 1, ConfigSpace.REG_ID, null);
    assertEquals((ConfigSpace.DEVICE_SWITCH_PORT << 16) | ConfigSpace.VENDOR_PLX, port.value());
  }
}
