package io.rackfabric.cluster.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import akka.actor.typed.javadsl.Adapter;
import akka.actor.typed.receptionist.Receptionist;
import akka.actor.typed.receptionist.ServiceKey;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.cluster.topology.ControlPlaneSpec;
import io.rackfabric.cluster.topology.NodeSpec;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.cluster.topology.TopologyLoader;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.RoutingTable;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.fabric.switchchip.SwitchChip;
import io.rackfabric.host.controlplane.ControlPlaneHost;
import io.rackfabric.host.controlplane.ControlPlaneHost.Role;
import io.rackfabric.host.controlplane.ControlPlaneSettings;
import io.rackfabric.host.controlplane.Takeover;
import io.rackfabric.host.controlplane.TakeoverBreakdown;
import io.rackfabric.persistence.controller.Controller.CurrentState;
import io.rackfabric.persistence.journal.JournalConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ladon-testbed rack in one JVM with a journal: the node launcher starts the MMH/BMH pair its
 * control-plane section names, pairs them and boots the controller from the topology; when the
 * master's software dies, the backup fences it on tor and takes over with the same state.
 */
class ControlPlaneRackTest {

  static final Duration WAIT = Duration.ofSeconds(30);
  static final Topology RACK = load();

  @TempDir static Path data;
  static ActorTestKit testKit;

  static Topology load() {
    try {
      return TopologyLoader.load("ladon-testbed");
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  @BeforeAll
  static void startRack() {
    testKit = ActorTestKit.create("rack", ConfigFactory.parseString("akka.actor.serialize-messages = on")
        .withFallback(JournalConfig.h2(data, "rack", 2)).withFallback(ConfigFactory.load()));
    FabricSettings fabric = FabricSettings.create(testKit.system().settings().config());
    for (NodeSpec n : RACK.nodes()) {
      testKit.spawn(RackNode.create(RACK, n.name(), fabric), n.name());
    }
  }

  @AfterAll
  static void stop() {
    testKit.shutdownTestKit();
  }

  static <T> ActorRef<T> find(ServiceKey<T> key) {
    TestProbe<Receptionist.Listing> probe = testKit.createTestProbe();
    return probe.awaitAssert(WAIT, () -> {
      testKit.system().receptionist().tell(Receptionist.find(key, probe.ref()));
      var refs = probe.receiveMessage().getServiceInstances(key);
      assertEquals(1, refs.size(), key.id() + " registered");
      return refs.iterator().next();
    });
  }

  static ControlPlaneHost.HostStatus status(ActorRef<ControlPlaneHost.Command> host) {
    TestProbe<ControlPlaneHost.HostStatus> probe = testKit.createTestProbe();
    host.tell(new ControlPlaneHost.GetStatus(probe.ref()));
    return probe.receiveMessage(WAIT);
  }

  static CurrentState state(ActorRef<ControlPlaneHost.Command> host) {
    TestProbe<CurrentState> probe = testKit.createTestProbe();
    host.tell(new ControlPlaneHost.GetControllerState(probe.ref()));
    return probe.receiveMessage(WAIT);
  }

  @Test
  void shouldBootThePairFromTheTopologyAndTakeOverWithTheSameStateWhenTheMasterDies() {
    ControlPlaneSpec pair = RACK.controlPlane();
    ActorRef<ControlPlaneHost.Command> mmh = find(ComponentKeys.controlPlaneHost(pair.master()));
    ActorRef<ControlPlaneHost.Command> bmh = find(ComponentKeys.controlPlaneHost(pair.backup()));
    int bootOps = ControlPlaneBootPlan.operations(RACK).size();
    TestProbe<Void> wait = testKit.createTestProbe();
    wait.awaitAssert(WAIT, () -> {
      ControlPlaneHost.HostStatus m = status(mmh);
      assertEquals(Role.MASTER, m.role());
      assertEquals(bootOps, m.lastSeqNr(), "every boot operation persisted and acknowledged");
      assertEquals(Role.BACKUP, status(bmh).role());
      return null;
    });
    CurrentState booted = state(mmh);
    assertTrue(booted.state().templateTaken(), "the template image is taken");
    assertEquals(Set.of("mmh", "ch1", "ch2"), booted.state().hosts().keySet(), "the master's domain");
    assertEquals(booted.state(), state(bmh).state(), "the backup's replica holds the same state");

    TestProbe<TakeoverBreakdown> takeovers = testKit.createTestProbe();
    bmh.tell(new ControlPlaneHost.SubscribeTakeovers(takeovers.ref()));
    // The MMH's software crashes: its heartbeats stop.
    testKit.system().classicSystem().stop(Adapter.toClassic(mmh));
    TakeoverBreakdown b = takeovers.receiveMessage(WAIT);

    ControlPlaneSettings settings = ControlPlaneSettings.create(testKit.system().settings().config());
    assertEquals(Takeover.LADON, b.mode());
    assertEquals(settings.rebootTimeNs(), b.rebootNs(), "the reboot from the running image advances the clock");
    assertTrue(b.portReassignmentNs() >= settings.portReassignmentNs(), b.toString());
    assertEquals(Role.MASTER, status(bmh).role());
    TestProbe<ControlPlaneHost.Takeovers> past = testKit.createTestProbe();
    bmh.tell(new ControlPlaneHost.GetTakeovers(past.ref()));
    assertEquals(List.of(b), past.receiveMessage(WAIT).takeovers(), "the backup keeps its take-overs");
    assertEquals(booted.state(), state(bmh).state(), "the backup serves the state the master acknowledged");
    TestProbe<RoutingTable> table = testKit.createTestProbe();
    find(ComponentKeys.switchChip(pair.fencingSwitch())).tell(new SwitchChip.GetRoutingTable(table.ref()));
    for (PortConfig p : table.receiveMessage(WAIT).ports()) {
      assertEquals(p.name().equals(pair.masterPort()) ? 1 : 2, p.virtualSwitch(),
          "fenced: only the master's port is left in VS1 (" + p.name() + ")");
    }
  }
}
