package io.rackfabric.host.compute;

import static org.junit.jupiter.api.Assertions.assertEquals;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import io.rackfabric.fabric.endpoint.EndpointEvent;
import io.rackfabric.fabric.endpoint.GuestCall;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.management.PathTable;
import io.rackfabric.fabric.management.Route;
import io.rackfabric.host.failover.ControlWord;
import io.rackfabric.host.failover.HostLog;
import io.rackfabric.host.failover.LadonAddresses;
import io.rackfabric.host.failover.PathTablePlanes;
import io.rackfabric.host.memory.Plane;
import io.rackfabric.host.settings.HostSettings;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * A compute host under a fabric manager sets its route list from the path table its root endpoint
 * holds ({@link ComputeHost.ApplyPathTables}); whichever of the table and the MH's notification
 * arrives later wins.
 */
class PathTableRoutesTest {

  private static final ActorTestKit testKit = ActorTestKit.create();
  private static final HostSettings SETTINGS = HostSettings.create(testKit.system().settings().config());
  private static final LadonAddresses ADDRESSES = RouteFollowersTest.ADDRESSES;
  private static final Duration WAIT = RouteFollowersTest.WAIT;
  private static final long MH = 100;
  private static final long CH1 = 101;
  private static final long CH2 = 102;
  private static final PathTablePlanes PLANES = new PathTablePlanes(Map.of(MH, 0, CH1, 1, CH2, 2),
      Map.of(1, Plane.PRIMARY, 2, Plane.SECONDARY));

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  private record Ch2(ActorRef<ComputeHost.Command> host, ActorRef<GuestCall> guest, ActorRef<EndpointEvent> tables) {}

  /** CH2 beside a probe for its root endpoint, free-running, told to apply the path tables. */
  private static Ch2 ch2(TestProbe<MemoryEndpoint.Command> root) {
    RouteFollowersTest.Ch2 ch2 = RouteFollowersTest.attached(testKit, root, false);
    ch2.host().tell(new ComputeHost.ApplyPathTables(PLANES));
    ActorRef<EndpointEvent> tables = root.expectMessageClass(MemoryEndpoint.WatchPathTable.class, WAIT).replyTo();
    return new Ch2(ch2.host(), ch2.guest(), tables);
  }

  /** CH2's table: CH1 through {@code toCh1} (1 primary, 2 secondary), the MH through the primary. */
  private static EndpointEvent.PathTableWritten table(int toCh1, long at) {
    return new EndpointEvent.PathTableWritten("ch2", new PathTable(CH2, List.of(
        new PathTable.Entry(MH, new Route(List.of(0, 1, 0, 0))),
        new PathTable.Entry(CH1, new Route(List.of(0, toCh1, 1, 0))),
        new PathTable.Entry(CH1, new Route(List.of(0, 3 - toCh1, 1, 0)), 1))), at);
  }

  private static List<Plane> routes(Ch2 ch2) {
    TestProbe<ComputeHost.Routes> probe = testKit.createTestProbe();
    ch2.host().tell(new ComputeHost.GetRoutes(probe.ref()));
    return probe.receiveMessage(WAIT).planes();
  }

  private static List<HostLog.Entry> log(Ch2 ch2) {
    TestProbe<HostLog> probe = testKit.createTestProbe();
    ch2.host().tell(new ComputeHost.GetLog(probe.ref()));
    return probe.receiveMessage(WAIT).entries();
  }

  @Test
  void shouldMoveATargetToThePlaneOfItsChosenRouteWhenATableArrivesWhole() {
    TestProbe<MemoryEndpoint.Command> root = testKit.createTestProbe();
    Ch2 ch2 = ch2(root);
    TestProbe<ComputeHost.RouteChanged> watcher = testKit.createTestProbe();
    ch2.host().tell(new ComputeHost.SubscribeRoutes(watcher.ref()));
    ch2.tables().tell(table(1, 20_000));
    ch2.tables().tell(table(2, 53_000));

    ComputeHost.RouteChanged change = watcher.receiveMessage(WAIT);
    assertEquals(1, change.target());
    assertEquals(Plane.SECONDARY, change.plane());
    assertEquals(53_000 + SETTINGS.routeUpdateLatencyNs(), change.modelAt(), "a route-list update after the header");
    assertEquals(List.of(Plane.PRIMARY, Plane.SECONDARY, Plane.PRIMARY, Plane.PRIMARY), routes(ch2),
        "the first table changed nothing, CH3 is in no table");
    assertEquals(List.of(new HostLog.Entry(HostLog.Step.ROUTE_SET_BY_FABRIC_MANAGER, 1, change.modelAt())), log(ch2));
  }

  @Test
  void shouldTakeTheLaterOfTheNotificationAndTheTableWhenTheyDisagree() {
    TestProbe<MemoryEndpoint.Command> root = testKit.createTestProbe();
    Ch2 ch2 = ch2(root);
    byte[] word = new ControlWord(ControlWord.Kind.ROUTE_CHANGE, 1, Plane.PRIMARY, 1).encode();
    ch2.guest().tell(new GuestCall.Event(4, new EndpointEvent.MemoryWritten("ch2",
        ADDRESSES.controlPage() + LadonAddresses.NOTIFICATION, word.length, word, 0, 40_000)));
    root.expectMessageClass(MemoryEndpoint.Write.class, WAIT); // the acknowledgement
    assertEquals(Plane.SECONDARY, routes(ch2).get(1), "the MH's notification moved CH1");
    ch2.tables().tell(table(1, 90_000)); // the fabric manager later finds CH1's primary plane up
    assertEquals(Plane.PRIMARY, routes(ch2).get(1), "the later table wins");
  }

  /** CH2's own primary root port (01:00.0) fails: its AER reaches the host at model {@code at}. */
  private static GuestCall.Event primaryFails(long call, long at) {
    return new GuestCall.Event(call, new EndpointEvent.ErrorReported("ch2",
        new io.rackfabric.fabric.stats.EndpointStats.AerRecord("01:00.0", "FATAL", "surprise down", at)));
  }

  @Test
  void shouldMoveToItsAlternatesAtOnceWhenItsOwnPlaneFailsUnderATable() {
    TestProbe<MemoryEndpoint.Command> root = testKit.createTestProbe();
    Ch2 ch2 = ch2(root);
    TestProbe<ComputeHost.RouteChanged> watcher = testKit.createTestProbe();
    ch2.host().tell(new ComputeHost.SubscribeRoutes(watcher.ref()));
    ch2.tables().tell(table(1, 20_000)); // CH1 through the primary, its alternate the secondary; the MH has none
    assertEquals(Plane.PRIMARY, routes(ch2).get(1));
    ch2.guest().tell(primaryFails(7, 50_000));

    ComputeHost.RouteChanged change = watcher.receiveMessage(WAIT);
    assertEquals(1, change.target());
    assertEquals(Plane.SECONDARY, change.plane());
    assertEquals(50_000 + SETTINGS.aerInterruptLatencyNs() + SETTINGS.routeUpdateLatencyNs(), change.modelAt(),
        "the AER handled, then a route-list update: no notification waited for");
    assertEquals(List.of(Plane.PRIMARY, Plane.SECONDARY, Plane.PRIMARY, Plane.PRIMARY), routes(ch2),
        "the MH has no alternate in the table: it waits for the notification");
    assertEquals(new HostLog.Entry(HostLog.Step.ROUTE_SET_BY_ALTERNATE, 1, change.modelAt()),
        log(ch2).stream().filter(e -> e.step() == HostLog.Step.ROUTE_SET_BY_ALTERNATE).findFirst().orElseThrow());
  }

  @Test
  void shouldWaitForTheNotificationWhenItsOwnPlaneFailsWithNoTable() {
    TestProbe<MemoryEndpoint.Command> root = testKit.createTestProbe();
    Ch2 ch2 = ch2(root);
    ch2.guest().tell(primaryFails(7, 50_000));
    root.expectMessageClass(MemoryEndpoint.Write.class, WAIT); // its failure report to the MH
    assertEquals(List.of(Plane.PRIMARY, Plane.PRIMARY, Plane.PRIMARY, Plane.PRIMARY), routes(ch2));
    assertEquals(0, log(ch2).stream().filter(e -> e.step() == HostLog.Step.ROUTE_SET_BY_ALTERNATE).count());
  }
}
