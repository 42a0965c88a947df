package io.rackfabric.host.management;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.Behaviors;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.fabric.endpoint.EndpointEvent;
import io.rackfabric.fabric.endpoint.GuestCall;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.host.compute.ComputeHost;
import io.rackfabric.host.failover.ControlWord;
import io.rackfabric.host.failover.HostLog;
import io.rackfabric.host.failover.HostLog.Step;
import io.rackfabric.host.failover.LadonAddresses;
import io.rackfabric.host.failover.NotificationMode;
import io.rackfabric.host.iommu.IsolationPlan;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import io.rackfabric.host.memory.Plane;
import io.rackfabric.host.settings.HostSettings;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiPredicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The MH and three real CHs, their root endpoints played by a wire that carries control words
 * between them with a fixed model delay and drops the ones a test names: a lost notification or
 * acknowledgement is resent once the MH's grace passes, on a wall clock the test moves itself.
 */
class NotificationRetransmitTest {

  private static final Config CONFIG = ConfigFactory.parseString("""
      akka.actor.serialize-messages = on
      rackfabric.host.failover { ack-grace = 20ms, ack-timeout = 20us, max-resends = 1 }
      """).withFallback(ConfigFactory.load());
  private static final ActorTestKit testKit = ActorTestKit.create(CONFIG);
  private static final HostSettings SETTINGS = HostSettings.create(CONFIG);
  private static final LadonAddresses ADDRESSES = new LadonAddresses(GlobalMemoryLayout.paper(3), 0x10000);
  private static final int HOSTS = 3;
  /** Model time a control word takes from one host's root to another's. */
  private static final long DELAY = 900;
  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final String CH1_PRIMARY_PORT = "01:00.0";

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  /**
   * The hosts' root endpoints: every write is carried to the host it addresses (the MH is host 0),
   * as the fabric would deliver it, unless {@code drop} says it is lost; lost writes go to {@code
   * dropped}, so a test knows the loss happened.
   */
  private static final class Wire {
    final Map<Integer, ActorRef<EndpointEvent>> watchers = new ConcurrentHashMap<>();
    final Map<Integer, ActorRef<EndpointEvent>> errorWatchers = new ConcurrentHashMap<>();
    /** Each host as its root's guest (never told it is attached: it stays free-running). */
    final Map<Integer, ActorRef<GuestCall>> guests = new ConcurrentHashMap<>();
    final TestProbe<MemoryEndpoint.GuestDone> answered = testKit.createTestProbe();
    final TestProbe<MemoryEndpoint.Command> dropped = testKit.createTestProbe();
    final BiPredicate<Integer, ControlWord> drop;

    Wire(BiPredicate<Integer, ControlWord> drop) {
      this.drop = drop;
    }

    Behavior<MemoryEndpoint.Command> root(int host) {
      return Behaviors.receive(MemoryEndpoint.Command.class)
          .onMessage(MemoryEndpoint.Watch.class, w -> {
            watchers.put(host, w.replyTo());
            return Behaviors.same();
          })
          .onMessage(MemoryEndpoint.WatchErrors.class, w -> {
            errorWatchers.put(host, w.replyTo());
            return Behaviors.same();
          })
          .onMessage(MemoryEndpoint.AttachGuest.class, a -> {
            guests.put(host, a.guest());
            return Behaviors.same();
          })
          .onMessage(MemoryEndpoint.GuestDone.class, d -> {
            answered.ref().tell(d);
            return Behaviors.same();
          })
          .onMessage(MemoryEndpoint.Write.class, w -> {
            carry(host, w);
            return Behaviors.same();
          })
          .build();
    }

    private void carry(int from, MemoryEndpoint.Write w) {
      if (from != 0) {
        for (Plane plane : Plane.values()) {
          if (w.address() == ADDRESSES.ackSlot(from, plane)) {
            deliver(0, ADDRESSES.mhPage(plane) + LadonAddresses.ACKS + 4L * from, w);
          } else if (w.address() == ADDRESSES.reportSlot(from, plane)) {
            deliver(0, ADDRESSES.mhPage(plane) + LadonAddresses.REPORTS + 4L * from, w);
          }
        }
        return;
      }
      for (Plane plane : Plane.values()) {
        if (w.address() == ADDRESSES.multicastPage(plane).base() + LadonAddresses.NOTIFICATION) {
          for (int ch = 1; ch <= HOSTS; ch++) {
            deliver(ch, ADDRESSES.controlPage() + LadonAddresses.NOTIFICATION, w);
          }
        }
        for (int ch = 1; ch <= HOSTS; ch++) {
          if (w.address() == ADDRESSES.notificationOf(ch, plane)) {
            deliver(ch, ADDRESSES.controlPage() + LadonAddresses.NOTIFICATION, w);
          } else if (w.address() == ADDRESSES.responseOf(ch, plane)) {
            deliver(ch, ADDRESSES.controlPage() + LadonAddresses.RESPONSE, w);
          }
        }
      }
    }

    private void deliver(int to, long address, MemoryEndpoint.Write w) {
      if (drop.test(to, ControlWord.decode(w.data()))) {
        dropped.ref().tell(w);
        return;
      }
      watchers.get(to).tell(new EndpointEvent.MemoryWritten("host" + to, address, w.data().length, w.data(), 0,
          w.at() + DELAY));
    }
  }

  /** The MH and CH1..CH3 on one wire, their wall clock in the test's hands. */
  private static final class Rack {
    final Wire wire;
    final AtomicLong wall = new AtomicLong();
    final ActorRef<ManagementHost.Command> mh;
    final Map<Integer, ActorRef<ComputeHost.Command>> chs = new ConcurrentHashMap<>();
    final TestProbe<ManagementHost.FailoverCompleted> rounds = testKit.createTestProbe();

    Rack(NotificationMode mode, BiPredicate<Integer, ControlWord> drop) {
      wire = new Wire(drop);
      for (int ch = 1; ch <= HOSTS; ch++) {
        ActorRef<MemoryEndpoint.Command> root = testKit.spawn(wire.root(ch));
        chs.put(ch, testKit.spawn(ComputeHost.create("ch" + ch, ch, ADDRESSES,
            Map.of(CH1_PRIMARY_PORT, Plane.PRIMARY, "02:00.0", Plane.SECONDARY), SETTINGS, root, wall::get)));
      }
      mh = testKit.spawn(ManagementHost.create("mh", ADDRESSES, Map.of(), mode, SETTINGS,
          testKit.spawn(wire.root(0)), IsolationPlan.none(), wall::get));
      mh.tell(new ManagementHost.SubscribeFailovers(rounds.ref()));
      rounds.awaitAssert(WAIT, () -> {
        assertEquals(HOSTS + 1, wire.watchers.size(), "every host watches its control page");
        assertEquals(HOSTS + 1, wire.errorWatchers.size(), "every host's AER driver is listening");
        return null;
      });
    }

    /** CH1's primary link fails at model {@code at}: its root port's AER message reaches its root. */
    void failCh1Primary(long at) {
      wire.errorWatchers.get(1).tell(new EndpointEvent.ErrorReported("ch1",
          new EndpointStats.AerRecord(CH1_PRIMARY_PORT, "FATAL", "surprise down", at)));
    }

    /** Waits until the wire lost a write, then lets the MH's grace pass on its wall clock. */
    MemoryEndpoint.Write loseOneAndWaitOut() {
      MemoryEndpoint.Write lost = wire.dropped.expectMessageClass(MemoryEndpoint.Write.class, WAIT);
      letGracePass();
      return lost;
    }

    void letGracePass() {
      wall.addAndGet(SETTINGS.ackGrace().toNanos());
    }

    HostLog mhLog() {
      TestProbe<HostLog> probe = testKit.createTestProbe();
      mh.tell(new ManagementHost.GetLog(probe.ref()));
      return probe.receiveMessage(WAIT);
    }

    HostLog chLog(int ch) {
      TestProbe<HostLog> probe = testKit.createTestProbe();
      chs.get(ch).tell(new ComputeHost.GetLog(probe.ref()));
      return probe.receiveMessage(WAIT);
    }

    List<Plane> routes(int ch) {
      TestProbe<ComputeHost.Routes> probe = testKit.createTestProbe();
      chs.get(ch).tell(new ComputeHost.GetRoutes(probe.ref()));
      return probe.receiveMessage(WAIT).planes();
    }
  }

  /** Drops the first word of {@code kind} that goes to host {@code to}. */
  private static BiPredicate<Integer, ControlWord> dropFirst(ControlWord.Kind kind, int to) {
    boolean[] done = {false};
    return (host, word) -> {
      synchronized (done) {
        if (done[0] || host != to || word.kind() != kind) {
          return false;
        }
        done[0] = true;
        return true;
      }
    };
  }

  @Test
  void shouldResendALostNotificationAndCompleteTheRoundWhenUnicast() {
    Rack rack = new Rack(NotificationMode.UNICAST, dropFirst(ControlWord.Kind.ROUTE_CHANGE, 2));

    rack.failCh1Primary(10_000);
    MemoryEndpoint.Write lost = rack.loseOneAndWaitOut();
    ManagementHost.FailoverCompleted done = rack.rounds.receiveMessage(WAIT);

    assertEquals(ControlWord.Kind.ROUTE_CHANGE, ControlWord.decode(lost.data()).kind());
    assertTrue(done.succeeded(), "every CH acknowledged: " + done);
    assertEquals(1, done.failedHost());
    TestProbe<ManagementHost.Failovers> failovers = testKit.createTestProbe();
    rack.mh.tell(new ManagementHost.GetFailovers(failovers.ref()));
    assertEquals(List.of(done), failovers.receiveMessage(WAIT).rounds(), "the MH keeps the rounds it ended");
    HostLog mh = rack.mhLog();
    assertEquals(1, mh.count(Step.NOTIFICATION_RESENT, 2), "CH2's notification was sent again");
    assertEquals(0, mh.count(Step.NOTIFICATION_RESENT, 1) + mh.count(Step.NOTIFICATION_RESENT, 3));
    long sent = mh.first(Step.NOTIFICATION_SENT, 2).orElseThrow().modelAt();
    long resent = mh.first(Step.NOTIFICATION_RESENT, 2).orElseThrow().modelAt();
    assertEquals(lost.at(), sent, "the lost write was the first notification");
    assertEquals(sent + SETTINGS.ackTimeoutNs(), resent, "stamped at the MH's acknowledgement timeout");
    assertEquals(resent + DELAY + SETTINGS.pollLatencyNs(), rack.chLog(2).first(Step.NOTIFICATION_SEEN, 1)
        .orElseThrow().modelAt(), "CH2 saw the resend");
    assertTrue(mh.first(Step.ACK_SEEN, 3).orElseThrow().modelAt() > resent, "CH3 only after CH2");
    assertEquals(1, mh.count(Step.FAILOVER_COMPLETED, 1));
    for (int ch = 2; ch <= HOSTS; ch++) {
      assertEquals(Plane.SECONDARY, rack.routes(ch).get(1), "CH" + ch + " reaches CH1 through PMS2");
    }
  }

  @Test
  void shouldResendALostNotificationOnlyOnceTheRacksHoldIsLiftedWhenHeldAtTheFault() {
    Rack rack = new Rack(NotificationMode.UNICAST, dropFirst(ControlWord.Kind.ROUTE_CHANGE, 2));
    // The run holds the rack at the fault: the MH's endpoint passes the hold on to it.
    rack.wire.guests.get(0).tell(new GuestCall.Hold(1, 10_000));
    assertEquals(1, rack.wire.answered.receiveMessage(WAIT).call());

    rack.failCh1Primary(10_000);
    rack.loseOneAndWaitOut();
    // The acknowledgement could only come after the hold: no grace runs out, however long it is.
    rack.rounds.expectNoMessage(Duration.ofMillis(300));
    assertEquals(0, rack.mhLog().count(Step.NOTIFICATION_RESENT, 2));

    rack.wire.guests.get(0).tell(new GuestCall.Hold(2, Long.MAX_VALUE));
    assertEquals(2, rack.wire.answered.receiveMessage(WAIT).call());
    rack.letGracePass();
    assertTrue(rack.rounds.receiveMessage(WAIT).succeeded());
    assertEquals(1, rack.mhLog().count(Step.NOTIFICATION_RESENT, 2), "resent once the hold was lifted");
  }

  @Test
  void shouldResendWhenAnAckIsLostAndTheHostOnlyAcknowledgesAgainWhenMulticast() {
    Rack rack = new Rack(NotificationMode.MULTICAST, dropFirst(ControlWord.Kind.ACK, 0));
    TestProbe<ComputeHost.RouteChanged> changes = testKit.createTestProbe();
    // Which CH's acknowledgement the wire loses depends on arrival order: watch all of them.
    rack.chs.values().forEach(ch -> ch.tell(new ComputeHost.SubscribeRoutes(changes.ref())));

    rack.failCh1Primary(10_000);
    MemoryEndpoint.Write lost = rack.wire.dropped.expectMessageClass(MemoryEndpoint.Write.class, WAIT);
    // The other two acknowledgements are progress too: let them in before the grace may pass.
    rack.rounds.awaitAssert(WAIT, () -> {
      assertEquals(2, rack.mhLog().entries().stream().filter(e -> e.step() == Step.ACK_SEEN).count());
      return null;
    });
    rack.letGracePass();
    ManagementHost.FailoverCompleted done = rack.rounds.receiveMessage(WAIT);

    assertTrue(done.succeeded(), done.toString());
    int silent = 0;
    for (int c = 1; c <= HOSTS; c++) {
      for (Plane plane : Plane.values()) {
        if (lost.address() == ADDRESSES.ackSlot(c, plane)) {
          silent = c;
        }
      }
    }
    assertTrue(silent > 0, "the lost write was an acknowledgement");
    HostLog mh = rack.mhLog();
    assertEquals(1, mh.count(Step.NOTIFICATION_RESENT, silent), "the CH whose ack was lost is asked again");
    assertEquals(1, mh.count(Step.ACK_SEEN, silent));
    HostLog ch = rack.chLog(silent);
    assertEquals(1, ch.count(Step.NOTIFICATION_SEEN, 1), "the repeat is not a second route change");
    assertEquals(1, ch.count(Step.ROUTE_UPDATED, 1));
    assertEquals(1, ch.count(Step.ACK_SENT, 1));
    assertEquals(1, ch.count(Step.ACK_RESENT, 1), "but it is acknowledged again");
    long resent = mh.first(Step.NOTIFICATION_RESENT, silent).orElseThrow().modelAt();
    assertEquals(resent + DELAY + SETTINGS.pollLatencyNs(), ch.first(Step.ACK_RESENT, 1).orElseThrow().modelAt());
    // CH1 moves everything (4 targets), CH2 and CH3 their view of CH1: six announcements, none twice.
    List<ComputeHost.RouteChanged> announced = changes.receiveSeveralMessages(4 + 2, WAIT);
    assertEquals(6, announced.stream().map(c -> c.host() + "->" + c.target()).distinct().count(), announced.toString());
    changes.expectNoMessage(Duration.ofMillis(100));
  }

  @Test
  void shouldGiveUpOnAHostThatNeverAnswersAndStillNotifyTheOthers() {
    BiPredicate<Integer, ControlWord> ch2Unreachable = (host, word) ->
        host == 2 && word.kind() == ControlWord.Kind.ROUTE_CHANGE;
    Rack rack = new Rack(NotificationMode.UNICAST, ch2Unreachable);

    rack.failCh1Primary(10_000);
    rack.loseOneAndWaitOut(); // the notification
    rack.loseOneAndWaitOut(); // its one resend (max-resends = 1)
    rack.letGracePass(); // the grace doubled with the resend
    ManagementHost.FailoverCompleted done = rack.rounds.receiveMessage(WAIT);

    assertEquals(List.of(2), done.unacknowledged());
    HostLog mh = rack.mhLog();
    assertEquals(1, mh.count(Step.NOTIFICATION_RESENT, 2));
    assertEquals(1, mh.count(Step.NOTIFICATION_ABANDONED, 2));
    assertEquals(1, mh.count(Step.FAILOVER_FAILED, 1));
    assertEquals(0, mh.count(Step.FAILOVER_COMPLETED, 1));
    assertEquals(done.completedAt(), mh.first(Step.ACK_SEEN, 3).orElseThrow().modelAt(), "CH3 was notified after");
    assertEquals(Plane.SECONDARY, rack.routes(3).get(1));
    assertEquals(Plane.PRIMARY, rack.routes(2).get(1), "CH2 never heard of it");
  }

  @Test
  void shouldResendALostFailureReportAndFailOverOnceWhenNoResponseComes() {
    Rack rack = new Rack(NotificationMode.UNICAST, dropFirst(ControlWord.Kind.FAILURE_REPORT, 0));

    rack.failCh1Primary(10_000);
    MemoryEndpoint.Write lost = rack.loseOneAndWaitOut();
    ManagementHost.FailoverCompleted done = rack.rounds.receiveMessage(WAIT);

    assertEquals(ControlWord.Kind.FAILURE_REPORT, ControlWord.decode(lost.data()).kind());
    assertTrue(done.succeeded(), done.toString());
    assertEquals(1, done.failedHost());
    HostLog ch1 = rack.chLog(1);
    long sent = ch1.first(Step.REPORT_SENT, 1).orElseThrow().modelAt();
    long resent = ch1.first(Step.REPORT_RESENT, 1).orElseThrow().modelAt();
    assertEquals(lost.at(), sent, "the lost write was the first report");
    assertEquals(sent + SETTINGS.ackTimeoutNs(), resent, "stamped at the acknowledgement timeout");
    assertEquals(1, ch1.count(Step.RESPONSE_SEEN, 1));
    assertEquals(resent + DELAY + SETTINGS.pollLatencyNs(),
        rack.mhLog().first(Step.REPORT_SEEN, 1).orElseThrow().modelAt(), "the MH read the second copy");
    assertEquals(List.of(Plane.SECONDARY, Plane.SECONDARY, Plane.SECONDARY, Plane.SECONDARY), rack.routes(1));
  }

  @Test
  void shouldReportOnceWhenThePrimaryLinkFailsAgainAfterTheFailOver() {
    Rack rack = new Rack(NotificationMode.UNICAST, (host, word) -> false);
    rack.failCh1Primary(10_000);
    assertTrue(rack.rounds.receiveMessage(WAIT).succeeded());

    rack.failCh1Primary(200_000); // the cable flaps: down again after coming back
    HostLog ch1 = rack.chLog(1); // asked after the second AER, so answered after it was handled
    assertEquals(1, ch1.count(Step.REPORT_SENT, 1), "nothing fails back, so there is nothing to report again");
    assertEquals(1, ch1.count(Step.AER_RECEIVED, 1));
    assertEquals(List.of(Plane.SECONDARY, Plane.SECONDARY, Plane.SECONDARY, Plane.SECONDARY), rack.routes(1),
        "still on the secondary plane, not 'no path left'");
  }

  @Test
  void shouldResendOnTheRealWallClockWhenNothingComesBack() {
    TestProbe<ManagementHost.FailoverCompleted> rounds = testKit.createTestProbe();
    Wire wire = new Wire(dropFirst(ControlWord.Kind.ROUTE_CHANGE, 1));
    for (int ch = 1; ch <= HOSTS; ch++) {
      testKit.spawn(ComputeHost.create("ch" + ch, ch, ADDRESSES, Map.of(CH1_PRIMARY_PORT, Plane.PRIMARY),
          SETTINGS, testKit.spawn(wire.root(ch))));
    }
    ActorRef<ManagementHost.Command> mh = testKit.spawn(ManagementHost.create("mh", ADDRESSES, Map.of(),
        NotificationMode.UNICAST, SETTINGS, testKit.spawn(wire.root(0))));
    mh.tell(new ManagementHost.SubscribeFailovers(rounds.ref()));
    rounds.awaitAssert(WAIT, () -> {
      assertEquals(HOSTS + 1, wire.watchers.size());
      assertEquals(HOSTS + 1, wire.errorWatchers.size());
      return null;
    });

    wire.errorWatchers.get(1).tell(new EndpointEvent.ErrorReported("ch1",
        new EndpointStats.AerRecord(CH1_PRIMARY_PORT, "FATAL", "surprise down", 0)));

    wire.dropped.receiveMessage(WAIT);
    assertTrue(rounds.receiveMessage(WAIT).succeeded());
    TestProbe<HostLog> log = testKit.createTestProbe();
    mh.tell(new ManagementHost.GetLog(log.ref()));
    assertTrue(log.receiveMessage(WAIT).count(Step.NOTIFICATION_RESENT, 1) >= 1);
  }
}
