package io.rackfabric.fabric.routing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.ntb.NtbBar;
import io.rackfabric.fabric.ntb.NtbConfig;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.fabric.tlp.Completion;
import io.rackfabric.fabric.tlp.CompletionStatus;
import io.rackfabric.fabric.tlp.ConfigRead;
import io.rackfabric.fabric.tlp.ConfigWrite;
import io.rackfabric.fabric.tlp.ErrorMessage;
import io.rackfabric.fabric.tlp.MemRead;
import io.rackfabric.fabric.tlp.MemWrite;
import io.rackfabric.fabric.tlp.Tlp;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SwitchRouterTest {

  private static final int RC = Bdf.of(0, 0, 0);

  private static PortConfig bridgePort(String name, int number, PortRole role, int vs,
      int primary, int secondary, int subordinate, AddressRange memory, AddressRange prefetchable) {
    return new PortConfig(name, number, role, vs,
        new BridgeRegisters(primary, secondary, subordinate, memory, prefetchable), null);
  }

  private static AddressRange range(long base, long limit) {
    return new AddressRange(base, limit);
  }

  private static MemWrite write(long address) {
    return new MemWrite(RC, 1, 0, address, 4, null, 0, 0);
  }

  private static MemRead read(long address) {
    return new MemRead(RC, 1, 0, address, 64, 0, 0);
  }

  private static Completion completionFor(int requester) {
    return new Completion(Bdf.of(9, 0, 0), requester, 1, 0, CompletionStatus.SUCCESSFUL, 4, 0, 4,
        null, 0, 0);
  }

  private static int forward(RoutingTable table, int ingress, Tlp tlp) {
    return forwardPort(SwitchRouter.route(table, ingress, tlp));
  }

  private static void assertUnsupported(RoutingTable table, int ingress, Tlp tlp) {
    RouteDecision d = SwitchRouter.route(table, ingress, tlp);
    assertInstanceOf(RouteDecision.Unsupported.class, d, tlp + " -> " + d);
  }

  private static ConfigRead cfgRead(int bus, int device, int type) {
    return new ConfigRead(RC, 1, Bdf.of(bus, device, 0), type, 0, 0);
  }

  private static int forwardPort(RouteDecision d) {
    return assertInstanceOf(RouteDecision.Forward.class, d, String.valueOf(d)).port();
  }

  // ------------------------------------------------------------------ Ladon Fig. 1

  /** Sw1: the root complex above, "right" toward Sw2. */
  private static final RoutingTable SW1 = new RoutingTable(List.of(
      bridgePort("up", 0, PortRole.UPSTREAM, 1, 0, 1, 4, range(0x90000L, 0xEFFFFL), null),
      bridgePort("right", 1, PortRole.DOWNSTREAM, 1, 1, 2, 4, range(0x90000L, 0xEFFFFL), null)),
      List.of());

  /** Sw2: its upstream port below Sw1's "right", a downstream port to EP2. */
  private static final RoutingTable SW2 = new RoutingTable(List.of(
      bridgePort("up", 0, PortRole.UPSTREAM, 1, 2, 3, 4, range(0x90000L, 0xEFFFFL), null),
      bridgePort("ep2", 2, PortRole.DOWNSTREAM, 1, 3, 4, 4, range(0xA0000L, 0xEFFFFL), null)),
      List.of());

  @Test
  void shouldRouteToRightThenToEp2WhenRootSendsFig1Address() {
    RouteDecision first = SwitchRouter.route(SW1, 0, write(0xB0040L));
    assertEquals(1, forwardPort(first));
    assertTrue(((RouteDecision.Forward) first).why().contains("0xB0040"), first.toString());
    assertTrue(((RouteDecision.Forward) first).why().contains("right"), first.toString());
    assertEquals(2, forward(SW2, 0, write(0xB0040L)));
    assertEquals(2, forward(SW2, 0, read(0xB0040L)));
  }

  @Test
  void shouldRejectAtSw2WhenFig1AddressIsBelowEp2Window() {
    // 0x90040 is in Sw1's "right" window but below EP2's [0xA0000, 0xEFFFF].
    assertEquals(1, forward(SW1, 0, write(0x90040L)));
    assertUnsupported(SW2, 0, write(0x90040L));
  }

  @Test
  void shouldForwardDownBothSwitchesWhenFig1ConfigType1TargetsBus4() {
    ConfigRead cfg = cfgRead(4, 0, 1);
    assertEquals(1, forward(SW1, 0, cfg));
    assertEquals(2, forward(SW2, 0, cfg));
  }

  @Test
  void shouldRouteUpBothSwitchesWhenFig1CompletionIsForTheRoot() {
    assertEquals(0, forward(SW2, 2, completionFor(RC)));
    assertEquals(0, forward(SW1, 1, completionFor(RC)));
  }

  // ------------------------------------------------------------------ a richer switch

  private static final AddressRange D1_MEM = range(0x100000L, 0x1FFFFFL);
  private static final AddressRange D2_MEM = range(0x200000L, 0x2FFFFFL);
  private static final AddressRange D2_PREF = range(0x8_0000_0000L, 0x8_FFFF_FFFFL);
  private static final AddressRange NTB_BAR = range(0x300000L, 0x3FFFFFL);
  private static final AddressRange D5_MEM = range(0x400000L, 0x47FFFFL);
  private static final AddressRange MC_WINDOW = range(0xF00000L, 0xF0FFFFL);

  /**
   * VS1: upstream 0 (MMH, buses [0,1,9], window [0x100000, 0x4FFFFF]), downstream 1 and 2, NTB 3.
   * VS2: upstream 8 (BMH, buses [0,20,29]), downstream 5. Internal bus of VS1 is 1, of VS2 20.
   */
  private static RoutingTable rack(List<MulticastGroup> groups) {
    return new RoutingTable(List.of(
        bridgePort("mmh", 0, PortRole.UPSTREAM, 1, 0, 1, 9, range(0x100000L, 0x4FFFFFL), null),
        bridgePort("d1", 1, PortRole.DOWNSTREAM, 1, 1, 2, 3, D1_MEM, null),
        bridgePort("d2", 2, PortRole.DOWNSTREAM, 1, 1, 4, 5, D2_MEM, D2_PREF),
        new PortConfig("ch1", 3, PortRole.NTB, 1, null,
            new NtbConfig(Bdf.of(0, 2, 0), List.of(new NtbBar(NTB_BAR, 0x0L)), List.of())),
        bridgePort("d5", 5, PortRole.DOWNSTREAM, 2, 20, 21, 21, D5_MEM, null),
        bridgePort("bmh", 8, PortRole.UPSTREAM, 2, 0, 20, 29, range(0x400000L, 0x4FFFFFL), null)),
        groups);
  }

  private static final RoutingTable RACK = rack(List.of());

  @Test
  void shouldForwardPeerToPeerWhenTargetIsAnotherDownstreamWindow() {
    assertEquals(2, forward(RACK, 1, write(0x200040L)));
    assertEquals(1, forward(RACK, 2, read(0x1FFFFCL)));
    RouteDecision toNtb = SwitchRouter.route(RACK, 1, write(0x300040L));
    assertEquals(3, forwardPort(toNtb));
    assertTrue(((RouteDecision.Forward) toNtb).why().contains("NTB"), toNtb.toString());
    assertEquals(2, forward(RACK, 3, read(0x200000L))); // from the NTB
  }

  @Test
  void shouldForwardByPrefetchableWindowWhenAddressIsAbove4GiB() {
    RouteDecision d = SwitchRouter.route(RACK, 0, write(0x8_1234_5678L));
    assertEquals(2, forwardPort(d));
    assertTrue(((RouteDecision.Forward) d).why().contains("prefetchable"), d.toString());
  }

  @Test
  void shouldGoUpstreamWhenDownstreamTlpIsOutsideEveryWindow() {
    assertEquals(0, forward(RACK, 1, write(0x40L))); // host memory
    assertEquals(0, forward(RACK, 3, read(0x9_0000_0000L)));
    assertEquals(0, forward(RACK, 2, write(0x500000L))); // just above
  }

  @Test
  void shouldBeUnsupportedWhenDownstreamTlpIsInsideSwitchWindowButClaimedByNoPort() {
    // 0x480000 is inside mmh's [0x100000, 0x4FFFFF] and behind no VS1 port.
    RouteDecision d = SwitchRouter.route(RACK, 1, write(0x480000L));
    assertInstanceOf(RouteDecision.Unsupported.class, d);
  }

  @Test
  void shouldBeUnsupportedWhenAddressFromUpstreamIsClaimedByNoDownstreamPort() {
    assertUnsupported(RACK, 0, write(0x480000L));
    assertUnsupported(RACK, 0, read(0x40L));
    assertUnsupported(RACK, 0, read(-1L));
  }

  @Test
  void shouldBeUnsupportedWhenAddressIsInsideTheIngressPortsOwnWindow() {
    RouteDecision d = SwitchRouter.route(RACK, 1, write(0x100040L));
    RouteDecision.Unsupported u = assertInstanceOf(RouteDecision.Unsupported.class, d);
    assertTrue(u.why().contains("ingress"), u.why());
    assertUnsupported(RACK, 2, read(0x8_0000_0000L));
    assertUnsupported(RACK, 3, write(0x300000L));
  }

  @Test
  void shouldForwardToCoveringPortWhenConfigType1TargetsABusBelowIt() {
    for (int bus = 2; bus <= 3; bus++) {
      assertEquals(1, forward(RACK, 0, cfgRead(bus, 0, 1)));
    }
    for (int bus = 4; bus <= 5; bus++) {
      assertEquals(2, forward(RACK, 0, new ConfigWrite(RC, 1, Bdf.of(bus, 1, 0), 1, 4, 7, 0)));
    }
    // bus 7: inside mmh's [1, 9] but below no port; bus 21: below a VS2 port.
    assertUnsupported(RACK, 0, cfgRead(7, 0, 1));
    assertUnsupported(RACK, 0, cfgRead(21, 0, 1));
  }

  @Test
  void shouldTargetPortNumberedByDeviceWhenConfigType1IsForTheInternalBus() {
    assertEquals(new RouteDecision.LocalConfig(2),
        SwitchRouter.route(RACK, 0, cfgRead(1, 2, 1)));
    assertEquals(new RouteDecision.LocalConfig(3), // the NTB's link-side endpoint
        SwitchRouter.route(RACK, 0, new ConfigWrite(RC, 1, Bdf.of(1, 3, 0), 1, 4, 0x300000, 0)));
    assertUnsupported(RACK, 0, cfgRead(1, 7, 1)); // no port 7
    assertUnsupported(RACK, 0, cfgRead(1, 5, 1)); // port 5 is in VS2
  }

  @Test
  void shouldTargetIngressPortWhenConfigIsType0FromUpstreamOrArrivesAtNtb() {
    assertEquals(new RouteDecision.LocalConfig(0),
        SwitchRouter.route(RACK, 0, cfgRead(0, 0, 0)));
    assertEquals(new RouteDecision.LocalConfig(3),
        SwitchRouter.route(RACK, 3, new ConfigRead(Bdf.of(0, 0, 0), 1, Bdf.of(0, 2, 0), 0, 0, 0)));
  }

  @Test
  void shouldSilentlyDropConfigWhenItArrivesOnADownstreamPort() {
    // Multi-peer: a second root complex below a downstream port must not enumerate the tree.
    Tlp[] cfgs = {
      cfgRead(1, 2, 1),
      cfgRead(0, 0, 0),
      new ConfigWrite(RC, 1, Bdf.of(4, 0, 0), 1, 4, 0, 0),
    };
    for (Tlp cfg : cfgs) {
      for (int downstream : new int[] {1, 2, 5}) {
        RouteDecision d = SwitchRouter.route(RACK, downstream, cfg);
        assertInstanceOf(RouteDecision.SilentDrop.class, d, cfg + " on port " + downstream);
      }
    }
  }

  @Test
  void shouldRouteByRequesterBusWhenTlpIsACompletion() {
    assertEquals(2, forward(RACK, 0, completionFor(Bdf.of(5, 0, 0))));
    assertEquals(1, forward(RACK, 2, completionFor(Bdf.of(3, 1, 2))));
    assertEquals(0, forward(RACK, 1, completionFor(RC)));
    // A proxy requester ID of the NTB's link-side endpoint: internal bus 1, device 3.
    assertEquals(3, forward(RACK, 1, completionFor(Bdf.of(1, 3, 4))));
    // From above, for a bus below no port; from below, for a bus inside the switch's range.
    assertUnsupported(RACK, 0, completionFor(Bdf.of(7, 0, 0)));
    assertUnsupported(RACK, 1, completionFor(Bdf.of(8, 0, 0)));
    assertUnsupported(RACK, 1, completionFor(Bdf.of(2, 0, 0))); // never back out of its ingress
  }

  @Test
  void shouldGoToUpstreamPortOfIngressVirtualSwitchWhenTlpIsAnErrorMessage() {
    ErrorMessage err = new ErrorMessage(Bdf.of(4, 0, 0), ErrorMessage.Severity.FATAL,
        ErrorMessage.Cause.SURPRISE_DOWN, 0);
    assertEquals(0, forward(RACK, 2, err));
    assertEquals(0, forward(RACK, 3, err));
    assertEquals(8, forward(RACK, 5, err));
    assertInstanceOf(RouteDecision.SilentDrop.class, SwitchRouter.route(RACK, 0, err));
  }

  @Test
  void shouldBeUnsupportedWhenIngressPortDoesNotExist() {
    assertUnsupported(RACK, 17, write(0x200000L));
  }

  // ------------------------------------------------------------------ virtual switches

  @Test
  void shouldNotReachPortWhenItBelongsToAnotherVirtualSwitch() {
    // d5's window is inside mmh's window, but d5 belongs to VS2.
    assertUnsupported(RACK, 0, write(0x400040L));
    assertUnsupported(RACK, 1, write(0x400040L));
    assertEquals(5, forward(RACK, 8, write(0x400040L)));
    // and VS2 does not reach VS1's ports
    assertUnsupported(RACK, 8, write(0x200040L));
    assertEquals(8, forward(RACK, 5, write(0x200040L))); // up to the BMH
  }

  @Test
  void shouldKeepWindowAndRouteWithinNewVirtualSwitchWhenPortIsMoved() {
    RoutingTable moved = RACK.withPort(RACK.port(5).withVirtualSwitch(1));
    assertEquals(D5_MEM, moved.port(5).bridge().memory());
    assertEquals(21, moved.port(5).bridge().secondaryBus());
    assertEquals(5, forward(moved, 0, write(0x400040L)));
    assertEquals(5, forward(moved, 1, read(0x47FFFFL)));
    assertUnsupported(moved, 8, write(0x400040L));
    assertEquals(RACK.ports().size(), moved.ports().size());
    assertEquals(2, RACK.port(5).virtualSwitch()); // the old snapshot is untouched
  }

  @Test
  void shouldKeepPeerToPeerRoutesWhenBackupTakesOverEveryPortButTheMasters() {
    // Ladon section 4.3.1: reassign every VS1 port except the MMH's to VS2; routing state is unchanged.
    RoutingTable t = RACK;
    for (int n : new int[] {1, 2, 3}) {
      t = t.withPort(t.port(n).withVirtualSwitch(2));
    }
    assertEquals(2, forward(t, 1, write(0x200040L)));
    assertEquals(3, forward(t, 2, write(0x300040L)));
    assertEquals(1, forward(t, 8, read(0x100040L))); // the BMH reaches them
    assertEquals(8, forward(t, 1, new ErrorMessage(Bdf.of(2, 0, 0),
        ErrorMessage.Severity.FATAL, ErrorMessage.Cause.SURPRISE_DOWN, 0)));
    // The MMH is cut off from them: it is fenced.
    assertUnsupported(t, 0, write(0x200040L));
    assertUnsupported(t, 0, new ConfigWrite(RC, 1, Bdf.of(4, 0, 0), 1, 4, 0, 0));
  }

  // ------------------------------------------------------------------ multicast

  @Test
  void shouldReplicateToOtherMembersOfSameVirtualSwitchWhenWriteHitsGroupWindow() {
    RoutingTable t = rack(List.of(new MulticastGroup(7, MC_WINDOW, List.of(1, 2, 3, 5))));
    RouteDecision.Multicast fromD1 =
        assertInstanceOf(RouteDecision.Multicast.class, SwitchRouter.route(t, 1, write(0xF00040L)));
    assertEquals(7, fromD1.group());
    assertArrayEquals(new int[] {2, 3}, fromD1.ports()); // not 1 (ingress), not 5 (VS2)
    RouteDecision.Multicast fromUp =
        assertInstanceOf(RouteDecision.Multicast.class, SwitchRouter.route(t, 0, write(0xF0FFFCL)));
    assertArrayEquals(new int[] {1, 2, 3}, fromUp.ports());
    // From VS2 only VS2 members, and d5 is the ingress itself: nothing to do.
    assertInstanceOf(RouteDecision.SilentDrop.class, SwitchRouter.route(t, 5, write(0xF00040L)));
    RouteDecision fromBmh = SwitchRouter.route(t, 8, write(0xF00040L));
    assertArrayEquals(
        new int[] {5}, assertInstanceOf(RouteDecision.Multicast.class, fromBmh).ports());
  }

  @Test
  void shouldRouteByAddressWhenNotAPostedWriteIntoAGroupWindow() {
    RoutingTable t = rack(List.of(new MulticastGroup(7, MC_WINDOW, List.of(1, 2, 3))));
    assertEquals(2, forward(t, 1, write(0x200040L))); // outside the group
    // A read of a multicast address is not replicated.
    assertTrue(!(SwitchRouter.route(t, 1, read(0xF00040L)) instanceof RouteDecision.Multicast));
  }

  @Test
  void shouldSkipMembersThatAreNotPortsWhenReplicating() {
    RoutingTable t = rack(List.of(new MulticastGroup(1, MC_WINDOW, List.of(2, 30))));
    RouteDecision d = SwitchRouter.route(t, 0, write(0xF00000L));
    assertArrayEquals(new int[] {2}, assertInstanceOf(RouteDecision.Multicast.class, d).ports());
  }

  // ------------------------------------------------------------------ table and registers

  @Test
  void shouldRejectTableWhenTwoPortsShareANumber() {
    List<PortConfig> ports = new ArrayList<>(RACK.ports());
    ports.add(bridgePort("dup", 2, PortRole.DOWNSTREAM, 1, 1, 6, 6, null, null));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new RoutingTable(ports, List.of()));
    assertTrue(e.getMessage().contains("number=2"), e.getMessage());
  }

  @Test
  void shouldFindUpstreamAndInternalBusWhenAskedPerVirtualSwitch() {
    assertEquals(0, RACK.upstream(1).number());
    assertEquals(8, RACK.upstream(2).number());
    assertEquals(1, RACK.internalBus(1));
    assertEquals(20, RACK.internalBus(2));
    RoutingTable noUp = new RoutingTable(List.of(RACK.port(1)), List.of());
    assertNull(noUp.upstream(1));
    assertEquals(-1, noUp.internalBus(1));
    assertNull(RACK.port(4));
  }

  @Test
  void shouldRejectWithNameAndValueWhenRegistersOrPortAreInvalid() {
    IllegalArgumentException sub = assertThrows(IllegalArgumentException.class,
        () -> new BridgeRegisters(0, 5, 4, null, null));
    assertTrue(sub.getMessage().contains("subordinate=4"), sub.getMessage());
    IllegalArgumentException bus = assertThrows(IllegalArgumentException.class,
        () -> new BridgeRegisters(0, 1, 256, null, null));
    assertTrue(bus.getMessage().contains("subordinate=256"), bus.getMessage());
    IllegalArgumentException vs = assertThrows(IllegalArgumentException.class,
        () -> RACK.port(1).withVirtualSwitch(3));
    assertTrue(vs.getMessage().contains("virtual-switch=3"), vs.getMessage());
    BridgeRegisters regs = new BridgeRegisters(0, 1, 1, null, null);
    IllegalArgumentException ntb = assertThrows(IllegalArgumentException.class,
        () -> new PortConfig("n", 4, PortRole.NTB, 1, regs, null));
    assertTrue(ntb.getMessage().contains("needs ntb"), ntb.getMessage());
    IllegalArgumentException num = assertThrows(IllegalArgumentException.class,
        () -> new PortConfig("n", 32, PortRole.DOWNSTREAM, 1, regs, null));
    assertTrue(num.getMessage().contains("number=32"), num.getMessage());
  }

  @Test
  void shouldClaimNothingWhenWindowsAreDisabled() {
    RoutingTable t = RACK.withPort(RACK.port(2).withBridge(RACK.port(2).bridge().withMemory(null)));
    assertUnsupported(t, 0, write(0x200040L));
    assertEquals(2, forward(t, 0, write(0x8_0000_0000L))); // prefetchable stays
  }

  // ------------------------------------------------------------------ an NTB with a bus of its own

  /** VS1 of a switch with internal bus 1 and buses [1..9]; NTB "big" has link-side bus 7. */
  private static final RoutingTable LINK_SIDE_BUS = new RoutingTable(List.of(
      bridgePort("mmh", 0, PortRole.UPSTREAM, 1, 0, 1, 9, range(0x100000L, 0x4FFFFFL), null),
      bridgePort("d1", 1, PortRole.DOWNSTREAM, 1, 1, 2, 3, D1_MEM, null),
      new PortConfig("big", 3, PortRole.NTB, 1, null,
          new NtbConfig(Bdf.of(1, 0, 0), 7, List.of(new NtbBar(NTB_BAR, 0x0L)), List.of(), List.of())),
      new PortConfig("small", 4, PortRole.NTB, 1, null,
          new NtbConfig(Bdf.of(1, 0, 0), List.of(), List.of()))), List.of());

  @Test
  void shouldRouteEveryAriProxyOfTheLinkSideBusToItsNtbWhenCompletionsReturn() {
    for (int function = 0; function < 256; function++) {
      int proxy = (7 << 8) | function;
      assertEquals(3, forward(LINK_SIDE_BUS, 0, completionFor(proxy)), Bdf.format(proxy));
      assertEquals(3, forward(LINK_SIDE_BUS, 1, completionFor(proxy)), Bdf.format(proxy) + " from below");
    }
    RouteDecision d = SwitchRouter.route(LINK_SIDE_BUS, 0, completionFor(Bdf.of(7, 2, 1)));
    assertTrue(((RouteDecision.Forward) d).why().contains("NTB big's link-side bus"), d.toString());
    // An NTB without a bus of its own keeps the internal bus: device = port number.
    assertEquals(4, forward(LINK_SIDE_BUS, 0, completionFor(Bdf.of(1, 4, 5))));
    assertUnsupported(LINK_SIDE_BUS, 3, completionFor(Bdf.of(7, 0, 1)));
    assertUnsupported(LINK_SIDE_BUS, 0, completionFor(Bdf.of(8, 0, 0)));
  }

  @Test
  void shouldAnswerConfigForTheLinkSideEndpointWhenType1TargetsItsBus() {
    RouteDecision d = SwitchRouter.route(LINK_SIDE_BUS, 0, cfgRead(7, 0, 1));
    assertEquals(3, assertInstanceOf(RouteDecision.LocalConfig.class, d).port());
    assertUnsupported(LINK_SIDE_BUS, 0, cfgRead(7, 1, 1));
    // The port's own function on the internal bus still answers as before.
    assertEquals(3, assertInstanceOf(RouteDecision.LocalConfig.class,
        SwitchRouter.route(LINK_SIDE_BUS, 0, cfgRead(1, 3, 1))).port());
    assertEquals(1, forward(LINK_SIDE_BUS, 0, cfgRead(2, 0, 1)));
  }
}
