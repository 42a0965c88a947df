package io.rackfabric.fabric.time;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** A component's side of the synchronization, driven by hand: the keeper is a probe. */
class SynchronizerTest {

  static final ActorTestKit testKit = ActorTestKit.create();

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  @Test
  void shouldHoldTheRestOfAGrantUntilResumedWhenTheHandlerSuspends() {
    TestProbe<TimeKeeper.Command> keeper = testKit.createTestProbe();
    TestProbe<TimeKeeper.Grant> self = testKit.createTestProbe();
    List<String> handled = new ArrayList<>();
    Synchronizer<String>[] sync = new Synchronizer[1];
    sync[0] = new Synchronizer<>("c", (event, time) -> {
      handled.add(event + "@" + time);
      if (event.equals("call")) {
        sync[0].suspend(); // host software must act on it first
      }
    }, () -> { });
    sync[0].join(keeper.ref(), self.ref());
    assertInstanceOf(TimeKeeper.Register.class, keeper.receiveMessage());
    sync[0].schedule(10, "call");
    sync[0].schedule(20, "after");

    sync[0].onGrant(new TimeKeeper.Grant(0, 100));
    assertEquals(List.of("call@10"), handled);
    assertTrue(sync[0].suspended());
    keeper.expectNoMessage(Duration.ofMillis(100)); // no report while the grant is held
    sync[0].schedule(15, "answer"); // what the software did in reply, at its own time

    sync[0].resume();
    assertEquals(List.of("call@10", "answer@15", "after@20"), handled);
    assertFalse(sync[0].suspended());
    TimeKeeper.Report report = assertInstanceOf(TimeKeeper.Report.class, keeper.receiveMessage());
    assertEquals(0, report.round());
    assertEquals(20, report.now());
    assertEquals(0, sync[0].stragglers());
  }

  @Test
  void shouldIgnoreASuspendWhenFreeRunning() {
    List<String> handled = new ArrayList<>();
    Synchronizer<String>[] sync = new Synchronizer[1];
    sync[0] = new Synchronizer<>("free", (event, time) -> {
      handled.add(event);
      sync[0].suspend();
    }, () -> { });
    sync[0].schedule(10, "a");
    sync[0].schedule(20, "b");
    assertEquals(List.of("a", "b"), handled, "handled as they come, nothing held");
    assertFalse(sync[0].suspended());
  }

  @Test
  void shouldCountAStampedEventAsAStragglerAndHandleItAtTheClockWhenItIsDueBehindIt() {
    TestProbe<TimeKeeper.Command> keeper = testKit.createTestProbe();
    TestProbe<TimeKeeper.Grant> self = testKit.createTestProbe();
    List<String> handled = new ArrayList<>();
    Synchronizer<String> sync = new Synchronizer<>("s", (event, time) -> handled.add(event + "@" + time), () -> { });
    sync.join(keeper.ref(), self.ref());
    keeper.receiveMessage();
    sync.schedule(50, "tick");
    sync.onGrant(new TimeKeeper.Grant(0, 100));

    sync.scheduleStamped(60, "on time");
    sync.scheduleStamped(40, "late");
    sync.onGrant(new TimeKeeper.Grant(1, 100));

    assertEquals(List.of("tick@50", "late@50", "on time@60"), handled);
    assertEquals(1, sync.stragglers());
  }

  @Test
  void shouldHandleWhatWasDueBeforeItsRestartAtTheRestartWhenAGrantSaysWhereItsClockStarts() {
    TestProbe<TimeKeeper.Command> keeper = testKit.createTestProbe();
    TestProbe<TimeKeeper.Grant> self = testKit.createTestProbe();
    List<String> handled = new ArrayList<>();
    Synchronizer<String> sync = new Synchronizer<>("r", (event, time) -> handled.add(event + "@" + time), () -> { });
    sync.join(keeper.ref(), self.ref());
    keeper.receiveMessage();
    sync.schedule(0, "start-up");
    sync.schedule(700, "later");
    sync.onGrant(new TimeKeeper.Grant(0, 600, 600, 500));
    assertEquals(List.of("start-up@500"), handled, "its clock starts at the restart, 500");
    assertEquals(500, sync.now());
    sync.schedule(100, "timer"); // asked for at a time before the restart: handled no earlier
    sync.onGrant(new TimeKeeper.Grant(1, 800, 800, 500));
    assertEquals(List.of("start-up@500", "timer@500", "later@700"), handled);
    assertEquals(0, sync.stragglers());
  }
}
