package io.rackfabric.host.controlplane;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import io.rackfabric.host.controlplane.ControlPlaneHost.BecomeMaster;
import io.rackfabric.host.controlplane.ControlPlaneHost.Command;
import io.rackfabric.host.controlplane.ControlPlaneHost.Role;
import io.rackfabric.host.controlplane.ControlPlaneHost.RoleChanged;
import io.rackfabric.host.controlplane.ControlPlaneHost.Submit;
import io.rackfabric.persistence.controller.Controller.CurrentState;
import io.rackfabric.persistence.controller.Controller.Operation;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import io.rackfabric.persistence.controller.Controller.Status;
import io.rackfabric.persistence.journal.JournalConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * Two management hosts in one test JVM on one H2 journal file, each under its own persistence id,
 * no switch chip (a fencing moves no port): the test kit with the journal's schema, the pairing
 * and the asks the pair's tests share.
 */
final class HostPairKit {

  static final Duration WAIT = Duration.ofSeconds(30);

  final ActorTestKit testKit;
  final ControlPlaneSettings settings;

  record Pair(ActorRef<Command> mmh, ActorRef<Command> bmh) {}

  private HostPairKit(ActorTestKit testKit, ControlPlaneSettings settings) {
    this.testKit = testKit;
    this.settings = settings;
  }

  /**
   * A test kit named {@code name} journaling under {@code dataDir}, with the settings its
   * configuration gives, as {@code adjust} changes them.
   */
  static HostPairKit start(String name, Path dataDir, UnaryOperator<ControlPlaneSettings> adjust) throws Exception {
    ActorTestKit testKit = ActorTestKit.create(name, ConfigFactory.parseString("akka.actor.serialize-messages = on\n")
        .withFallback(JournalConfig.h2(dataDir, name, 2))
        .withFallback(ConfigFactory.load()));
    JournalConfig.createSchema(testKit.system()).toCompletableFuture().get(30, TimeUnit.SECONDS);
    return new HostPairKit(testKit, adjust.apply(ControlPlaneSettings.create(testKit.system().settings().config())));
  }

  void shutdown() {
    testKit.shutdownTestKit();
  }

  <T> T ask(ActorRef<Command> host, Function<ActorRef<T>, Command> command) {
    TestProbe<T> probe = testKit.createTestProbe();
    host.tell(command.apply(probe.getRef()));
    return probe.receiveMessage(WAIT);
  }

  OperationResult run(ActorRef<Command> host, Function<ActorRef<OperationResult>, Operation> op) {
    TestProbe<OperationResult> probe = testKit.createTestProbe();
    host.tell(new Submit(op.apply(probe.getRef())));
    return probe.receiveMessage(WAIT);
  }

  void accepted(ActorRef<Command> host, Function<ActorRef<OperationResult>, Operation> op) {
    OperationResult r = run(host, op);
    assertEquals(Status.ACCEPTED, r.status(), r.detail());
  }

  /** The events of one persistence id, as stored in the journal. */
  List<Object> journal(String persistenceId) throws Exception {
    JdbcReadJournal reader = PersistenceQuery.get(testKit.system())
        .getReadJournalFor(JdbcReadJournal.class, JdbcReadJournal.Identifier());
    return reader.currentEventsByPersistenceId(persistenceId, 0, Long.MAX_VALUE)
        .map(EventEnvelope::event).runWith(Sink.seq(), testKit.system()).toCompletableFuture().get(20, TimeUnit.SECONDS);
  }

  CurrentState state(ActorRef<Command> host) {
    return ask(host, ControlPlaneHost.GetControllerState::new);
  }

  Role role(ActorRef<Command> host) {
    return this.<ControlPlaneHost.HostStatus>ask(host, ControlPlaneHost.GetStatus::new).role();
  }

  /** An empty backup ({@code p}-bmh) and a master ({@code p}-mmh) paired with it, then the boot through the master. */
  Pair paired(String p) {
    ActorRef<Command> bmh = testKit.spawn(ControlPlaneHost.create(p + "-bmh", Role.BACKUP,
        PersistenceId.ofUniqueId(p + "-bmh"), settings, List.of()), p + "-bmh");
    ActorRef<Command> mmh = testKit.spawn(ControlPlaneHost.create(p + "-mmh", Role.BOOTING,
        PersistenceId.ofUniqueId(p + "-mmh"), settings, List.of()), p + "-mmh");
    RoleChanged paired = ask(mmh, to -> new BecomeMaster(bmh, to));
    assertTrue(paired.ok(), paired.detail());
    ControlPlaneHostTest.boot().forEach(op -> accepted(mmh, op));
    return new Pair(mmh, bmh);
  }
}
