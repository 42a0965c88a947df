package io.rackfabric.host.controlplane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import akka.persistence.typed.PersistenceId;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.endpoint.GuestPeer;
import io.rackfabric.fabric.endpoint.InboundAccessCheck;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.link.LinkParameters;
import io.rackfabric.fabric.link.PortMessage;
import io.rackfabric.fabric.routing.RoutingTable;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.fabric.switchchip.SwitchChip;
import io.rackfabric.fabric.time.JoinKeeper;
import io.rackfabric.fabric.time.TimeKeeper;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.host.controlplane.ControlPlaneHost.BecomeMaster;
import io.rackfabric.host.controlplane.ControlPlaneHost.Command;
import io.rackfabric.host.controlplane.ControlPlaneHost.Role;
import io.rackfabric.host.controlplane.ControlPlaneHost.RoleChanged;
import io.rackfabric.persistence.journal.JournalConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The management-host pair with model-time heartbeats, each host the guest of its own endpoint and
 * the endpoints joined by the pair's guest channel, under a time keeper: the heartbeats run only
 * as far as the run driver lets model time go, and the suspicion comes exactly at the deadline
 * after the last heartbeat, whatever the wall clock did meanwhile.
 */
class ModelTimeHeartbeatsTest {

  static final Duration WAIT = Duration.ofSeconds(20);
  static final long MS = 1_000_000L;

  @TempDir
  static Path dataDir;
  static ActorTestKit testKit;
  static ControlPlaneSettings settings;
  static FabricSettings fabric;

  @BeforeAll
  static void start() throws Exception {
    testKit = ActorTestKit.create("modeltime", ConfigFactory.parseString(
            "akka.actor.serialize-messages = on\n"
                + "rackfabric.host.controlplane.model-time-heartbeats = true\n")
        .withFallback(JournalConfig.h2(dataDir, "modeltime", 2))
        .withFallback(ConfigFactory.load()));
    JournalConfig.createSchema(testKit.system()).toCompletableFuture().get(30, TimeUnit.SECONDS);
    settings = ControlPlaneSettings.create(testKit.system().settings().config());
    fabric = FabricSettings.create(testKit.system().settings().config());
  }

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  /** An endpoint no link joins, with the pair's guest channel to {@code peer}. */
  static ActorRef<MemoryEndpoint.Command> endpoint(String id, String peer) {
    return testKit.spawn(MemoryEndpoint.create(id, Bdf.of(0, 0, 0), true, List.of(new AddressRange(0, 0xFFFF)),
        LinkParameters.gen3x4(), null, fabric, InboundAccessCheck.allowAll(),
        List.of(new GuestPeer(peer, settings.linkLatencyNs()))), id);
  }

  static TimeKeeper.Status holdBefore(ActorRef<TimeKeeper.Command> keeper, long until) {
    TestProbe<TimeKeeper.Status> held = testKit.createTestProbe();
    keeper.tell(new TimeKeeper.HoldBefore(until, held.ref()));
    return held.receiveMessage(WAIT);
  }

  static ControlPlaneHost.HostStatus status(ActorRef<Command> host) {
    TestProbe<ControlPlaneHost.HostStatus> probe = testKit.createTestProbe();
    host.tell(new ControlPlaneHost.GetStatus(probe.getRef()));
    return probe.receiveMessage(WAIT);
  }

  /** The pair on its endpoints under a keeper, paired and confirmed; the names start with {@code p}. */
  record Pair(ActorRef<TimeKeeper.Command> keeper, ActorRef<Command> mmh, ActorRef<Command> bmh,
      TestProbe<TakeoverBreakdown> takeovers, long pairedAt) {}

  static Pair pair(String p) {
    return pair(p, List.of());
  }

  /** As above, the backup fencing the master on {@code fences}. */
  static Pair pair(String p, List<ControlPlaneHost.FenceTarget> fences) {
    ActorRef<MemoryEndpoint.Command> mmhEp = endpoint(p + "-mmh", p + "-bmh");
    ActorRef<MemoryEndpoint.Command> bmhEp = endpoint(p + "-bmh", p + "-mmh");
    ActorRef<TimeKeeper.Command> keeper = testKit.spawn(TimeKeeper.create(Set.of(p + "-mmh", p + "-bmh")), p + "-keeper");
    for (ActorRef<MemoryEndpoint.Command> e : List.of(mmhEp, bmhEp)) {
      e.<PortMessage>unsafeUpcast().tell(new JoinKeeper(keeper));
    }
    TestProbe<TimeKeeper.Status> idle = testKit.createTestProbe();
    keeper.tell(new TimeKeeper.AwaitIdle(idle.ref()));
    assertEquals(2, idle.receiveMessage(WAIT).joined());

    ActorRef<Command> bmh = testKit.spawn(ControlPlaneHost.create(p + "-bmh", Role.BACKUP,
        PersistenceId.ofUniqueId(p + "-bmh"), settings, fences, bmhEp), "cp-" + p + "-bmh");
    ActorRef<Command> mmh = testKit.spawn(ControlPlaneHost.create(p + "-mmh", Role.BOOTING,
        PersistenceId.ofUniqueId(p + "-mmh"), settings, List.of(), mmhEp), "cp-" + p + "-mmh");
    TestProbe<TakeoverBreakdown> takeovers = testKit.createTestProbe();
    bmh.tell(new ControlPlaneHost.SubscribeTakeovers(takeovers.getRef()));
    TestProbe<RoleChanged> paired = testKit.createTestProbe();
    mmh.tell(new BecomeMaster(bmh, paired.getRef()));
    assertTrue(paired.receiveMessage(WAIT).ok());
    long pairedAt = status(mmh).modelNow();
    // The master's first heartbeat wake reached its endpoint before the answer above: a confirm
    // makes both endpoints report what they hold, as a run driver does after its own input.
    TestProbe<TimeKeeper.Confirmed> confirmed = testKit.createTestProbe();
    for (ActorRef<MemoryEndpoint.Command> e : List.of(mmhEp, bmhEp)) {
      e.<PortMessage>unsafeUpcast().tell(new TimeKeeper.Confirm(confirmed.ref()));
      confirmed.receiveMessage(WAIT);
    }

    return new Pair(keeper, mmh, bmh, takeovers, pairedAt);
  }

  @Test
  void shouldBeatOnlyAsFarAsTheRackRunsAndSuspectExactlyAtTheDeadlineWhenTheMasterFallsSilent() {
    Pair pair = pair("mt");
    ActorRef<TimeKeeper.Command> keeper = pair.keeper();
    ActorRef<Command> mmh = pair.mmh();
    ActorRef<Command> bmh = pair.bmh();
    TestProbe<TakeoverBreakdown> takeovers = pair.takeovers();
    long pairedAt = pair.pairedAt();
    TestProbe<TimeKeeper.Status> idle = testKit.createTestProbe();

    // Released and with nothing else to do, the rack does not run on heartbeats alone.
    keeper.tell(new TimeKeeper.AwaitIdle(idle.ref()));
    assertTrue(idle.receiveMessage(WAIT).idle());
    assertEquals(pairedAt, status(mmh).modelNow(), "no heartbeat ran");

    // Held before one model second on: nine heartbeats, the last one's arrival the backup's clock.
    long interval = settings.heartbeatIntervalNs();
    long second = pairedAt + 10 * interval;
    holdBefore(keeper, second);
    assertEquals(pairedAt + 9 * interval, status(mmh).modelNow());
    assertEquals(pairedAt + 9 * interval + settings.linkLatencyNs(), status(bmh).modelNow());
    assertEquals(Role.BACKUP, status(bmh).role(), "no suspicion while heartbeats come");

    // From there on the master's heartbeats are held (it looks dead): the suspicion is due an
    // interval count after the last heartbeat's arrival, in model time.
    mmh.tell(new ControlPlaneHost.HoldHeartbeats(true));
    status(mmh); // the hold is in before the rack moves on
    holdBefore(keeper, second + 10 * interval);
    TakeoverBreakdown b = takeovers.receiveMessage(WAIT);
    assertEquals(pairedAt + 9 * interval, b.lastHeartbeatAt());
    assertEquals(settings.suspicionAfterNs() + settings.linkLatencyNs(), b.detectionNs());
    keeper.tell(new TimeKeeper.Release());
  }

  @Test
  void shouldStillTakeOverWhenAHeartbeatOnItsWayArrivesAfterTheMasterIsKnownGone() {
    Pair pair = pair("gone");
    long interval = settings.heartbeatIntervalNs();
    long latency = settings.linkLatencyNs();
    // The master's first heartbeat has left (at an interval) and is still on its way to the backup.
    long sent = pair.pairedAt() + interval;
    holdBefore(pair.keeper(), sent + latency / 2);
    TestProbe<Object> watch = testKit.createTestProbe();
    testKit.stop(pair.mmh());
    watch.expectTerminated(pair.mmh(), WAIT);
    status(pair.bmh()); // the backup has learnt of the master's end by now

    // Released with nothing else to do: the heartbeat still arrives, and moves the deadline; the
    // rack must run on to the new one (a released rack does not run background wakes alone).
    pair.keeper().tell(new TimeKeeper.Release());
    TakeoverBreakdown b = pair.takeovers().receiveMessage(WAIT);
    assertEquals(sent, b.lastHeartbeatAt());
    assertEquals(sent + latency + settings.suspicionAfterNs(), b.suspectedAt());
  }

  @Test
  void shouldStampTheReassignmentAndHoldTheRackUntilTheChipAnsweredWhenTheBackupTakesOver() {
    TestProbe<SwitchChip.Command> chip = testKit.createTestProbe(); // answers by hand
    Pair pair = pair("fence", List.of(new ControlPlaneHost.FenceTarget(chip.getRef(), List.of(0), 1)));
    long interval = settings.heartbeatIntervalNs();
    holdBefore(pair.keeper(), pair.pairedAt() + 2 * interval);
    pair.mmh().tell(new ControlPlaneHost.HoldHeartbeats(true));
    status(pair.mmh());

    TestProbe<TimeKeeper.Status> held = testKit.createTestProbe();
    pair.keeper().tell(new TimeKeeper.HoldBefore(pair.pairedAt() + 20 * interval, held.ref()));
    SwitchChip.GetRoutingTable read = chip.expectMessageClass(SwitchChip.GetRoutingTable.class, WAIT);
    RoutingTable table = FencingTest.table();
    read.replyTo().tell(table);
    SwitchChip.ReassignPorts move = chip.expectMessageClass(SwitchChip.ReassignPorts.class, WAIT);
    assertEquals(List.of(2, 3), move.ports());
    // The rack waits in the deadline's call for the chip: no port can pass the stamp meanwhile.
    held.expectNoMessage(Duration.ofMillis(300));
    move.replyTo().tell(table);

    TakeoverBreakdown b = pair.takeovers().receiveMessage(WAIT);
    assertEquals(b.suspectedAt() + settings.portReassignmentNs(), move.effectiveAt(),
        "in force when the partition update ends");
    assertEquals(b.fencedAt(), move.effectiveAt());
    assertTrue(held.receiveMessage(WAIT).reached() >= b.suspectedAt(), "the rack went on once answered");
    pair.keeper().tell(new TimeKeeper.Release());
  }

  /**
   * The MMH's heartbeats held until the BMH fenced it, then the BMH stopped, the rack held: the
   * FENCED MMH's model time.
   */
  private long fencedByAMasterThatThenStopped(Pair pair) {
    pair.mmh().tell(new ControlPlaneHost.HoldHeartbeats(true));
    status(pair.mmh());
    holdBefore(pair.keeper(), pair.pairedAt() + 10 * settings.heartbeatIntervalNs());
    pair.takeovers().receiveMessage(WAIT);
    testKit.createTestProbe().awaitAssert(WAIT, () -> {
      assertEquals(Role.FENCED, status(pair.mmh()).role());
      return null;
    });
    TestProbe<Object> watch = testKit.createTestProbe();
    testKit.stop(pair.bmh());
    watch.expectTerminated(pair.bmh(), WAIT);
    return status(pair.mmh()).modelNow();
  }

  @Test
  void shouldStayFencedExactlyAtTheAnswerDeadlineWhenTheMasterNeverAnswersTheRejoin() {
    Pair pair = pair("noanswer");
    long asked = fencedByAMasterThatThenStopped(pair); // nobody answers the rejoin
    pair.keeper().tell(new TimeKeeper.Release()); // released: the deadline's wake is work it runs on to

    TestProbe<RoleChanged> rejoin = testKit.createTestProbe();
    pair.mmh().tell(new ControlPlaneHost.Rejoin(rejoin.getRef()));
    RoleChanged r = rejoin.receiveMessage(WAIT);
    long due = asked + settings.peerAnswerTimeoutNs();
    assertFalse(r.ok());
    assertEquals(Role.FENCED, r.role());
    assertTrue(r.detail().contains("no answer from the master by " + due + " ns"), r.detail());
    assertEquals(Role.FENCED, status(pair.mmh()).role());
    assertEquals(due, status(pair.mmh()).modelNow(), "given up at the deadline's model time");
  }

  @Test
  void shouldCountTheRejoinFromItsNodesRestartWhenTheRejoinSaysWhenThatWas() {
    Pair pair = pair("restarted");
    // Nobody answers: the answer deadline shows where the rejoin started.
    long restartedAt = fencedByAMasterThatThenStopped(pair) + 5 * settings.heartbeatIntervalNs();
    pair.keeper().tell(new TimeKeeper.Release());

    TestProbe<RoleChanged> rejoin = testKit.createTestProbe();
    pair.mmh().tell(new ControlPlaneHost.Rejoin(null, rejoin.getRef(), restartedAt));
    RoleChanged r = rejoin.receiveMessage(WAIT);
    long due = restartedAt + settings.peerAnswerTimeoutNs();
    assertFalse(r.ok());
    assertTrue(r.detail().contains("no answer from the master by " + due + " ns"), r.detail());
    assertEquals(due, status(pair.mmh()).modelNow(), "asked at its restart, not at its clock before it");
  }

  @Test
  void shouldServeOnAsMasterAtTheAnswerDeadlineWhenTheBackupNeverAnswersTheHandOver() {
    ActorRef<MemoryEndpoint.Command> ep = endpoint("silent-mmh", "silent-bmh");
    ActorRef<TimeKeeper.Command> keeper = testKit.spawn(TimeKeeper.create(Set.of("silent-mmh")), "silent-keeper");
    ep.<PortMessage>unsafeUpcast().tell(new JoinKeeper(keeper));
    TestProbe<TimeKeeper.Status> idle = testKit.createTestProbe();
    keeper.tell(new TimeKeeper.AwaitIdle(idle.ref()));
    assertEquals(1, idle.receiveMessage(WAIT).joined());
    ActorRef<Command> mmh = testKit.spawn(ControlPlaneHost.create("silent-mmh", Role.BOOTING,
        PersistenceId.ofUniqueId("silent-mmh"), settings, List.of(), ep), "cp-silent-mmh");
    TestProbe<Command> backup = testKit.createTestProbe(); // alive, and never answers the hand-over
    TestProbe<RoleChanged> roles = testKit.createTestProbe();
    mmh.tell(new BecomeMaster(backup.getRef(), roles.getRef()));
    ControlPlaneHost.Pair pairing = backup.expectMessageClass(ControlPlaneHost.Pair.class, WAIT);
    pairing.master().tell(new ControlPlaneHost.Paired(true, pairing.lastSeqNr(), pairing.sentAt(), "paired", null));
    assertTrue(roles.receiveMessage(WAIT).ok());

    mmh.tell(new ControlPlaneHost.Switchover(false, 0, roles.getRef()));
    ControlPlaneHost.HandOver handOver = backup.expectMessageClass(ControlPlaneHost.HandOver.class, WAIT);
    RoleChanged r = roles.receiveMessage(WAIT);
    long due = handOver.sentAt() + settings.peerAnswerTimeoutNs();
    assertFalse(r.ok());
    assertEquals(Role.MASTER, r.role());
    assertTrue(r.detail().contains("the backup did not answer the hand-over by " + due + " ns"), r.detail());
    assertEquals(Role.MASTER, status(mmh).role());
    assertTrue(status(mmh).modelNow() >= due, "serves on from the deadline");
    keeper.tell(new TimeKeeper.Release());
  }
}
