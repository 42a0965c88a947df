package io.rackfabric.cluster.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import akka.actor.typed.receptionist.Receptionist;
import akka.actor.typed.receptionist.ServiceKey;
import io.rackfabric.cluster.topology.ControlPlaneSpec;
import io.rackfabric.cluster.topology.NodeSpec;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.RoutingTable;
import io.rackfabric.fabric.switchchip.SwitchChip;
import io.rackfabric.host.controlplane.ControlPlaneHost;
import io.rackfabric.host.controlplane.ControlPlaneHost.Role;
import io.rackfabric.host.controlplane.TakeoverBreakdown;
import io.rackfabric.persistence.controller.Controller.CurrentState;
import io.rackfabric.persistence.controller.JournalTenures;
import io.rackfabric.persistence.controller.Tenure;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ladon-testbed rack in one JVM with a journal, its nodes' shares started by hand so that one
 * can be stopped (its JVM dies) and started again on the same journal: the MMH's node dies, the
 * BMH fences it on tor (VS1 to VS2) and takes over; the MMH's node starts again, its host finds
 * its journal, starts FENCED (no second boot, no second master) and rejoins the BMH as backup in
 * its next tenure; then the BMH's node dies and the MMH takes over again, moving tor's ports back
 * from VS2 to VS1.
 */
class ControlPlaneRestartRackTest {

  static final Duration WAIT = Duration.ofSeconds(30);
  static final Topology RACK = JournaledRack.bundled("ladon-testbed");

  @TempDir static Path data;
  static ActorTestKit testKit;
  static final Map<String, ActorRef<RackNode.Command>> nodes = new HashMap<>();

  @BeforeAll
  static void startRack() {
    testKit = JournaledRack.kit(data);
    for (NodeSpec n : RACK.nodes()) {
      nodes.put(n.name(), JournaledRack.startNode(testKit, RACK, n.name(), n.name()));
    }
  }

  @AfterAll
  static void stop() {
    testKit.shutdownTestKit();
  }

  static ControlPlaneHost.HostStatus status(ActorRef<ControlPlaneHost.Command> host) {
    return JournaledRack.status(testKit, host, WAIT);
  }

  static CurrentState state(ActorRef<ControlPlaneHost.Command> host) {
    return JournaledRack.state(testKit, host, WAIT);
  }

  static RoutingTable table(String chip) {
    TestProbe<RoutingTable> probe = testKit.createTestProbe();
    JournaledRack.find(testKit, ComponentKeys.switchChip(chip), WAIT).tell(new SwitchChip.GetRoutingTable(probe.ref()));
    return probe.receiveMessage(WAIT);
  }

  /** The one instance registered under {@code key} that is not {@code old}, once it is the only one. */
  static <T> ActorRef<T> findNew(ServiceKey<T> key, ActorRef<T> old) {
    TestProbe<Receptionist.Listing> probe = testKit.createTestProbe();
    return probe.awaitAssert(WAIT, () -> {
      testKit.system().receptionist().tell(Receptionist.find(key, probe.ref()));
      var refs = probe.receiveMessage().getServiceInstances(key);
      assertEquals(1, refs.size(), key.id() + " registered once");
      ActorRef<T> ref = refs.iterator().next();
      assertTrue(!ref.equals(old), "the restarted one");
      return ref;
    });
  }

  static void awaitRole(ActorRef<ControlPlaneHost.Command> host, Role role) {
    testKit.createTestProbe().awaitAssert(WAIT, () -> {
      assertEquals(role, status(host).role());
      return null;
    });
  }

  static void assertPortsIn(int vs, String except, int exceptVs) {
    ControlPlaneSpec pair = RACK.controlPlane();
    for (PortConfig p : table(pair.fencingSwitch()).ports()) {
      int expected = p.name().equals(except) ? exceptVs : vs;
      assertEquals(expected, p.virtualSwitch(), p.name());
    }
  }

  @Test
  void shouldRejoinAsBackupWhenTheMastersNodeStartsAgainAndTakeOverAgainWhenTheBackupsNodeDies() throws Exception {
    ControlPlaneSpec pair = RACK.controlPlane();
    TestProbe<ControlPlaneBoot.BootProgress> booted = testKit.createTestProbe();
    JournaledRack.find(testKit, ComponentKeys.controlPlaneBoot(), WAIT).tell(new ControlPlaneBoot.AwaitBooted(booted.ref()));
    assertTrue(booted.receiveMessage(WAIT).booted());
    ActorRef<ControlPlaneHost.Command> oldMmh = JournaledRack.find(testKit, ComponentKeys.controlPlaneHost(pair.master()), WAIT);
    ActorRef<ControlPlaneHost.Command> bmh = JournaledRack.find(testKit, ComponentKeys.controlPlaneHost(pair.backup()), WAIT);
    String bmhPort = table(pair.fencingSwitch()).ports().stream().filter(p -> p.virtualSwitch() == 2)
        .findFirst().orElseThrow().name();

    TestProbe<TakeoverBreakdown> takeovers = testKit.createTestProbe();
    bmh.tell(new ControlPlaneHost.SubscribeTakeovers(takeovers.ref()));
    testKit.stop(nodes.get("node-mmh"), WAIT); // the MMH's JVM dies
    takeovers.receiveMessage(WAIT);
    assertEquals(Role.MASTER, status(bmh).role());
    assertPortsIn(2, pair.masterPort(), 1); // fenced: every port but the MMH's in VS2

    JournaledRack.startNode(testKit, RACK, "node-mmh", "node-mmh-restarted");
    ActorRef<ControlPlaneHost.Command> mmh = findNew(ComponentKeys.controlPlaneHost(pair.master()), oldMmh);
    awaitRole(mmh, Role.BACKUP);
    assertEquals(status(bmh).lastSeqNr(), status(mmh).lastSeqNr());
    assertEquals(state(bmh).state(), state(mmh).state(), "the transfer brought the master's state");
    assertEquals(Optional.of(new Tenure(ControlPlaneBootPlan.persistenceId(pair.master()), 2)),
        JournalTenures.last(testKit.system(), ControlPlaneBootPlan.persistenceId(pair.master()))
            .toCompletableFuture().get(20, TimeUnit.SECONDS), "it wrote its next tenure");
    TestProbe<Receptionist.Listing> boot = testKit.createTestProbe();
    testKit.system().receptionist().tell(Receptionist.find(ComponentKeys.controlPlaneBoot(), boot.ref()));
    assertEquals(0, boot.receiveMessage(WAIT).getServiceInstances(ComponentKeys.controlPlaneBoot()).size(),
        "no second boot: the restarted master does not pair as a master");

    TestProbe<TakeoverBreakdown> again = testKit.createTestProbe();
    mmh.tell(new ControlPlaneHost.SubscribeTakeovers(again.ref()));
    testKit.stop(nodes.get("node-bmh"), WAIT); // the second failure
    again.receiveMessage(WAIT);
    assertEquals(Role.MASTER, status(mmh).role());
    assertPortsIn(1, bmhPort, 2); // the second fencing moved them back: every port but the BMH's in VS1
  }
}
