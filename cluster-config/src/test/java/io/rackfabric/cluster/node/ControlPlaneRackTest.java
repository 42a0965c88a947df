package io.rackfabric.cluster.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import akka.actor.typed.javadsl.Adapter;
import akka.actor.typed.receptionist.ServiceKey;
import akka.persistence.jdbc.query.javadsl.JdbcReadJournal;
import akka.persistence.query.EventEnvelope;
import akka.persistence.query.PersistenceQuery;
import akka.persistence.query.Sequence;
import akka.stream.javadsl.Sink;
import io.rackfabric.cluster.node.BootSequence.Step;
import io.rackfabric.cluster.topology.ControlPlaneSpec;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.RoutingTable;
import io.rackfabric.fabric.switchchip.SwitchChip;
import io.rackfabric.host.controlplane.ControlPlaneHost.Role;
import io.rackfabric.host.controlplane.ControlPlaneHost;
import io.rackfabric.host.controlplane.ControlPlaneSettings;
import io.rackfabric.host.controlplane.Takeover;
import io.rackfabric.host.controlplane.TakeoverBreakdown;
import io.rackfabric.host.nic.NicSettings;
import io.rackfabric.persistence.controller.Controller.CurrentState;
import io.rackfabric.persistence.controller.ControllerEvent;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ladon-testbed rack in one JVM with a journal: the node launcher starts the MMH/BMH pair its
 * control-plane section names and boots it in Figure 4's order (the BMH enumerates while tor's
 * devices sit in VS2, then the MMH once they are back in VS1, then the pair); when the master's
 * software dies, the backup fences it on tor and takes over with the same state.
 */
class ControlPlaneRackTest {

  static final Duration WAIT = Duration.ofSeconds(30);
  static final Topology RACK = JournaledRack.bundled("ladon-testbed");

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

  static <T> ActorRef<T> find(ServiceKey<T> key) {
    return JournaledRack.find(testKit, key, WAIT);
  }

  static ControlPlaneHost.HostStatus status(ActorRef<ControlPlaneHost.Command> host) {
    return JournaledRack.status(testKit, host, WAIT);
  }

  static CurrentState state(ActorRef<ControlPlaneHost.Command> host) {
    return JournaledRack.state(testKit, host, WAIT);
  }

  static ControlPlaneBoot.BootProgress awaitBooted() {
    TestProbe<ControlPlaneBoot.BootProgress> probe = testKit.createTestProbe();
    find(ComponentKeys.controlPlaneBoot()).tell(new ControlPlaneBoot.AwaitBooted(probe.ref()));
    return probe.receiveMessage(WAIT);
  }

  static RoutingTable table(String chip) {
    TestProbe<RoutingTable> probe = testKit.createTestProbe();
    find(ComponentKeys.switchChip(chip)).tell(new SwitchChip.GetRoutingTable(probe.ref()));
    return probe.receiveMessage(WAIT);
  }

  /** One persistence id's events as the read journal gives them, each with its global ordering. */
  static List<EventEnvelope> events(String persistenceId) throws Exception {
    JdbcReadJournal journal = PersistenceQuery.get(testKit.system()).getReadJournalFor(JdbcReadJournal.class,
        JdbcReadJournal.Identifier());
    return journal.currentEventsByPersistenceId(persistenceId, 0, Long.MAX_VALUE)
        .runWith(Sink.seq(), testKit.system()).toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS);
  }

  static long ordering(EventEnvelope e) {
    return ((Sequence) e.offset()).value();
  }

  @Test
  void shouldBootThePairInFigure4OrderAndTakeOverWithTheSameStateWhenTheMasterDies() throws Exception {
    ControlPlaneSpec pair = RACK.controlPlane();
    ActorRef<ControlPlaneHost.Command> mmh = find(ComponentKeys.controlPlaneHost(pair.master()));
    ActorRef<ControlPlaneHost.Command> bmh = find(ComponentKeys.controlPlaneHost(pair.backup()));
    int bootOps = ControlPlaneBootPlan.operations(RACK,
        NicSettings.create(testKit.system().settings().config()).vfCount()).size();
    ControlPlaneBoot.BootProgress boot = awaitBooted();
    assertTrue(boot.booted(), boot.toString());
    assertEquals(List.of(Step.FINDING, Step.DEVICES_TO_VS2, Step.BACKUP_ENUMERATING, Step.BACKUP_STANDING_BY,
        Step.DEVICES_TO_VS1, Step.MASTER_ENUMERATING, Step.PAIRING, Step.BOOTED), boot.passed());
    assertEquals(bootOps, boot.backupTemplateSeqNr());
    assertEquals(bootOps, boot.masterTemplateSeqNr());

    // While the backup enumerated, every port of tor but the MMH's was in VS2 (the chip's own answer).
    assertEquals(List.of(2, 3, 4), boot.devicePorts(), "nic, to-pri, to-sec");
    for (PortConfig p : boot.devicesInVs2().ports()) {
      assertEquals(p.name().equals(pair.masterPort()) ? 1 : 2, p.virtualSwitch(), "during the BMH's boot: " + p.name());
    }
    // Back in VS1, the routing is exactly the rack's initial one: nothing else of a port changed.
    RoutingTable initial = RequesterIdPlan.of(RACK).routingTable(pair.fencingSwitch());
    assertEquals(initial, boot.devicesBackInVs1(), "the chip's answer to the move back");
    assertEquals(initial, table(pair.fencingSwitch()), "the chip's table now");

    // Paired: the MMH is master, the BMH its backup, with the same journal position and state.
    ControlPlaneHost.HostStatus m = status(mmh);
    assertEquals(Role.MASTER, m.role());
    assertEquals(bootOps, m.lastSeqNr(), "every boot operation persisted and acknowledged");
    assertEquals(Role.BACKUP, status(bmh).role());
    assertEquals(bootOps, status(bmh).lastSeqNr());
    CurrentState booted = state(mmh);
    assertTrue(booted.state().templateTaken(), "the template image is taken");
    assertEquals(Set.of("mmh", "ch1", "ch2"), booted.state().hosts().keySet(), "the master's domain");
    assertEquals(Optional.of(pair.fencingSwitch()), booted.state().enumeratedRoot(), "the tree below tor, for both");
    assertEquals(booted.state(), state(bmh).state(), "the backup's replica holds the same state");

    // Each host enumerated into its own journal; the BMH's template image was persisted before the
    // MMH persisted anything, and both boots are the same events at the same model time (0).
    List<EventEnvelope> ofBmh = events(ControlPlaneBootPlan.persistenceId(pair.backup()));
    List<EventEnvelope> ofMmh = events(ControlPlaneBootPlan.persistenceId(pair.master()));
    assertEquals(bootOps, ofBmh.size());
    assertEquals(bootOps, ofMmh.size());
    assertTrue(ordering(ofBmh.get(bootOps - 1)) < ordering(ofMmh.get(0)),
        "the BMH's template image is in the journal before the MMH's first event");
    for (int i = 0; i < bootOps; i++) {
      assertEquals(ofBmh.get(i).sequenceNr(), ofMmh.get(i).sequenceNr());
      assertEquals(ofBmh.get(i).event(), ofMmh.get(i).event(), "event " + (i + 1));
      assertEquals(0, ((ControllerEvent) ofMmh.get(i).event()).at(), "boot events are stamped at model time 0");
    }

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
    for (PortConfig p : table(pair.fencingSwitch()).ports()) {
      assertEquals(p.name().equals(pair.masterPort()) ? 1 : 2, p.virtualSwitch(),
          "fenced: only the master's port is left in VS1 (" + p.name() + ")");
    }
  }
}
