package io.rackfabric.host.controlplane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import akka.persistence.typed.PersistenceId;
import io.rackfabric.host.controlplane.ControlPlaneHost.Command;
import io.rackfabric.host.controlplane.ControlPlaneHost.Role;
import io.rackfabric.host.controlplane.ControlPlaneHost.RoleChanged;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import io.rackfabric.persistence.controller.Controller.Status;
import io.rackfabric.persistence.controller.JournalTenures;
import io.rackfabric.persistence.controller.Tenure;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A management host whose process died is started again on its journal: it finds its last tenure
 * there, starts FENCED (no controller, never a second master), rejoins the master that took over
 * as its backup into its next tenure, and takes over in turn when that master dies. Two hosts in
 * one JVM on one H2 journal file ({@link HostPairKit}); a stopped host actor stands for a dead JVM.
 */
class RestartRejoinTest {

  static final Duration WAIT = HostPairKit.WAIT;

  @TempDir
  static Path dataDir;
  static HostPairKit kit;

  @BeforeAll
  static void start() throws Exception {
    kit = HostPairKit.start("restart", dataDir, settings -> settings);
  }

  @AfterAll
  static void shutdown() {
    kit.shutdown();
  }

  static Optional<Tenure> lastTenure(String base) throws Exception {
    return JournalTenures.last(kit.testKit.system(), base).toCompletableFuture().get(20, TimeUnit.SECONDS);
  }

  static void stop(ActorRef<Command> host) {
    kit.testKit.stop(host, WAIT);
  }

  static void awaitRole(ActorRef<Command> host, Role role) {
    kit.testKit.createTestProbe().awaitAssert(WAIT, () -> {
      assertEquals(role, kit.role(host));
      return null;
    });
  }

  /** The host {@code name} started again on the last tenure its journal holds, as a restarted node does. */
  static ActorRef<Command> restarted(String name, String actorName) throws Exception {
    Tenure last = lastTenure(name).orElseThrow();
    return kit.testKit.spawn(ControlPlaneHost.create(name, Role.FENCED, PersistenceId.ofUniqueId(last.persistenceId()),
        kit.settings, List.of()), actorName);
  }

  @Test
  void shouldRejoinAsBackupFromItsLastTenureAndTakeOverAgainWhenTheNewMasterDies() throws Exception {
    HostPairKit.Pair h = kit.paired("rs");
    ActorRef<ControlPlaneClient.Command> client = kit.testKit.spawn(
        ControlPlaneClient.create("ch1-driver", kit.settings, ControlPlaneHostTest.CLIENT), "rs-client");
    client.tell(new ControlPlaneClient.UseHosts(List.of(h.mmh(), h.bmh())));
    for (int k = 0; k < 3; k++) {
      kit.accepted(h.mmh(), ControlPlaneHostTest.openPage(k));
    }
    stop(h.mmh()); // its JVM dies: the backup learns it by death watch and takes over
    awaitRole(h.bmh(), Role.MASTER);
    kit.accepted(h.bmh(), ControlPlaneHostTest.openPage(10)); // served alone: the restarted host lacks it

    assertEquals(Optional.of(new Tenure("rs-mmh", 1)), lastTenure("rs-mmh"));
    ActorRef<Command> mmh = restarted("rs-mmh", "rs-mmh-restarted");
    assertEquals(Role.FENCED, kit.role(mmh), "a restarted host is no second master");
    OperationResult refused = kit.run(mmh, ControlPlaneHostTest.openPage(11));
    assertEquals(Status.NOT_MASTER, refused.status(), refused.detail());

    RoleChanged r = kit.ask(mmh, to -> new ControlPlaneHost.Rejoin(h.bmh(), to));
    assertTrue(r.ok(), r.detail());
    assertEquals(Role.BACKUP, r.role());
    assertTrue(r.detail().contains("journal rs-mmh.tenure-2"), r.detail());
    assertEquals(kit.state(h.bmh()), kit.state(mmh), "the transfer brought the master's state");
    assertEquals(Optional.of(new Tenure("rs-mmh", 2)), lastTenure("rs-mmh"));
    kit.accepted(h.bmh(), ControlPlaneHostTest.openPage(12)); // replicated to the rejoined backup
    assertEquals(kit.state(h.bmh()), kit.state(mmh));

    // The drivers learn the restarted host's address (the node's wiring tells them when it is listed anew).
    client.tell(new ControlPlaneClient.UseHosts(List.of(mmh, h.bmh())));
    stop(h.bmh()); // the second failure: the rejoined host takes over from its tenure-2 journal
    awaitRole(mmh, Role.MASTER);
    kit.accepted(mmh, ControlPlaneHostTest.openPage(13));
    TestProbe<OperationResult> viaDriver = kit.testKit.createTestProbe();
    client.tell(new ControlPlaneClient.Issue(ControlPlaneHostTest.openPage(14).apply(viaDriver.getRef())));
    OperationResult answered = viaDriver.receiveMessage(WAIT);
    assertEquals(Status.ACCEPTED, answered.status(), answered.detail());
    assertEquals(Optional.of(new Tenure("rs-mmh", 2)), lastTenure("rs-mmh"));
  }

  @Test
  void shouldStayFencedWhenTheHostNamedAsMasterIsNotTheMaster() throws Exception {
    HostPairKit.Pair h = kit.paired("nm");
    kit.accepted(h.mmh(), ControlPlaneHostTest.openPage(0));
    stop(h.mmh());
    awaitRole(h.bmh(), Role.MASTER);
    ActorRef<Command> mmh = restarted("nm-mmh", "nm-mmh-restarted");
    ActorRef<Command> other = restarted("nm-mmh", "nm-mmh-other"); // a second restarted host, fenced too

    RoleChanged r = kit.ask(mmh, to -> new ControlPlaneHost.Rejoin(other, to));
    assertFalse(r.ok());
    assertEquals(Role.FENCED, r.role());
    assertTrue(r.detail().contains("not the master"), r.detail());
    assertEquals(Role.FENCED, kit.role(mmh));
    assertEquals(Optional.of(new Tenure("nm-mmh", 1)), lastTenure("nm-mmh"), "no new tenure was begun");
  }
}
