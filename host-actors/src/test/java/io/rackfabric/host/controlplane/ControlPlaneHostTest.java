package io.rackfabric.host.controlplane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import akka.persistence.jdbc.query.javadsl.JdbcReadJournal;
import akka.persistence.query.EventEnvelope;
import akka.persistence.query.PersistenceQuery;
import akka.persistence.typed.PersistenceId;
import akka.stream.javadsl.Sink;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.routing.BridgeRegisters;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.PortRole;
import io.rackfabric.fabric.routing.RoutingTable;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.fabric.switchchip.SwitchChip;
import io.rackfabric.host.controlplane.ControlPlaneHost.BecomeBackup;
import io.rackfabric.host.controlplane.ControlPlaneHost.BecomeMaster;
import io.rackfabric.host.controlplane.ControlPlaneHost.Command;
import io.rackfabric.host.controlplane.ControlPlaneHost.FenceTarget;
import io.rackfabric.host.controlplane.ControlPlaneHost.GetControllerState;
import io.rackfabric.host.controlplane.ControlPlaneHost.Role;
import io.rackfabric.host.controlplane.ControlPlaneHost.RoleChanged;
import io.rackfabric.host.controlplane.ControlPlaneHost.Submit;
import io.rackfabric.persistence.controller.BarRecord;
import io.rackfabric.persistence.controller.Controller;
import io.rackfabric.persistence.controller.Controller.CurrentState;
import io.rackfabric.persistence.controller.Controller.Operation;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import io.rackfabric.persistence.controller.Controller.Status;
import io.rackfabric.persistence.controller.DeviceKind;
import io.rackfabric.persistence.controller.PagePermission;
import io.rackfabric.persistence.journal.JournalConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two management hosts in one JVM on one H2 journal file (each host under its own persistence id,
 * as each node has its own journal in a multi-JVM run), a switch chip to fence on, wall-clock
 * heartbeats with the paper's defaults unless a test says otherwise.
 */
class ControlPlaneHostTest {

  static final long GIB = 1L << 30;
  static final long MS = 1_000_000L;
  static final Duration WAIT = Duration.ofSeconds(20);

  @TempDir
  static Path dataDir;
  static ActorTestKit testKit;
  static ControlPlaneSettings defaults;
  static FabricSettings fabric;

  @BeforeAll
  static void start() throws Exception {
    testKit = ActorTestKit.create("controlplane", ConfigFactory.parseString(
            "akka.actor.serialize-messages = on\n")
        .withFallback(JournalConfig.h2(dataDir, "controlplane", 2))
        .withFallback(ConfigFactory.load()));
    JournalConfig.createSchema(testKit.system()).toCompletableFuture().get(30, TimeUnit.SECONDS);
    defaults = ControlPlaneSettings.create(testKit.system().settings().config());
    fabric = FabricSettings.create(testKit.system().settings().config());
  }

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  // ---- a small rack as operations

  static List<Function<ActorRef<OperationResult>, Operation>> boot() {
    return List.of(
        r -> new Controller.AddHost("ch1", 0x0100, 32 * GIB, 32 * GIB, 1_000, r),
        r -> new Controller.AddHost("ch2", 0x0200, 64 * GIB, 32 * GIB, 2_000, r),
        r -> new Controller.AddDevice("nic0", DeviceKind.NIC, 0x0400, "00.0/02.0",
            List.of(new BarRecord(0, 0x1000_0000L, 1 << 20, false)), 8, 3_000, r),
        r -> new Controller.CompleteEnumeration("mmh", 4_000, r),
        r -> new Controller.InitPfDriver("nic0", 8, 5_000, r),
        r -> new Controller.TakeTemplateImage(6_000, r));
  }

  /** A change of one event: page {@code k} of ch1 opened to ch2. */
  static Function<ActorRef<OperationResult>, Operation> openPage(int k) {
    return r -> new Controller.OpenIommuPage("ch1", 0x0200, 32 * GIB + k * 4096L,
        PagePermission.READ_WRITE, 10_000 + k, r);
  }

  static OperationResult run(ActorRef<Command> host, Function<ActorRef<OperationResult>, Operation> op) {
    TestProbe<OperationResult> probe = testKit.createTestProbe();
    host.tell(new Submit(op.apply(probe.getRef())));
    return probe.receiveMessage(WAIT);
  }

  static OperationResult accepted(ActorRef<Command> host, Function<ActorRef<OperationResult>, Operation> op) {
    OperationResult r = run(host, op);
    assertEquals(Status.ACCEPTED, r.status(), r.detail());
    return r;
  }

  static CurrentState state(ActorRef<Command> host) {
    TestProbe<CurrentState> probe = testKit.createTestProbe();
    host.tell(new GetControllerState(probe.getRef()));
    return probe.receiveMessage(WAIT);
  }

  static ControlPlaneHost.HostStatus status(ActorRef<Command> host) {
    TestProbe<ControlPlaneHost.HostStatus> probe = testKit.createTestProbe();
    host.tell(new ControlPlaneHost.GetStatus(probe.getRef()));
    return probe.receiveMessage(WAIT);
  }

  static RoleChanged role(ActorRef<Command> host, Function<ActorRef<RoleChanged>, Command> command) {
    TestProbe<RoleChanged> probe = testKit.createTestProbe();
    host.tell(command.apply(probe.getRef()));
    return probe.receiveMessage(WAIT);
  }

  static ActorRef<Command> host(String name, Role role, ControlPlaneSettings s, List<FenceTarget> targets) {
    return testKit.spawn(ControlPlaneHost.create(name, role, PersistenceId.ofUniqueId(name), s, targets), name);
  }

  record Hosts(ActorRef<Command> mmh, ActorRef<Command> bmh) {}

  /** An empty backup and a master paired with it, then the boot through the master (replicated). */
  static Hosts paired(String p, ControlPlaneSettings s, List<FenceTarget> targets) {
    ActorRef<Command> bmh = host(p + "-bmh", Role.BACKUP, s, targets);
    ActorRef<Command> mmh = host(p + "-mmh", Role.BOOTING, s, List.of());
    RoleChanged r = role(mmh, to -> new BecomeMaster(bmh, to));
    assertTrue(r.ok(), r.detail());
    boot().forEach(op -> accepted(mmh, op));
    return new Hosts(mmh, bmh);
  }

  /** VS1: the MMH's upstream port 0 and three downstream ports; VS2: the BMH's port 1. */
  static ActorRef<SwitchChip.Command> torChip(String id) {
    AddressRange w = new AddressRange(0xD000_0000L, 0xDFFF_FFFFL);
    RoutingTable table = new RoutingTable(List.of(
        new PortConfig("mmh", 0, PortRole.UPSTREAM, 1, new BridgeRegisters(0, 1, 4, w, null), null),
        new PortConfig("bmh", 1, PortRole.UPSTREAM, 2, new BridgeRegisters(0, 5, 5, null, null), null),
        new PortConfig("nic", 2, PortRole.DOWNSTREAM, 1, new BridgeRegisters(1, 2, 2, null, null), null),
        new PortConfig("to-pri", 3, PortRole.DOWNSTREAM, 1, new BridgeRegisters(1, 3, 3, null, null), null),
        new PortConfig("to-sec", 4, PortRole.DOWNSTREAM, 1, new BridgeRegisters(1, 4, 4, null, null), null)),
        List.of());
    return testKit.spawn(SwitchChip.create(id, table, List.of(), fabric), id);
  }

  static RoutingTable table(ActorRef<SwitchChip.Command> chip) {
    TestProbe<RoutingTable> probe = testKit.createTestProbe();
    chip.tell(new SwitchChip.GetRoutingTable(probe.getRef()));
    return probe.receiveMessage(WAIT);
  }

  static ControlPlaneSettings settings(long intervalNs, double missed, long rebootNs, Takeover mode) {
    ControlPlaneSettings d = defaults;
    return new ControlPlaneSettings(intervalNs, missed, d.portReassignmentNs(), rebootNs,
        d.restartTimeNs(), d.linkLatencyNs(), mode, d.maxInFlight(), d.takeoverQueue(), d.tdf(),
        d.replicationTimeout(), false, d.peerAnswerTimeoutNs(), d.rejoinWriteEvents(), d.rejoinChunkEvents(), d.linkGbps());
  }

  /** The events of one persistence id, as stored in the journal. */
  static List<Object> journal(String persistenceId) throws Exception {
    JdbcReadJournal reader = PersistenceQuery.get(testKit.system())
        .getReadJournalFor(JdbcReadJournal.class, JdbcReadJournal.Identifier());
    List<EventEnvelope> envelopes = reader.currentEventsByPersistenceId(persistenceId, 0, Long.MAX_VALUE)
        .runWith(Sink.seq(), testKit.system()).toCompletableFuture().get(20, TimeUnit.SECONDS);
    List<Object> events = new ArrayList<>();
    for (EventEnvelope e : envelopes) {
      assertEquals(events.size() + 1, e.sequenceNr(), "no gap in " + persistenceId);
      events.add(e.event());
    }
    return events;
  }

  // ---- boot and replication

  @Test
  void shouldPairAndReplicateEveryOperationWhenBothHostsBootTheSameTemplate() {
    // Figure 4: the BMH boots and takes its template image, then the MMH does the same.
    ActorRef<Command> bmh = host("fig4-bmh", Role.BOOTING, defaults, List.of());
    boot().forEach(op -> accepted(bmh, op));
    assertTrue(role(bmh, BecomeBackup::new).ok());
    ActorRef<Command> mmh = host("fig4-mmh", Role.BOOTING, defaults, List.of());
    boot().forEach(op -> accepted(mmh, op));
    // A host's numbered request waits for a master: a booting host takes its boot's operations only.
    OperationResult early = run(mmh, to -> new Controller.Request("ch1-driver", 1, openPage(0).apply(to)));
    assertEquals(Status.NOT_MASTER, early.status(), early.detail());
    RoleChanged r = role(mmh, to -> new BecomeMaster(bmh, to));
    assertTrue(r.ok(), r.detail());
    assertEquals(Role.MASTER, r.role());

    for (int k = 0; k < 5; k++) {
      accepted(mmh, openPage(k));
    }
    CurrentState master = state(mmh);
    assertEquals(boot().size() + 5, master.lastSeqNr());
    assertEquals(master, state(bmh), "every acknowledged operation is in the backup's journal");
    // The BMH answers no control request while it is the backup.
    OperationResult refused = run(bmh, openPage(9));
    assertEquals(Status.NOT_MASTER, refused.status());
    assertTrue(refused.detail().startsWith("not the master"), refused.detail());
  }

  @Test
  void shouldRefuseToPairWhenTheTemplatesDiffer() {
    ActorRef<Command> bmh = host("diff-bmh", Role.BOOTING, defaults, List.of());
    boot().subList(0, 2).forEach(op -> accepted(bmh, op));
    assertTrue(role(bmh, BecomeBackup::new).ok());
    ActorRef<Command> mmh = host("diff-mmh", Role.BOOTING, defaults, List.of());
    boot().forEach(op -> accepted(mmh, op));
    RoleChanged r = role(mmh, to -> new BecomeMaster(bmh, to));
    assertFalse(r.ok());
    assertEquals(Role.BOOTING, r.role());
    assertTrue(r.detail().contains("lastSeqNr: master=6 backup=2"), r.detail());
  }

  @Test
  void shouldAnswerOverloadedAndLoseNothingWhenTheBackupIsSlow() {
    // The backup is a probe that answers when the test says so; heartbeats too rare to interfere.
    ControlPlaneSettings s = new ControlPlaneSettings(60_000 * MS, 2.5, MS, MS, MS, 30_000,
        Takeover.LADON, 3, 8, 1.0, Duration.ofSeconds(20), false, 60_000 * MS, 1_000, 1_000, 10);
    TestProbe<Command> backup = testKit.createTestProbe();
    ActorRef<Command> mmh = host("slow-mmh", Role.BOOTING, s, List.of());
    boot().forEach(op -> accepted(mmh, op));
    TestProbe<RoleChanged> roles = testKit.createTestProbe();
    mmh.tell(new BecomeMaster(backup.getRef(), roles.getRef()));
    ControlPlaneHost.Pair pair = backup.expectMessageClass(ControlPlaneHost.Pair.class, WAIT);
    pair.master().tell(new ControlPlaneHost.Paired(true, pair.lastSeqNr(), pair.sentAt(), "paired", null));
    assertTrue(roles.receiveMessage(WAIT).ok());

    TestProbe<OperationResult> results = testKit.createTestProbe();
    for (int k = 0; k < 6; k++) {
      mmh.tell(new Submit(openPage(k).apply(results.getRef())));
    }
    List<ControlPlaneHost.Replicate> waiting = new ArrayList<>();
    for (int k = 0; k < 3; k++) {
      waiting.add(backup.expectMessageClass(ControlPlaneHost.Replicate.class, WAIT));
    }
    for (int k = 0; k < 3; k++) {
      OperationResult r = results.receiveMessage(WAIT);
      assertEquals(Status.OVERLOADED, r.status(), "beyond max-in-flight=3: " + r);
      assertTrue(r.detail().startsWith("overloaded"), r.detail());
    }
    backup.expectNoMessage(Duration.ofMillis(200));
    results.expectNoMessage(Duration.ofMillis(1));
    long seq = boot().size();
    for (ControlPlaneHost.Replicate rep : waiting) {
      assertEquals(++seq, rep.firstSeqNr());
      rep.replyTo().tell(new ControlPlaneHost.Replicated(true, seq, rep.sentAt(), "persisted"));
    }
    Set<Long> acknowledged = new HashSet<>();
    for (int k = 0; k < 3; k++) {
      OperationResult r = results.receiveMessage(WAIT);
      assertEquals(Status.ACCEPTED, r.status(), r.detail());
      acknowledged.add(r.seqNr());
    }
    assertEquals(Set.of(7L, 8L, 9L), acknowledged);
    assertEquals(9, state(mmh).lastSeqNr(), "the refused operations persisted nothing");
  }

  // ---- failure take-over

  @Test
  void shouldFenceRecoverTheAcknowledgedStateAndAnswerQueuedRequestsWhenTheMasterDies() {
    ActorRef<SwitchChip.Command> chip = torChip("tor-a");
    TestProbe<SwitchChip.Command> gate = testKit.createTestProbe(); // holds the take-over open
    Hosts h = paired("die", defaults, List.of(new FenceTarget(gate.getRef(), List.of(0), 1),
        new FenceTarget(chip, List.of(0), 1)));
    for (int k = 0; k < 4; k++) {
      accepted(h.mmh(), openPage(k));
    }
    CurrentState acknowledged = state(h.mmh());
    TestProbe<TakeoverBreakdown> breakdowns = testKit.createTestProbe();
    h.bmh().tell(new ControlPlaneHost.SubscribeTakeovers(breakdowns.getRef()));

    testKit.stop(h.mmh());
    // The first fence target is the gate: while it holds, the backup is taking over.
    SwitchChip.GetRoutingTable read = gate.expectMessageClass(SwitchChip.GetRoutingTable.class, WAIT);
    TestProbe<OperationResult> queued = testKit.createTestProbe();
    h.bmh().tell(new Submit(openPage(20).apply(queued.getRef())));
    h.bmh().tell(new Submit(openPage(21).apply(queued.getRef())));
    queued.expectNoMessage(Duration.ofMillis(100));
    chip.tell(new SwitchChip.GetRoutingTable(read.replyTo()));
    SwitchChip.ReassignPorts move = gate.expectMessageClass(SwitchChip.ReassignPorts.class, WAIT);
    assertEquals(List.of(2, 3, 4), move.ports());
    assertEquals(2, move.virtualSwitch());
    assertEquals(SwitchChip.ReassignPorts.AT_ONCE, move.effectiveAt(), "no endpoint's call: in force at once");
    chip.tell(move);

    TakeoverBreakdown b = breakdowns.receiveMessage(WAIT);
    RoutingTable fenced = table(chip);
    assertEquals(1, fenced.port(0).virtualSwitch(), "the MMH keeps its own port, alone in VS1");
    for (int port : List.of(1, 2, 3, 4)) {
      assertEquals(2, fenced.port(port).virtualSwitch(), "port " + port);
    }
    assertEquals(Takeover.LADON, b.mode());
    assertEquals(defaults.suspicionAfterNs() + defaults.linkLatencyNs(), b.detectionNs());
    // One partition update: on the second chip (the same one) nothing was left in VS1 to move.
    assertEquals(defaults.portReassignmentNs(), b.portReassignmentNs());
    assertEquals(defaults.rebootTimeNs(), b.rebootNs());
    assertEquals(b.detectionNs() + b.portReassignmentNs() + b.rebootNs(), b.totalNs());
    assertEquals(3, b.portsMoved());
    assertEquals(0, b.dataPlaneOutageNs());
    assertEquals(acknowledged.lastSeqNr(), b.lastSeqNr());
    assertEquals(acknowledged.lastSeqNr() - boot().size(), b.eventsReplayed(), "the change log");
    assertEquals(0, b.eventsReadBack(), "the new controller starts from the replica's state, not a replay");
    assertEquals(2, b.requestsQueued());
    assertTrue(b.wallTakeoverNs() > 0 && b.replayWallNs() > 0, b.toString());

    // Answered after the take-over, served at the new master's model time.
    Set<Long> seqNrs = new HashSet<>(); // the controller may answer the two in either order
    for (int k = 0; k < 2; k++) {
      OperationResult r = queued.receiveMessage(WAIT);
      assertEquals(Status.ACCEPTED, r.status(), r.detail());
      seqNrs.add(r.seqNr());
      assertTrue(r.at() >= b.resumedAt(), r.at() + " before " + b.resumedAt());
    }
    assertEquals(Set.of(acknowledged.lastSeqNr() + 1, acknowledged.lastSeqNr() + 2), seqNrs);
    CurrentState recovered = state(h.bmh());
    assertEquals(acknowledged.lastSeqNr() + 2, recovered.lastSeqNr());
    assertNotEquals(acknowledged.state(), recovered.state());
  }

  @Test
  void shouldRecoverAStateEqualToTheMastersWhenNothingWaitedAndFollowTheSettings() {
    // Other parameters: the figures follow them.
    ControlPlaneSettings s = settings(40 * MS, 4, 5_000 * MS, Takeover.LADON);
    ActorRef<SwitchChip.Command> chip = torChip("tor-b");
    Hosts h = paired("settings", s, List.of(new FenceTarget(chip, List.of(0), 1)));
    accepted(h.mmh(), openPage(1));
    CurrentState acknowledged = state(h.mmh());
    TestProbe<TakeoverBreakdown> breakdowns = testKit.createTestProbe();
    h.bmh().tell(new ControlPlaneHost.SubscribeTakeovers(breakdowns.getRef()));
    testKit.stop(h.mmh());

    TakeoverBreakdown b = breakdowns.receiveMessage(WAIT);
    assertEquals(160 * MS + s.linkLatencyNs(), b.detectionNs());
    assertEquals(s.portReassignmentNs(), b.portReassignmentNs());
    assertEquals(5_000 * MS, b.rebootNs());
    assertEquals(acknowledged, state(h.bmh()), "the master's last acknowledged state");
  }

  @Test
  void shouldStopAcknowledgingAndKeepTheJournalsAgreedWhenFalselySuspected() throws Exception {
    ActorRef<SwitchChip.Command> chip = torChip("tor-c");
    Hosts h = paired("false", defaults, List.of(new FenceTarget(chip, List.of(0), 1)));
    List<OperationResult> acked = new ArrayList<>();
    for (int k = 0; k < 3; k++) {
      acked.add(accepted(h.mmh(), openPage(k)));
    }
    TestProbe<TakeoverBreakdown> breakdowns = testKit.createTestProbe();
    h.bmh().tell(new ControlPlaneHost.SubscribeTakeovers(breakdowns.getRef()));

    // The master lives and keeps serving, but its heartbeats no longer reach the backup.
    h.mmh().tell(new ControlPlaneHost.HoldHeartbeats(true));
    int k = 3;
    do {
      OperationResult r = run(h.mmh(), openPage(k++));
      if (r.accepted()) {
        acked.add(r);
      }
    } while (status(h.bmh()).role() == Role.BACKUP);
    breakdowns.receiveMessage(WAIT);
    // From the take-over on, the old master acknowledges nothing.
    testKit.createTestProbe().awaitAssert(WAIT, () -> {
      OperationResult r = run(h.mmh(), openPage(100));
      assertEquals(Status.NOT_MASTER, r.status(), r.detail());
      assertTrue(r.detail().startsWith("not the master"), r.detail());
      return null;
    });
    assertEquals(Role.FENCED, status(h.mmh()).role());
    accepted(h.bmh(), openPage(200));

    long lastAcked = acked.stream().mapToLong(OperationResult::seqNr).max().orElseThrow();
    List<Object> old = journal("false-mmh");
    List<Object> backup = journal("false-bmh");
    assertTrue(backup.size() > lastAcked, "the new master's journal holds every acknowledged op");
    assertTrue(old.size() >= lastAcked, "the old master persisted what it acknowledged");
    // Replicated before persisted: the old master holds nothing the backup lacked, so its whole
    // journal is a prefix of the new master's, even though an operation was on the link at the fence.
    assertEquals(old, backup.subList(0, old.size()), "the journals diverged");
    for (OperationResult r : acked) {
      assertEquals(r.events(), backup.subList((int) (r.seqNr() - r.events().size()), (int) r.seqNr()));
    }
  }

  @Test
  void shouldSuspectNoSilentMasterUntilItsChannelIsCutAndThenAtTheModelDeadline() {
    ActorRef<SwitchChip.Command> chip = torChip("tor-silent");
    ActorRef<Command> bmh = host("silent-bmh", Role.BACKUP, defaults, List.of(new FenceTarget(chip, List.of(0), 1)));
    TestProbe<Command> master = testKit.createTestProbe();
    TestProbe<TakeoverBreakdown> breakdowns = testKit.createTestProbe();
    bmh.tell(new ControlPlaneHost.SubscribeTakeovers(breakdowns.getRef()));
    long sentAt = 700 * MS;
    bmh.tell(new ControlPlaneHost.Heartbeat("silent-mmh", sentAt, master.getRef()));
    bmh.tell(new ControlPlaneHost.Heartbeat("silent-mmh", sentAt + defaults.heartbeatIntervalNs(), master.getRef(),
        true)); // held: only the master's clock, still short of the deadline
    // A master held back by its machine sends nothing at all; however long in wall time (longer
    // than the heartbeat deadline, and than the wall-clock grace there used to be), no suspicion.
    breakdowns.expectNoMessage(Duration.ofSeconds(2));
    assertEquals(Role.BACKUP, status(bmh).role());
    // The harness cuts the link: the master is suspected at the deadline after its last heartbeat.
    long deadline = sentAt + defaults.linkLatencyNs() + defaults.suspicionAfterNs();
    bmh.tell(new ControlPlaneHost.PeerCut(true));
    testKit.createTestProbe().awaitAssert(WAIT, () -> {
      ControlPlaneHost.HostStatus st = status(bmh);
      assertNotEquals(Role.BACKUP, st.role());
      assertTrue(st.modelNow() >= deadline, "the take-over starts at the deadline: " + st.modelNow());
      return null;
    });
  }

  @Test
  void shouldTellEveryDataPlaneParticipantOfTheRestartWindowWhenInRestartMode() {
    ControlPlaneSettings s = defaults.withTakeover(Takeover.RESTART);
    ActorRef<SwitchChip.Command> chip = torChip("tor-d");
    Hosts h = paired("restart", s, List.of(new FenceTarget(chip, List.of(0), 1)));
    TestProbe<ControlPlaneHost.ResetForRestart> ch1 = testKit.createTestProbe();
    TestProbe<ControlPlaneHost.ResetForRestart> ch2 = testKit.createTestProbe();
    TestProbe<TakeoverBreakdown> breakdowns = testKit.createTestProbe();
    h.bmh().tell(new ControlPlaneHost.SubscribeDataPlane(ch1.getRef()));
    h.bmh().tell(new ControlPlaneHost.SubscribeDataPlane(ch2.getRef()));
    h.bmh().tell(new ControlPlaneHost.SubscribeTakeovers(breakdowns.getRef()));
    testKit.stop(h.mmh());

    ControlPlaneHost.ResetForRestart reset = ch1.receiveMessage(WAIT);
    assertEquals(reset, ch2.receiveMessage(WAIT));
    assertEquals(s.restartTimeNs(), reset.downUntil() - reset.downFrom());
    TakeoverBreakdown b = breakdowns.receiveMessage(WAIT);
    assertEquals(Takeover.RESTART, b.mode());
    assertEquals(b.fencedAt(), reset.downFrom());
    assertEquals(s.restartTimeNs(), b.dataPlaneOutageNs());
    assertEquals(s.restartTimeNs(), b.rebootNs());
  }

  // ---- managed switchover

  @Test
  void shouldLoseNoRequestAndApplyNoneTwiceWhenSwitchedOver() {
    Hosts h = paired("switch", defaults, List.of());
    TestProbe<OperationResult> results = testKit.createTestProbe();
    int k = 0;
    for (; k < 5; k++) {
      h.mmh().tell(new Submit(openPage(k).apply(results.getRef())));
    }
    TestProbe<RoleChanged> switched = testKit.createTestProbe();
    h.mmh().tell(new ControlPlaneHost.Switchover(false, switched.getRef()));
    for (; k < 10; k++) {
      h.mmh().tell(new Submit(openPage(k).apply(results.getRef()))); // queued, then forwarded
    }
    RoleChanged r = switched.receiveMessage(WAIT);
    assertTrue(r.ok(), r.detail());
    assertEquals(Role.BACKUP, r.role());
    for (; k < 15; k++) {
      h.bmh().tell(new Submit(openPage(k).apply(results.getRef())));
    }
    Set<Long> seqNrs = new HashSet<>();
    for (int i = 0; i < 15; i++) {
      OperationResult res = results.receiveMessage(WAIT);
      assertEquals(Status.ACCEPTED, res.status(), res.detail());
      assertTrue(seqNrs.add(res.seqNr()), "seqNr " + res.seqNr() + " twice");
    }
    long last = boot().size() + 15;
    assertEquals(last, seqNrs.stream().mapToLong(Long::longValue).max().orElseThrow());
    CurrentState master = state(h.bmh());
    assertEquals(last, master.lastSeqNr(), "each request applied once");
    // The old master is now the backup and holds the same state.
    testKit.createTestProbe().awaitAssert(WAIT, () -> {
      assertEquals(master, state(h.mmh()));
      return null;
    });
    OperationResult refused = run(h.mmh(), openPage(99));
    assertTrue(refused.detail().startsWith("not the master"), refused.detail());
  }

  @Test
  void shouldStayFencedWhenFencedWhileHandingOver() {
    Hosts h = paired("fenced-switch", defaults, List.of());
    TestProbe<RoleChanged> switched = testKit.createTestProbe();
    h.mmh().tell(new ControlPlaneHost.Switchover(false, switched.getRef()));
    h.mmh().tell(new ControlPlaneHost.Fenced("test", 0));
    RoleChanged r = switched.receiveMessage(WAIT);
    assertFalse(r.ok(), r.toString());
    assertEquals(Role.FENCED, r.role());
    assertTrue(r.detail().startsWith("fenced by test"), r.detail());
    // Whatever of the hand-over was under way (a state read, the backup's answer) does not make
    // the fenced host master or backup again.
    testKit.createTestProbe().awaitAssert(WAIT, () -> {
      Role bmh = status(h.bmh()).role();
      assertTrue(bmh == Role.BACKUP || bmh == Role.MASTER, bmh.toString());
      return null;
    });
    assertEquals(Role.FENCED, status(h.mmh()).role());
    OperationResult refused = run(h.mmh(), openPage(1));
    assertEquals(Status.NOT_MASTER, refused.status(), refused.detail());
  }

  // ---- a host's control-plane driver across a take-over

  static final ClientSettings CLIENT = new ClientSettings(Duration.ofMillis(300), Duration.ofMillis(20),
      Duration.ofSeconds(30));
  /**
   * A driver that waits long enough for a paired master's answer on a loaded machine: this driver is
   * free of the model-time kernel, so its resend is a wall-clock timer, and a second resend would
   * make the attempt count depend on the machine's load.
   */
  static final ClientSettings PATIENT_CLIENT = new ClientSettings(Duration.ofSeconds(3), Duration.ofMillis(20),
      Duration.ofSeconds(30));

  @Test
  void shouldAnswerEveryRequestOnceAfterTheTakeOverWhenIssuedWhileTheMasterIsDead() {
    ActorRef<SwitchChip.Command> chip = torChip("tor-cli");
    Hosts h = paired("cli", defaults, List.of(new FenceTarget(chip, List.of(0), 1)));
    TestProbe<TakeoverBreakdown> breakdowns = testKit.createTestProbe();
    h.bmh().tell(new ControlPlaneHost.SubscribeTakeovers(breakdowns.getRef()));
    ActorRef<ControlPlaneClient.Command> client =
        testKit.spawn(ControlPlaneClient.create("ch1-driver", defaults, CLIENT), "cli-client");
    client.tell(new ControlPlaneClient.UseHosts(List.of(h.mmh(), h.bmh())));
    TestProbe<OperationResult> before = testKit.createTestProbe();
    client.tell(new ControlPlaneClient.Issue(openPage(0).apply(before.getRef())));
    assertEquals(Status.ACCEPTED, before.receiveMessage(WAIT).status());

    testKit.stop(h.mmh());
    TestProbe<ControlPlaneClient.PagesDone> done = testKit.createTestProbe();
    long firstPage = 32 * GIB + (1 << 20);
    client.tell(new ControlPlaneClient.OpenPages(
        new ControlPlaneClient.PagePlan("ch1", 0x0200, firstPage, 6, 20_000, 1 * MS), done.getRef()));

    TakeoverBreakdown b = breakdowns.receiveMessage(WAIT);
    List<ControlPlaneClient.RequestRecord> records = done.receiveMessage(WAIT).requests();
    assertEquals(6, records.size());
    for (ControlPlaneClient.RequestRecord r : records) {
      assertEquals(Status.ACCEPTED, r.status(), r.detail());
      assertTrue(r.answeredAt() >= b.resumedAt(), r.answeredAt() + " before the take-over ended at " + b.resumedAt());
    }
    assertTrue(records.get(0).attempts() >= 2, "the dead master was tried first: " + records.get(0));
    CurrentState after = state(h.bmh());
    assertEquals(7, after.state().openPages("ch1"), "each request applied once");
    assertEquals(7, after.state().lastRequest("ch1-driver"));
    assertEquals(Role.MASTER, status(h.bmh()).role());
  }

  @Test
  void shouldAnswerAlreadyAppliedWhenTheFirstAnswerWasLost() {
    Hosts h = paired("lost", defaults, List.of());
    TestProbe<Command> silent = testKit.createTestProbe(); // applies, never answers: a master that died
    ActorRef<ControlPlaneClient.Command> client =
        testKit.spawn(ControlPlaneClient.create("ch2-driver", defaults, PATIENT_CLIENT), "lost-client");
    client.tell(new ControlPlaneClient.UseHosts(List.of(silent.getRef(), h.mmh())));
    TestProbe<OperationResult> answer = testKit.createTestProbe();
    client.tell(new ControlPlaneClient.Issue(openPage(3).apply(answer.getRef())));

    Submit first = silent.expectMessageClass(Submit.class, WAIT);
    TestProbe<OperationResult> swallowed = testKit.createTestProbe();
    Controller.Request request = (Controller.Request) first.operation();
    h.mmh().tell(new Submit(new Controller.Request(request.client(), request.requestSeq(),
        openPage(3).apply(swallowed.getRef()))));
    assertEquals(Status.ACCEPTED, swallowed.receiveMessage(WAIT).status());

    OperationResult r = answer.receiveMessage(WAIT);
    assertEquals(Status.ACCEPTED, r.status());
    assertTrue(r.detail().startsWith("already applied"), r.detail());
    answer.expectNoMessage(Duration.ofMillis(200));
    assertEquals(1, state(h.mmh()).state().openPages("ch1"));
    TestProbe<ControlPlaneClient.PagesDone> log = testKit.createTestProbe();
    client.tell(new ControlPlaneClient.GetRequests(log.getRef()));
    ControlPlaneClient.RequestRecord record = log.receiveMessage(WAIT).requests().get(0);
    assertTrue(record.alreadyApplied(), record.toString());
    assertEquals(2, record.attempts(), "the silent host, then the master");
  }
}
