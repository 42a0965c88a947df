package io.rackfabric.cluster.iommu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import akka.actor.typed.receptionist.ServiceKey;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.cluster.node.ComponentKeys;
import io.rackfabric.cluster.node.RackNode;
import io.rackfabric.cluster.node.RequesterIdPlan;
import io.rackfabric.cluster.topology.GlobalMemorySpec;
import io.rackfabric.cluster.topology.LadonRackGenerator;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.fabric.tlp.CompletionStatus;
import io.rackfabric.host.iommu.Permission;
import io.rackfabric.host.management.ManagementHost;
import io.rackfabric.host.management.ManagementHost.IsolationResult;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import io.rackfabric.host.memory.Plane;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * IOMMU isolation in a generated rack of three compute hosts, run as actors in one JVM: the MH
 * opens one page of CH3 to CH1 alone, and the fabric's own requests, through both planes, show
 * who gets through. The requester IDs the denials are counted under come from the target's
 * hardware, so they also check the MH's prediction of them.
 */
class IommuIsolationRackTest {

  static final GlobalMemoryLayout LAYOUT = GlobalMemoryLayout.paper(3);
  static final Topology RACK = LadonRackGenerator.generate(LAYOUT, LadonRackGenerator.Placement.SINGLE_NODE);
  static final ActorTestKit testKit = ActorTestKit.create(ConfigFactory.parseString(
      "akka.actor.serialize-messages = on").withFallback(ConfigFactory.load()));
  static final Duration WAIT = Duration.ofSeconds(10);
  /** A page of CH3's memory away from its control page. */
  static final long PAGE = 0x40000;

  static ActorRef<ManagementHost.Command> mh;
  static ActorRef<MemoryEndpoint.Command> ch1;
  static ActorRef<MemoryEndpoint.Command> ch2;
  static ActorRef<MemoryEndpoint.Command> ch3;
  static ActorRef<MemoryEndpoint.Command> mmh;

  @BeforeAll
  static void startRack() {
    testKit.spawn(RackNode.create(RACK, RACK.seed().name(),
        FabricSettings.create(testKit.system().settings().config())), "rack");
    mh = find(ComponentKeys.managementHost("mmh"));
    ch1 = find(ComponentKeys.endpoint("ch1"));
    ch2 = find(ComponentKeys.endpoint("ch2"));
    ch3 = find(ComponentKeys.endpoint("ch3"));
    mmh = find(ComponentKeys.endpoint("mmh"));
    for (var ep : List.of(ch1, ch2, ch3, mmh)) {
      awaitUp(ep);
    }
  }

  @AfterAll
  static void stop() {
    testKit.shutdownTestKit();
  }

  @Test
  void shouldLetOnlyTheOpenedHostReachAPageWhenTheMhOpensItToOneHost() {
    TestProbe<IsolationResult> result = testKit.createTestProbe();
    // Retried only until the MH has found CH3's root endpoint through the Receptionist.
    result.awaitAssert(WAIT, () -> {
      mh.tell(new ManagementHost.OpenIommuPage("ch3", "ch1", PAGE, 1, Permission.READ_WRITE, result.ref()));
      IsolationResult r = result.receiveMessage();
      assertTrue(r.accepted(), r.detail());
      return null;
    });

    for (Plane plane : Plane.values()) {
      long offset = PAGE + 0x100 * (plane.ordinal() + 1);
      byte[] data = {7, 7, 7, (byte) plane.ordinal(), 1, 2, 3, 4};
      ch1.tell(new MemoryEndpoint.Write(LAYOUT.chAddress(1, 3, offset, plane), data));
      awaitMemory(ch3, offset, data, "CH1's write through the " + plane + " plane");
      MemoryEndpoint.ReadResult read = read(ch1, LAYOUT.chAddress(1, 3, offset, plane));
      assertEquals(CompletionStatus.SUCCESSFUL, read.status(), "CH1's read through the " + plane + " plane");
      assertArrayEquals(data, read.data());
    }

    byte[] before = peek(ch3, PAGE, 16);
    for (Plane plane : Plane.values()) {
      assertEquals(CompletionStatus.UNSUPPORTED_REQUEST, read(ch2, LAYOUT.chAddress(2, 3, PAGE, plane)).status(),
          "CH2's read through the " + plane + " plane");
      ch2.tell(new MemoryEndpoint.Write(LAYOUT.chAddress(2, 3, PAGE, plane), junk()));
      assertEquals(CompletionStatus.UNSUPPORTED_REQUEST, read(mmh, LAYOUT.mhAddress(3, PAGE, plane)).status(),
          "the MH's read through the " + plane + " plane");
      mmh.tell(new MemoryEndpoint.Write(LAYOUT.mhAddress(3, PAGE, plane), junk()));
    }
    var isolation = RequesterIdPlan.of(RACK).isolationPlan().target("ch3").orElseThrow();
    Set<Integer> ch2Ids = new HashSet<>(isolation.arrivalIds().get("ch2"));
    Set<Integer> mhIds = new HashSet<>(isolation.arrivalIds().get("mmh"));
    assertEquals(2, ch2Ids.size(), "CH2 arrives at CH3 under one ID per plane");
    assertEquals(2, mhIds.size(), "the MH arrives at CH3 under one ID per plane");
    EndpointStats stats = awaitDenials(ch3, 8);
    Set<Integer> denied = new HashSet<>();
    for (EndpointStats.AccessDenial d : stats.accessDenied()) {
      assertEquals(1, d.reads(), "one denied read per requester and plane: " + d);
      assertEquals(1, d.writes(), "one dropped write per requester and plane: " + d);
      denied.add(d.requester());
    }
    Set<Integer> expected = new HashSet<>(ch2Ids);
    expected.addAll(mhIds);
    assertEquals(expected, denied, "denials are counted under the IDs CH2 and the MH arrive with");
    assertArrayEquals(before, peek(ch3, PAGE, 16), "the denied writes changed nothing");

    // The control page stays open to the MH: the fail-over protocol writes there.
    long control = RACK.globalMemorySpec().controlPage() + 0xF00;
    byte[] word = {1, 2, 3, 4};
    mmh.tell(new MemoryEndpoint.Write(LAYOUT.mhAddress(3, control, Plane.SECONDARY), word));
    awaitMemory(ch3, control, word, "the MH's write into CH3's control page");

    mh.tell(new ManagementHost.CloseIommuPage("ch3", "ch1", PAGE, 1, result.ref()));
    IsolationResult closed = result.receiveMessage(WAIT);
    assertTrue(closed.accepted(), closed.detail());
    for (Plane plane : Plane.values()) {
      assertEquals(CompletionStatus.UNSUPPORTED_REQUEST, read(ch1, LAYOUT.chAddress(1, 3, PAGE, plane)).status(),
          "CH1's read after the close through the " + plane + " plane");
      ch1.tell(new MemoryEndpoint.Write(LAYOUT.chAddress(1, 3, PAGE, plane), junk()));
    }
    awaitDenials(ch3, 12);
    assertArrayEquals(before, peek(ch3, PAGE, 16), "CH1's writes after the close changed nothing");
  }

  @Test
  void shouldAnswerWithAnErrorAndKeepWorkingWhenARequestIsBad() {
    TestProbe<IsolationResult> result = testKit.createTestProbe();
    mh.tell(new ManagementHost.OpenIommuPage("ch2", "ch1", 0x40010, 1, Permission.READ, result.ref()));
    IsolationResult unaligned = result.receiveMessage(WAIT);
    assertFalse(unaligned.accepted());
    assertTrue(unaligned.detail().contains("0x40010"), unaligned.detail());

    mh.tell(new ManagementHost.OpenIommuPage("ch9", "ch1", 0x40000, 1, Permission.READ, result.ref()));
    IsolationResult unknownTarget = result.receiveMessage(WAIT);
    assertFalse(unknownTarget.accepted());
    assertTrue(unknownTarget.detail().contains("targetHost=ch9"), unknownTarget.detail());

    mh.tell(new ManagementHost.OpenIommuPage("ch2", "nobody", 0x40000, 1, Permission.READ, result.ref()));
    IsolationResult unknownRequester = result.receiveMessage(WAIT);
    assertFalse(unknownRequester.accepted());
    assertTrue(unknownRequester.detail().contains("requesterHost=nobody"), unknownRequester.detail());

    mh.tell(new ManagementHost.CloseIommuPage("ch1", "ch2", 0x40000, 1, result.ref()));
    IsolationResult notOpen = result.receiveMessage(WAIT);
    assertFalse(notOpen.accepted(), notOpen.detail());

    result.awaitAssert(WAIT, () -> {
      mh.tell(new ManagementHost.OpenIommuPage("ch2", "ch1", 0x40000, 1, Permission.READ, result.ref()));
      IsolationResult r = result.receiveMessage();
      assertTrue(r.accepted(), "the MH still works after bad requests: " + r.detail());
      return null;
    });
  }

  /** What a blocked host tries to write: not what the page holds, so a write that got through shows. */
  static byte[] junk() {
    byte[] b = new byte[16];
    java.util.Arrays.fill(b, (byte) 0x55);
    return b;
  }

  static <T> ActorRef<T> find(ServiceKey<T> key) {
    return RackProbes.find(testKit, key);
  }

  static void awaitUp(ActorRef<MemoryEndpoint.Command> ep) {
    RackProbes.awaitUp(testKit, ep);
  }

  static MemoryEndpoint.ReadResult read(ActorRef<MemoryEndpoint.Command> ep, long address) {
    return RackProbes.read(testKit, ep, address);
  }

  static byte[] peek(ActorRef<MemoryEndpoint.Command> ep, long offset, int length) {
    TestProbe<byte[]> probe = testKit.createTestProbe();
    ep.tell(new MemoryEndpoint.Peek(offset, length, probe.ref()));
    return probe.receiveMessage(WAIT);
  }

  static void awaitMemory(ActorRef<MemoryEndpoint.Command> ep, long offset, byte[] data, String what) {
    TestProbe<byte[]> probe = testKit.createTestProbe();
    probe.awaitAssert(WAIT, () -> {
      ep.tell(new MemoryEndpoint.Peek(offset, data.length, probe.ref()));
      assertArrayEquals(data, probe.receiveMessage(), what);
      return null;
    });
  }

  /** CH3's statistics once its IOMMU has denied {@code total} requests. */
  static EndpointStats awaitDenials(ActorRef<MemoryEndpoint.Command> ep, long total) {
    TestProbe<EndpointStats> probe = testKit.createTestProbe();
    return probe.awaitAssert(WAIT, () -> {
      ep.tell(new MemoryEndpoint.GetStats(probe.ref()));
      EndpointStats s = probe.receiveMessage();
      assertEquals(total, s.accessDeniedTotal(), "denials so far: " + s.accessDenied());
      return s;
    });
  }
}
