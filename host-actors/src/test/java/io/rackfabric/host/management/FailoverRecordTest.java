package io.rackfabric.host.management;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import io.rackfabric.host.failover.FailoverCoordinator;
import io.rackfabric.host.failover.HostLog;
import io.rackfabric.host.failover.NotificationMode;
import io.rackfabric.host.memory.Plane;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class FailoverRecordTest {

  static final ActorTestKit testKit = ActorTestKit.create();

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  final FailoverRecord record = new FailoverRecord("mmh", LoggerFactory.getLogger(FailoverRecordTest.class));

  @Test
  void shouldKeepTheLogInOrderWhenStepsAndDeparturesAddToIt() {
    HostLog.Entry resent = new HostLog.Entry(HostLog.Step.NOTIFICATION_RESENT, 2, 700);
    HostLog.Entry left = new HostLog.Entry(HostLog.Step.NOTIFICATION_ABANDONED, 3, 900);

    record.record(new FailoverCoordinator.Outcome(List.of(), List.of(resent), List.of()));
    record.add(left);

    assertEquals(new HostLog("mmh", 0, List.of(resent, left)), record.hostLog());
  }

  @Test
  void shouldTellEverySubscriberEachRoundWhenItEnds() {
    TestProbe<ManagementHost.FailoverCompleted> watcher = testKit.createTestProbe();
    record.subscribe(watcher.ref());
    FailoverCoordinator.RoundEnded r = new FailoverCoordinator.RoundEnded(1, Plane.PRIMARY, NotificationMode.UNICAST,
        100, 5_000, List.of(3));

    record.record(new FailoverCoordinator.Outcome(List.of(), List.of(), List.of(r)));

    ManagementHost.FailoverCompleted done = watcher.receiveMessage();
    assertEquals(new ManagementHost.FailoverCompleted("mmh", 1, Plane.PRIMARY, NotificationMode.UNICAST, 100, 5_000,
        List.of(3)), done);
    assertFalse(done.succeeded());
    assertEquals(new ManagementHost.Failovers("mmh", List.of(done)), record.failovers());
  }
}
