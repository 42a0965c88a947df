package io.rackfabric.cluster.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.cluster.topology.LadonRackGenerator.Placement;
import io.rackfabric.cluster.topology.RouteExplanation.Kind;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.address.Addresses;
import io.rackfabric.fabric.ntb.NtbBar;
import io.rackfabric.fabric.routing.MulticastGroup;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.host.failover.LadonAddresses;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import io.rackfabric.host.memory.Plane;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The hardware data-plane fail-over needs in a generated Ladon rack (Ladon section 5.3): the MH's
 * PMS2 mailbox page, each plane's multicast group and overlay BARs, and windows over them; and
 * that the fabric routes the protocol's words where {@link LadonAddresses} says they are.
 */
class LadonFailoverHardwareTest {

  private static final long G = 1L << 30;
  private static final long T = 1L << 40;
  private static final long PAGE = GlobalMemorySpec.DEFAULT_CONTROL_PAGE;

  private static Topology generate(int hosts) {
    return LadonRackGenerator.generate(GlobalMemoryLayout.paper(hosts), Placement.SINGLE_NODE);
  }

  private static String chip(Plane plane) {
    return plane == Plane.PRIMARY ? "nt-pri" : "nt-sec";
  }

  @Test
  void shouldNameTheMmhAndTheDefaultControlPageWhenTheRackHasRoomForFailover() {
    for (int n : new int[] {2, 4, 8, 29}) {
      GlobalMemorySpec spec = generate(n).globalMemorySpec();
      assertEquals("mmh", spec.managementHost(), "N=" + n);
      assertEquals(0x1_0000, spec.controlPage(), "N=" + n);
    }
  }

  @Test
  void shouldGiveBothMhRootsThePms2MailboxPageWhenFailoverFits() {
    for (int n : new int[] {2, 4, 8}) {
      Topology t = generate(n);
      for (String mh : List.of("mmh", "bmh")) {
        List<AddressRange> bars = t.endpoint(mh).orElseThrow().bars();
        assertEquals(3, bars.size(), mh + " N=" + n);
        // 2TiB - 32GiB + the control page: the top slot of PMS2
        assertEquals(AddressRange.ofSize(2 * T - 32 * G + PAGE, 4096), bars.get(2), mh + " N=" + n);
      }
    }
  }

  @Test
  void shouldGroupEveryChsNtbPortAndOverlayTheMulticastPageWhenEitherPlane() {
    for (int n : new int[] {2, 4, 8}) {
      Topology t = generate(n);
      LadonAddresses ladon = t.globalMemorySpec().ladonAddresses();
      GlobalMemoryLayout layout = t.globalMemory().orElseThrow();
      for (Plane plane : Plane.values()) {
        String at = "N=" + n + " " + chip(plane);
        SwitchSpec s = t.switchSpec(chip(plane)).orElseThrow();
        List<Integer> members = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
          PortConfig p = s.port("ch" + i).orElseThrow();
          members.add(p.number());
          // the CH's slot first, then the multicast page translated to its control page
          assertEquals(List.of(layout.ntbProgramming(i, plane).linkBars().get(0),
                  new NtbBar(ladon.multicastPage(plane), PAGE)),
              p.ntb().linkBars(), at + " ch" + i);
        }
        assertEquals(List.of(new MulticastGroup(0, ladon.multicastPage(plane), members)), s.multicast(), at);
        // (N + 1) x 32GiB from the plane's base
        assertEquals((plane == Plane.PRIMARY ? 0 : T) + (n + 1) * 32 * G, ladon.multicastPage(plane).base(), at);
      }
    }
  }

  @Test
  void shouldWidenEveryPlaneWindowOverTheMulticastPageWhenFailoverFits() {
    for (int n : new int[] {2, 4, 8}) {
      Topology t = generate(n);
      LadonAddresses ladon = t.globalMemorySpec().ladonAddresses();
      AddressRange pri = ladon.planeWindow(Plane.PRIMARY);
      AddressRange sec = ladon.planeWindow(Plane.SECONDARY);
      assertEquals(pri, prefetchable(t, "tor", "to-pri"), "N=" + n);
      assertEquals(sec, prefetchable(t, "tor", "to-sec"), "N=" + n);
      assertEquals(pri, prefetchable(t, "nt-pri", "up"), "N=" + n);
      assertEquals(sec, prefetchable(t, "nt-sec", "up"), "N=" + n);
      assertEquals(new AddressRange(pri.base(), sec.limit()), prefetchable(t, "tor", "mmh"), "N=" + n);
    }
  }

  @Test
  void shouldLeaveTheFailoverHardwareOutWhenThirtyHostsFillTheSlots() {
    // P/L = 32: 30 CHs leave no slot for both the multicast page and the PMS2 mailbox
    Topology t = generate(30);
    GlobalMemoryLayout layout = t.globalMemory().orElseThrow();

    assertNull(t.globalMemorySpec().managementHost());
    assertEquals(2, t.endpoint("mmh").orElseThrow().bars().size());
    for (Plane plane : Plane.values()) {
      SwitchSpec s = t.switchSpec(chip(plane)).orElseThrow();
      assertEquals(List.of(), s.multicast(), chip(plane));
      assertEquals(1, s.port("ch30").orElseThrow().ntb().linkBars().size(), chip(plane));
      assertEquals(layout.mhHostsRange(plane), prefetchable(t, chip(plane), "up"), chip(plane));
    }
  }

  @Test
  void shouldLoadBackEqualWhenAFailoverRackIsWrittenOut() throws TopologyException {
    for (int n : new int[] {2, 4, 8}) {
      Topology t = LadonRackGenerator.generate(GlobalMemoryLayout.paper(n), Placement.ONE_NODE_PER_HOST);
      String text = TopologyWriter.write(t);
      assertTrue(text.contains("  management-host = \"mmh\"\n"), text);
      assertEquals(t, TopologyLoader.parse(text, t.source()), "N=" + n);
    }
  }

  // ---- the words reach where the fail-over software expects them

  @Test
  void shouldCopyAMulticastNotificationToEveryChsControlPageWhenEitherPlane() {
    for (int n : new int[] {2, 4, 8}) {
      Topology t = generate(n);
      assertMulticastReachesEveryCh(t, t.globalMemorySpec().ladonAddresses(), "N=" + n);
    }
  }

  @Test
  void shouldDeliverReportsAndAcksToTheMmhWhenSentThroughEitherPlane() {
    for (int n : new int[] {2, 4, 8}) {
      Topology t = generate(n);
      assertMailboxesReachTheMmh(t, t.globalMemorySpec().ladonAddresses(), "N=" + n);
    }
  }

  @Test
  void shouldDeliverNotificationsAndResponsesToTheChWhenUnicastThroughEitherPlane() {
    for (int n : new int[] {2, 8}) {
      Topology t = generate(n);
      LadonAddresses ladon = t.globalMemorySpec().ladonAddresses();
      RouteExplainer routes = new RouteExplainer(t);
      for (Plane plane : Plane.values()) {
        for (int ch = 1; ch <= n; ch++) {
          String at = "N=" + n + " CH" + ch + " " + plane;
          assertDelivered(routes.explain("mmh", ladon.notificationOf(ch, plane), false), "ch" + ch,
              PAGE + LadonAddresses.NOTIFICATION, at);
          assertDelivered(routes.explain("mmh", ladon.responseOf(ch, plane), false), "ch" + ch,
              PAGE + LadonAddresses.RESPONSE, at);
        }
      }
    }
  }

  // ---- the bundled testbed carries the same hardware

  @Test
  void shouldRouteTheFailoverWordsWhenTheTestbedIsLoaded() throws TopologyException {
    Topology t = TopologyLoader.load("ladon-testbed");
    LadonAddresses ladon = t.globalMemorySpec().ladonAddresses();
    assertMulticastReachesEveryCh(t, ladon, "testbed");
    assertMailboxesReachTheMmh(t, ladon, "testbed");

    // the two examples in the file's header
    RouteExplainer routes = new RouteExplainer(t);
    RouteExplanation multicast = routes.explain("mmh", 0x18_0000_0800L, false);
    assertEquals(Kind.MULTICAST, multicast.outcome().kind());
    assertEquals(List.of("ch1", "ch2"), multicast.copies().stream().map(RouteExplanation::target).toList());
    assertEquals(0x1_0800L, multicast.copies().get(1).outcome().address());
    assertDelivered(routes.explain("ch1", 0x200_0001_0004L, false), "mmh", 0x1F8_0001_0004L, "header");
  }

  private static void assertMulticastReachesEveryCh(Topology t, LadonAddresses ladon, String what) {
    RouteExplainer routes = new RouteExplainer(t);
    int n = ladon.computeHosts();
    for (Plane plane : Plane.values()) {
      long address = ladon.multicastPage(plane).base() + LadonAddresses.NOTIFICATION;
      RouteExplanation r = routes.explain("mmh", address, false);
      String at = what + " " + plane + " " + Addresses.hex(address);
      assertEquals(Kind.MULTICAST, r.outcome().kind(), at + "\n" + r.toText());
      assertEquals(chip(plane), r.outcome().component(), at);
      assertEquals(n, r.copies().size(), at);
      for (int ch = 1; ch <= n; ch++) {
        assertDelivered(r.copies().get(ch - 1), "ch" + ch, PAGE + LadonAddresses.NOTIFICATION, at + " copy " + ch);
      }
      assertTrue(r.delivered(), at);
    }
  }

  private static void assertMailboxesReachTheMmh(Topology t, LadonAddresses ladon, String what) {
    RouteExplainer routes = new RouteExplainer(t);
    for (int ch = 1; ch <= ladon.computeHosts(); ch++) {
      for (Plane plane : Plane.values()) {
        String at = what + " CH" + ch + " " + plane;
        assertDelivered(routes.explain("ch" + ch, ladon.reportSlot(ch, plane), false), "mmh",
            ladon.mhPage(plane) + 4L * ch, at + " report");
        assertDelivered(routes.explain("ch" + ch, ladon.ackSlot(ch, plane), false), "mmh",
            ladon.mhPage(plane) + LadonAddresses.ACKS + 4L * ch, at + " ack");
        // and the MH reads it back as that CH's word of that plane
        LadonAddresses.Slot slot = ladon.slotAt(ladon.reportSlot(ch, plane) - ladon.layout().localSubspace());
        assertNotNull(slot, at);
        assertEquals(new LadonAddresses.Slot(false, ch, plane), slot, at);
      }
    }
  }

  private static void assertDelivered(RouteExplanation r, String target, long address, String what) {
    assertEquals(Kind.DELIVERED, r.outcome().kind(), what + "\n" + r.toText());
    assertEquals(target, r.target(), what);
    assertEquals(address, r.outcome().address(), what + ": " + Addresses.hex(r.outcome().address()));
  }

  private static AddressRange prefetchable(Topology t, String sw, String port) {
    return t.switchSpec(sw).orElseThrow().port(port).orElseThrow().bridge().prefetchable();
  }
}
