package io.rackfabric.fabric.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.fabric.tlp.Completion;
import io.rackfabric.fabric.tlp.CompletionStatus;
import io.rackfabric.fabric.tlp.MemRead;
import io.rackfabric.fabric.tlp.MemWrite;
import io.rackfabric.fabric.tlp.Tlp;
import java.util.List;
import org.junit.jupiter.api.Test;

/** ACS peer-to-peer request redirect on downstream ports (Device Lending section 6). */
class AcsRedirectTest {

  static final int UP = 0;
  static final int PORT_A = 1;
  static final int PORT_B = 2;
  static final AddressRange WINDOW_A = AddressRange.ofSize(0x8000_0000L, 0x10_0000);
  static final AddressRange WINDOW_B = AddressRange.ofSize(0x8010_0000L, 0x10_0000);
  static final int DEVICE_A = Bdf.of(2, 0, 0);
  static final int DEVICE_B = Bdf.of(3, 0, 0);

  static RoutingTable table(boolean redirectA, boolean redirectB) {
    return new RoutingTable(List.of(
        new PortConfig("up", UP, PortRole.UPSTREAM, 1,
            new BridgeRegisters(0, 1, 3, AddressRange.ofSize(0x8000_0000L, 0x20_0000), null), null),
        new PortConfig("a", PORT_A, PortRole.DOWNSTREAM, 1,
            new BridgeRegisters(1, 2, 2, WINDOW_A, null), null, redirectA),
        new PortConfig("b", PORT_B, PortRole.DOWNSTREAM, 1,
            new BridgeRegisters(1, 3, 3, WINDOW_B, null), null, redirectB)), List.of());
  }

  static int forwardedTo(RoutingTable table, int ingress, Tlp tlp) {
    RouteDecision perTlp = SwitchRouter.route(RoutingView.of(table), ingress, tlp);
    RouteDecision explained = SwitchRouter.route(table, ingress, tlp);
    int port = assertInstanceOf(RouteDecision.Forward.class, perTlp, tlp + " -> " + perTlp).port();
    assertEquals(port, assertInstanceOf(RouteDecision.Forward.class, explained).port(),
        "the per-TLP path and rack route agree");
    return port;
  }

  static MemRead readFromA(long address) {
    return new MemRead(DEVICE_A, 1, 0, address, 256, 0, 0);
  }

  static MemWrite writeFromA(long address) {
    return new MemWrite(DEVICE_A, 0, 0, address, 4, new byte[4], 0, 0);
  }

  /**
   * The switch above another (an expansion chassis's host adapter): its one downstream port leads
   * to the chassis switch, whose windows are A's and B's.
   */
  static RoutingTable upperSwitch(boolean redirect) {
    AddressRange both = AddressRange.ofSize(0x8000_0000L, 0x20_0000);
    return new RoutingTable(List.of(
        new PortConfig("up", UP, PortRole.UPSTREAM, 1, new BridgeRegisters(0, 1, 4, both, null), null),
        new PortConfig("cable", PORT_A, PortRole.DOWNSTREAM, 1, new BridgeRegisters(1, 2, 4, both, null), null,
            redirect)), List.of());
  }

  @Test
  void shouldForwardUpstreamWhenARedirectedRequestFromBelowIsForItsOwnPortAndThatPortRedirects() {
    assertEquals(UP, forwardedTo(upperSwitch(true), PORT_A, writeFromA(WINDOW_B.base())));
    assertEquals(UP, forwardedTo(upperSwitch(true), PORT_A, readFromA(WINDOW_B.base())));
    String why = assertInstanceOf(RouteDecision.Forward.class,
        SwitchRouter.route(upperSwitch(true), PORT_A, readFromA(WINDOW_B.base()))).why();
    assertTrue(why.contains("ACS upstream forwarding"), why);
  }

  @Test
  void shouldRefuseARequestForItsOwnPortWhenThatPortDoesNotRedirect() {
    assertInstanceOf(RouteDecision.Unsupported.class,
        SwitchRouter.route(upperSwitch(false), PORT_A, writeFromA(WINDOW_B.base())));
  }

  @Test
  void shouldTakeTheShortestPathWhenRedirectIsOff() {
    RoutingTable table = table(false, false);

    assertEquals(PORT_B, forwardedTo(table, PORT_A, readFromA(WINDOW_B.base())));
    assertEquals(PORT_B, forwardedTo(table, PORT_A, writeFromA(WINDOW_B.base())));
  }

  @Test
  void shouldSendReadsAndWritesForAPeerUpstreamWhenTheIngressPortRedirects() {
    RoutingTable table = table(true, false);

    assertEquals(UP, forwardedTo(table, PORT_A, readFromA(WINDOW_B.base() + 0x40)));
    assertEquals(UP, forwardedTo(table, PORT_A, writeFromA(WINDOW_B.base() + 0x40)));
  }

  @Test
  void shouldSayItIsAcsWhenExplainingTheRedirect() {
    RouteDecision d = SwitchRouter.route(table(true, false), PORT_A, readFromA(WINDOW_B.base()));

    String why = assertInstanceOf(RouteDecision.Forward.class, d).why();
    assertTrue(why.contains("ACS redirect at a"), why);
  }

  @Test
  void shouldLeaveTheOtherDirectionShortWhenOnlyTheIngressOfTheOtherPeerRedirects() {
    RoutingTable table = table(true, false);

    assertEquals(PORT_A, forwardedTo(table, PORT_B,
        new MemRead(DEVICE_B, 1, 0, WINDOW_A.base(), 64, 0, 0)));
  }

  @Test
  void shouldRouteCompletionsByIdWhenTheIngressPortRedirects() {
    RoutingTable table = table(true, true);
    Completion toB = new Completion(DEVICE_A, DEVICE_B, 1, 0, CompletionStatus.SUCCESSFUL, 4, 0, 4, new byte[4], 0, 0);

    assertEquals(PORT_B, forwardedTo(table, PORT_A, toB));
  }

  @Test
  void shouldSendTheRootsReissuedRequestDownWhenItComesFromUpstream() {
    RoutingTable table = table(true, true);

    assertEquals(PORT_B, forwardedTo(table, UP, new MemRead(Bdf.of(0, 0, 0), 256, 0, WINDOW_B.base(), 64, 0, 0)));
  }

  @Test
  void shouldGoUpstreamAsBeforeWhenTheAddressIsOutsideTheSwitch() {
    RoutingTable table = table(true, false);

    assertEquals(UP, forwardedTo(table, PORT_A, readFromA(0x1000)));
  }

  @Test
  void shouldRefuseRedirectWhenThePortIsNotDownstream() {
    var e = assertThrows(IllegalArgumentException.class, () -> new PortConfig("up", UP, PortRole.UPSTREAM, 1,
        new BridgeRegisters(0, 1, 3, null, null), null, true));
    assertTrue(e.getMessage().contains("acs-redirect"), e.getMessage());
  }

  @Test
  void shouldKeepTheFlagWhenTheBridgeOrVirtualSwitchChanges() {
    PortConfig a = table(true, false).port(PORT_A);

    assertTrue(a.withBridge(a.bridge().withMemory(WINDOW_B)).acsRedirect());
    assertTrue(a.withVirtualSwitch(2).acsRedirect());
  }
}
