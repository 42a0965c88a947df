package io.rackfabric.cluster.iommu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import akka.actor.typed.receptionist.ServiceKey;
import io.rackfabric.cluster.node.ComponentKeys;
import io.rackfabric.cluster.node.ControlPlaneBoot;
import io.rackfabric.cluster.node.JournaledRack;
import io.rackfabric.cluster.node.RequesterIdPlan;
import io.rackfabric.cluster.topology.RouteExplainer;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.host.controlplane.ControlPlaneHost;
import io.rackfabric.persistence.controller.Controller;
import io.rackfabric.persistence.controller.PagePermission;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ladon-testbed rack in one JVM with a journal: a page the controller opens (an operation
 * persisted in its journal) reaches the target host's IOMMU through the management host, and one
 * it closes is closed there again; before the open and after the close the same write is blocked.
 */
class ControllerPagesRackTest {

  static final Duration WAIT = Duration.ofSeconds(30);
  static final Topology RACK = JournaledRack.bundled("ladon-testbed");
  /** A page of CH2's memory, away from its control page and its datagram queues. */
  static final long PAGE = 0x5_0000;

  @TempDir static Path data;
  static ActorTestKit testKit;

  @BeforeAll
  static void startRack() {
    testKit = JournaledRack.start(RACK, data);
  }

  @AfterAll
  static void stop() {
    testKit.shutdownTestKit();
  }

  @Test
  void shouldOpenAndCloseTheTargetsIommuWhenTheControllerPersistsPageOperations() {
    TestProbe<ControlPlaneBoot.BootProgress> boot = testKit.createTestProbe();
    find(ComponentKeys.controlPlaneBoot()).tell(new ControlPlaneBoot.AwaitBooted(boot.ref()));
    assertTrue(boot.receiveMessage(WAIT).booted());
    ActorRef<ControlPlaneHost.Command> controller = find(ComponentKeys.controlPlaneHost(RACK.controlPlane().master()));
    ActorRef<MemoryEndpoint.Command> ch1 = find(ComponentKeys.endpoint("ch1"));
    ActorRef<MemoryEndpoint.Command> ch2 = find(ComponentKeys.endpoint("ch2"));
    long address = ch1AddressOf(PAGE);
    int ch1Id = RequesterIdPlan.of(RACK).idInManagementDomain("ch1").orElseThrow();

    ch1.tell(new MemoryEndpoint.Write(address, new byte[] {1, 1, 1, 1}));
    awaitBlocked(ch2, 1);

    assertTrue(submit(controller, r -> new Controller.OpenIommuPage("ch2", ch1Id, PAGE, PagePermission.READ_WRITE,
        0, r)).accepted());
    byte[] data = {4, 3, 2, 1};
    TestProbe<byte[]> peek = testKit.createTestProbe();
    // The MH applies the change once the controller acknowledged it: written until it is in force.
    peek.awaitAssert(WAIT, () -> {
      ch1.tell(new MemoryEndpoint.Write(address, data));
      ch2.tell(new MemoryEndpoint.Peek(PAGE, data.length, peek.ref()));
      assertArrayEquals(data, peek.receiveMessage(), "CH1's write into the page the controller opened");
      return null;
    });
    long blockedWhileOpen = blocked(ch2);

    assertTrue(submit(controller, r -> new Controller.CloseIommuPage("ch2", ch1Id, PAGE, 0, r)).accepted());
    TestProbe<EndpointStats> stats = testKit.createTestProbe();
    // Written until the close is in force (the MH applies it once acknowledged): a write sent
    // before that may still land, so what the page holds is read once a write was denied.
    stats.awaitAssert(WAIT, () -> {
      ch1.tell(new MemoryEndpoint.Write(address, new byte[] {9, 9, 9, 9}));
      ch2.tell(new MemoryEndpoint.GetStats(stats.ref()));
      assertTrue(stats.receiveMessage().accessDeniedTotal() > blockedWhileOpen, "blocked again after the close");
      return null;
    });
    ch2.tell(new MemoryEndpoint.Peek(PAGE, data.length, peek.ref()));
    byte[] closedWith = peek.receiveMessage(WAIT);
    long denied = blocked(ch2);
    ch1.tell(new MemoryEndpoint.Write(address, new byte[] {7, 7, 7, 7}));
    // A read from CH1 on the same path does not pass the write (PCIe ordering): once it is
    // answered, the write has been judged at CH2. Counted at least once more: a write of the loop
    // above may still have been on its way when counted.
    TestProbe<MemoryEndpoint.ReadResult> read = testKit.createTestProbe();
    ch1.tell(new MemoryEndpoint.Read(address, data.length, read.ref()));
    read.receiveMessage(WAIT);
    assertTrue(blocked(ch2) >= denied + 1, "the write after the close was denied");
    ch2.tell(new MemoryEndpoint.Peek(PAGE, data.length, peek.ref()));
    assertArrayEquals(closedWith, peek.receiveMessage(WAIT), "nothing written once the close is in force");
  }

  /** Where CH1 writes to reach {@code local} of CH2, through the primary plane. */
  static long ch1AddressOf(long local) {
    RouteExplainer routes = new RouteExplainer(RACK);
    for (long base = 0; base < (1L << 44); base += 0x8_0000_0000L) {
      var e = routes.explain("ch1", base + local, false);
      if ("ch2".equals(e.target()) && e.outcome().address() == local) {
        return base + local;
      }
    }
    throw new IllegalStateException("no address of CH1's reaches CH2's " + local);
  }

  static Controller.OperationResult submit(ActorRef<ControlPlaneHost.Command> controller,
      java.util.function.Function<ActorRef<Controller.OperationResult>, Controller.Operation> op) {
    TestProbe<Controller.OperationResult> probe = testKit.createTestProbe();
    controller.tell(new ControlPlaneHost.Submit(op.apply(probe.ref())));
    return probe.receiveMessage(WAIT);
  }

  static long blocked(ActorRef<MemoryEndpoint.Command> ep) {
    TestProbe<EndpointStats> probe = testKit.createTestProbe();
    ep.tell(new MemoryEndpoint.GetStats(probe.ref()));
    return probe.receiveMessage(WAIT).accessDeniedTotal();
  }

  static void awaitBlocked(ActorRef<MemoryEndpoint.Command> ep, long total) {
    TestProbe<EndpointStats> probe = testKit.createTestProbe();
    probe.awaitAssert(WAIT, () -> {
      ep.tell(new MemoryEndpoint.GetStats(probe.ref()));
      assertEquals(total, probe.receiveMessage().accessDeniedTotal());
      return null;
    });
  }

  static <T> ActorRef<T> find(ServiceKey<T> key) {
    return JournaledRack.find(testKit, key, WAIT);
  }
}
