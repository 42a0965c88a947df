package io.rackfabric.loadtests.failover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import io.rackfabric.cluster.topology.LadonRackGenerator;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.host.failover.FailoverBreakdown;
import io.rackfabric.host.failover.NotificationMode;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import io.rackfabric.host.memory.Plane;
import java.io.PrintStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Table 2 of Ladon out of the causal chain: a primary link fails in generated Ladon racks and
 * the breakdown must follow the host count, the notification mode and the parameters.
 */
class LinkFailoverTest {

  static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());

  static LinkFailover.Result run(int hosts, int failed, NotificationMode mode, String overrides) throws Exception {
    Topology rack = LadonRackGenerator.generate(GlobalMemoryLayout.paper(hosts), LadonRackGenerator.Placement.SINGLE_NODE);
    return LinkFailover.run(rack, failed, mode, ConfigFactory.parseString(overrides), QUIET);
  }

  @Test
  void shouldGrowNotificationWithHostCountWhenNotifyingOneByOne() throws Exception {
    FailoverBreakdown two = run(2, 1, NotificationMode.UNICAST, "").breakdown();
    FailoverBreakdown six = run(6, 1, NotificationMode.UNICAST, "").breakdown();
    // Detection and determination do not depend on how many hosts there are.
    assertEquals(two.detectionNs(), six.detectionNs());
    assertEquals(two.determinationNs(), six.determinationNs());
    // Each CH costs one delivery, one route update and one acknowledgement, one after the other.
    long perHost = two.notificationNs() / 2;
    assertTrue(Math.abs(six.notificationNs() - 6 * perHost) < 6 * 50,
        "6 CHs take 3x what 2 take: " + two.notificationNs() + " vs " + six.notificationNs());
    for (FailoverBreakdown.PerHost h : six.hosts()) {
      assertEquals(1_000, h.updateNs(), "the route update is the CH's own 1us");
      assertTrue(h.deliveryNs() > 7_700, "delivery = fabric + the CH's poll latency: " + h.deliveryNs());
      assertTrue(h.acknowledgementNs() > 100, "the acknowledgement crosses the fabric: " + h.acknowledgementNs());
    }
    assertEquals(six.detectionNs() + six.determinationNs() + six.notificationNs(), six.totalNs());
  }

  @Test
  void shouldSwitchEveryViewOfTheFailedHostToItsSecondaryRange() throws Exception {
    LinkFailover.Result r = run(3, 2, NotificationMode.UNICAST, "");
    // Every event in model-time order: a late one would make the fail-over's outcome the machine's.
    assertEquals(0, r.stragglers(), "the kernel's counts stay exact; MH log: " + r.mh());
    Map<Integer, List<Plane>> routes = r.routes();
    assertEquals(List.of(Plane.SECONDARY, Plane.SECONDARY, Plane.SECONDARY, Plane.SECONDARY), routes.get(2),
        "CH2 itself reaches everything through its secondary NTB");
    assertEquals(Plane.SECONDARY, routes.get(1).get(2));
    assertEquals(Plane.SECONDARY, routes.get(3).get(2));
    assertEquals(Plane.PRIMARY, routes.get(1).get(3), "views of healthy hosts stay primary");
    assertTrue(r.mh().first(io.rackfabric.host.failover.HostLog.Step.DMA_REDIRECTED, 2).isPresent());
  }

  @Test
  void shouldDeliverBothDatagramStreamsOnceInOrderAcrossTheFailOverWhatTheLinkLostResentOverPlaneB() throws Exception {
    Topology rack = LadonRackGenerator.generate(GlobalMemoryLayout.paper(3), LadonRackGenerator.Placement.SINGLE_NODE);
    // One datagram each way per microsecond from 10us before the fault to 50us after it: those
    // in flight on CH2's primary cable when it fails, or sent into it before the route change, are lost.
    LinkFailover.Result r = LinkFailover.run(rack, LinkFailover.Fault.CH_LINK, 2, NotificationMode.UNICAST,
        new LinkFailover.Streams(60, 1_000, 10_000), ConfigFactory.empty(), QUIET);
    assertEquals(2, r.streams().size());
    for (FailoverStreams.Stream s : r.streams()) {
      String label = "CH" + s.from() + " -> CH" + s.to();
      assertEquals(60, s.sent(), label + ": the sender's service queued every datagram");
      assertEquals(60, s.delivered(), label);
      assertEquals(0, s.duplicates(), label);
      assertEquals(0, s.outOfOrder(), label);
      assertEquals(1, s.planeChanges(), label + ": the sender moved to the secondary plane once");
      if (s.to() == 2) {
        assertTrue(s.retransmissions() > 0, label + ": what the old path lost was sent again");
      }
      // CH2's own stream can lose nothing: its reads of CH1's FreeQ over its dead cable fail
      // before it has a buffer to write into, so it writes nothing there (in model time).
    }
    assertTrue(r.lostOnFailedLink() > 0, "the fabric lost datagram TLPs on the failed link");
    assertEquals(List.of(Plane.SECONDARY, Plane.SECONDARY, Plane.SECONDARY, Plane.SECONDARY), r.routes().get(2));
  }

  @Test
  void shouldCostAboutOneNotificationWhenTheSwitchMulticasts() throws Exception {
    FailoverBreakdown unicast = run(4, 1, NotificationMode.UNICAST, "").breakdown();
    FailoverBreakdown multicast = run(4, 1, NotificationMode.MULTICAST, "").breakdown();
    long one = unicast.notificationNs() / 4;
    assertTrue(multicast.notificationNs() < one + 500,
        "one multicast write reaches all 4 CHs: " + multicast.notificationNs() + " vs one unicast " + one);
    assertTrue(multicast.hosts().stream().allMatch(h -> h.sentAt() == multicast.hosts().get(0).sentAt()));
  }

  @Test
  void shouldFollowTheParametersWhenTheyChange() throws Exception {
    FailoverBreakdown base = run(2, 1, NotificationMode.UNICAST, "").breakdown();
    FailoverBreakdown slow = run(2, 1, NotificationMode.UNICAST,
        "rackfabric.host.mailbox.poll-latency = 10.7us\nrackfabric.host.aer.interrupt-latency = 3.2us").breakdown();
    assertEquals(base.detectionNs() + 1_000, slow.detectionNs());
    assertEquals(base.determinationNs() + 3_000, slow.determinationNs());
    assertEquals(base.notificationNs() + 2 * 3_000, slow.notificationNs());
  }

  @Test
  void shouldFailEveryHostOverToSwitchBWhenSwitchAOrItsUplinkIsLost() throws Exception {
    for (LinkFailover.Fault fault : List.of(LinkFailover.Fault.SWITCH, LinkFailover.Fault.UPLINK)) {
      Topology rack = LadonRackGenerator.generate(GlobalMemoryLayout.paper(3), LadonRackGenerator.Placement.SINGLE_NODE);
      LinkFailover.Result r = LinkFailover.run(rack, fault, 0, NotificationMode.UNICAST, ConfigFactory.empty(), QUIET);
      for (var e : r.routes().entrySet()) {
        assertTrue(e.getValue().stream().allMatch(p -> p == Plane.SECONDARY),
            fault + ": CH" + e.getKey() + " reaches everything through switch B: " + e.getValue());
      }
      assertEquals(0, r.breakdown().failedHost(), "a whole plane, found by the MH's own AER driver");
      assertEquals(3, r.breakdown().hosts().size());
      assertTrue(r.breakdown().detectionNs() > 2_200 && r.breakdown().detectionNs() < 3_000,
          fault + " detection " + r.breakdown().detectionNs());
    }
  }

  @Test
  void shouldRunARoundPerHostAndMoveEveryRouteToPlaneBWhenEveryPrimaryLinkFails() throws Exception {
    Topology rack = LadonRackGenerator.generate(GlobalMemoryLayout.paper(3), LadonRackGenerator.Placement.SINGLE_NODE);
    LinkFailover.Result r = LinkFailover.run(rack, LinkFailover.Fault.EVERY_CH_LINK, 1, NotificationMode.UNICAST,
        ConfigFactory.empty(), QUIET);

    assertEquals(3, r.rounds(), "each CH reported its own link");
    for (var e : r.routes().entrySet()) {
      assertTrue(e.getValue().stream().allMatch(p -> p == Plane.SECONDARY),
          "CH" + e.getKey() + " reaches everything through plane B: " + e.getValue());
    }
    assertEquals(1, r.breakdown().failedHost());
    // The rounds run one after the other: the last ends after CH1's.
    assertTrue(r.lastCompletedAt() > r.breakdown().faultAt() + r.breakdown().totalNs(),
        "last round at " + r.lastCompletedAt() + ", CH1's round " + r.breakdown());
  }
}
